"""A small JSON Schema (draft-07 subset) validator for the dialect's own schemas.

Supports what ``schemas/*.json`` use: ``type`` (one or a list), ``enum``, ``const``,
``properties``, ``required``, ``additionalProperties`` (boolean), ``items``, ``allOf``,
``$ref`` to ``#/definitions/...`` and boolean schemas. Output parsing uses it, so what hookwire
accepts from a hook is exactly what the schema files say.
"""

from __future__ import annotations

import functools
import json
from importlib import resources
from typing import Any

_TYPES = {
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
    "string": lambda v: isinstance(v, str),
    "boolean": lambda v: isinstance(v, bool),
    "null": lambda v: v is None,
    "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "number": lambda v: isinstance(v, int | float) and not isinstance(v, bool),
}


@functools.cache
def load(name: str) -> dict[str, Any]:
    """The schema ``schemas/<name>.schema.json`` shipped with the dialect."""
    text = resources.files("hookwire.dialects.codex").joinpath(
        "schemas", f"{name}.schema.json").read_text(encoding="utf-8")
    schema: dict[str, Any] = json.loads(text)
    return schema


def errors(instance: Any, schema: dict[str, Any] | bool,
           root: dict[str, Any] | None = None, path: str = "$") -> list[str]:
    """Every violation of ``schema`` by ``instance``, as ``message @ $.path`` strings."""
    if schema is True:
        return []
    if schema is False:
        return [f"not allowed @ {path}"]
    assert isinstance(schema, dict)
    root = root if root is not None else schema
    out: list[str] = []
    if "$ref" in schema:
        ref = schema["$ref"]
        target: Any = root
        for part in ref.lstrip("#/").split("/"):
            target = target[part]
        out += errors(instance, target, root, path)
    for sub in schema.get("allOf", ()):
        out += errors(instance, sub, root, path)
    if "type" in schema:
        kinds = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
        if not any(_TYPES[k](instance) for k in kinds):
            return [*out, f"expected {' or '.join(kinds)} @ {path}"]
    if "const" in schema and not _same(instance, schema["const"]):
        out.append(f"expected {json.dumps(schema['const'])} @ {path}")
    if "enum" in schema and not any(_same(instance, e) for e in schema["enum"]):
        out.append(f"expected one of {json.dumps(schema['enum'])} @ {path}")
    if isinstance(instance, dict):
        props = schema.get("properties", {})
        for key in schema.get("required", ()):
            if key not in instance:
                out.append(f"missing required field {key!r} @ {path}")
        for key, value in instance.items():
            if key in props:
                out += errors(value, props[key], root, f"{path}.{key}")
            elif schema.get("additionalProperties") is False:
                out.append(f"unknown field {key!r} @ {path}")
    if isinstance(instance, list) and "items" in schema:
        for i, value in enumerate(instance):
            out += errors(value, schema["items"], root, f"{path}[{i}]")
    return out


def _same(a: Any, b: Any) -> bool:
    return type(a) is type(b) and a == b
