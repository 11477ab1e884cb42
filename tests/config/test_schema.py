"""The published JSON Schema describes exactly the fields the loader accepts."""

from __future__ import annotations

import json
from importlib import resources

import attrs

from hookwire.config.loader import _RENAMES
from hookwire.config.model import HooksFile, HookSpec, SourceSpec


def schema() -> dict:  # type: ignore[type-arg]
    return json.loads(resources.files("hookwire.config").joinpath("schema.json").read_text())


def spelled(cls: type) -> set[str]:
    return {_RENAMES.get(a.name, a.name) for a in attrs.fields(cls)}


def test_schema_fields_match_the_model() -> None:
    s = schema()
    assert set(s["properties"]) == spelled(HooksFile)
    assert set(s["properties"]["hooks"]["items"]["properties"]) == spelled(HookSpec)
    assert set(s["properties"]["sources"]["items"]["properties"]) == spelled(SourceSpec)
    required = {a.name for a in attrs.fields(HookSpec) if a.default is attrs.NOTHING}
    assert set(s["properties"]["hooks"]["items"]["required"]) == required
