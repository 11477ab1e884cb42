"""Fixtures for the portable dialect tests: plugin folders and a JSON Schema checker.

The checker covers the subset of JSON Schema 2020-12 the profile's schemas use (no
network, no dependency); a keyword it does not know fails the test instead of passing.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import hookwire.dialects.portable as portable_pkg

SCHEMA_DIR = Path(portable_pkg.__file__).parent / "schema"
SCHEMA_URL = "https://hookwire.dev/schemas/portable-hooks/0.1.0/hooks.schema.json"

_KNOWN = {"$schema", "$id", "title", "description", "type", "properties", "required",
          "additionalProperties", "enum", "const", "items", "minItems", "maxItems", "pattern",
          "maxProperties", "propertyNames", "not", "anyOf", "allOf", "if", "then", "$ref",
          "$defs", "exclusiveMinimum", "maximum"}
_TYPES = {"object": dict, "array": list, "string": str, "boolean": bool, "null": type(None)}


def _is(value: Any, typ: str) -> bool:
    if typ == "integer":
        return isinstance(value, int) and not isinstance(value, bool)
    if typ == "number":
        return isinstance(value, int | float) and not isinstance(value, bool)
    return isinstance(value, _TYPES[typ])


def schema_errors(schema: dict[str, Any], value: Any, root: dict[str, Any] | None = None,
                  path: str = "$") -> list[str]:
    root = root or schema
    errs: list[str] = []
    unknown = set(schema) - _KNOWN
    assert not unknown, f"checker does not know {unknown}"
    if "$ref" in schema:
        node: Any = root
        for part in schema["$ref"].removeprefix("#/").split("/"):
            node = node[part]
        errs += schema_errors(node, value, root, path)
    if "type" in schema:
        types = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
        if not any(_is(value, t) for t in types):
            return [f"{path}: not {types}"]
    if "const" in schema and value != schema["const"]:
        errs.append(f"{path}: not {schema['const']!r}")
    if "enum" in schema and value not in schema["enum"]:
        errs.append(f"{path}: not in {schema['enum']}")
    if isinstance(value, str) and "pattern" in schema and not re.search(schema["pattern"], value):
        errs.append(f"{path}: does not match {schema['pattern']}")
    if _is(value, "number"):
        if "exclusiveMinimum" in schema and not value > schema["exclusiveMinimum"]:
            errs.append(f"{path}: too small")
        if "maximum" in schema and not value <= schema["maximum"]:
            errs.append(f"{path}: too large")
    if isinstance(value, list):
        if len(value) < schema.get("minItems", 0) or len(value) > schema.get("maxItems", 1e9):
            errs.append(f"{path}: wrong length")
        for i, item in enumerate(value):
            if "items" in schema:
                errs += schema_errors(schema["items"], item, root, f"{path}[{i}]")
    if isinstance(value, dict):
        if len(value) > schema.get("maxProperties", 1e9):
            errs.append(f"{path}: too many properties")
        errs += [f"{path}: missing {k}" for k in schema.get("required", []) if k not in value]
        props = schema.get("properties", {})
        for key, item in value.items():
            if "propertyNames" in schema:
                errs += schema_errors(schema["propertyNames"], key, root, f"{path}.{key}<name>")
            if key in props:
                errs += schema_errors(props[key], item, root, f"{path}.{key}")
            elif schema.get("additionalProperties") is False:
                errs.append(f"{path}: unexpected {key}")
            elif isinstance(schema.get("additionalProperties"), dict):
                errs += schema_errors(schema["additionalProperties"], item, root, f"{path}.{key}")
    if "not" in schema and not schema_errors(schema["not"], value, root, path):
        errs.append(f"{path}: matches a forbidden schema")
    if "anyOf" in schema and all(schema_errors(s, value, root, path) for s in schema["anyOf"]):
        errs.append(f"{path}: matches none of anyOf")
    for sub in schema.get("allOf", []):
        errs += schema_errors(sub, value, root, path)
    if "if" in schema and not schema_errors(schema["if"], value, root, path):
        errs += schema_errors(schema.get("then", {}), value, root, path)
    return errs


@pytest.fixture
def schema_check() -> Callable[[str, Any], list[str]]:
    """``schema_check("hooks" | "payload" | "result", value)``: the list of violations."""
    def check(name: str, value: Any) -> list[str]:
        schema = json.loads((SCHEMA_DIR / f"{name}.schema.json").read_text())
        return schema_errors(schema, value)

    return check


PluginFactory = Callable[..., Path]


@pytest.fixture
def make_plugin(tmp_path: Path) -> PluginFactory:
    """``make_plugin(hooks, scripts={"bin/x": body}, name="demo")``: a plugin folder with a
    ``hooks.json`` (``hooks`` is the ``hooks`` object) and executable scripts."""
    counter = iter(range(1000))

    def make(hooks: dict[str, Any], scripts: dict[str, str] | None = None,
             name: str | None = None, raw: dict[str, Any] | None = None) -> Path:
        root = tmp_path / (name or f"plugin{next(counter)}")
        root.mkdir()
        for rel, body in (scripts or {}).items():
            path = root / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(body)
            path.chmod(0o755)
        doc = raw if raw is not None else {"$schema": SCHEMA_URL, "hooks": hooks}
        (root / "hooks.json").write_text(json.dumps(doc, indent=2))
        return root

    return make


RECORDER = """#!/usr/bin/env python3
import json, os, sys
payload = json.loads(sys.stdin.read())
rec = {"argv": sys.argv, "payload": payload, "cwd": os.getcwd(), "env": dict(os.environ)}
with open(os.environ["LOG"], "a") as fh:
    fh.write(json.dumps(rec) + "\\n")
"""


@pytest.fixture(autouse=True)
def _isolated_data_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """PLUGIN_DATA lands under tmp_path, never in the real home."""
    data = tmp_path / "xdg-data"
    monkeypatch.setenv("XDG_DATA_HOME", str(data))
    return data


def _read_log(path: Path) -> list[dict[str, Any]]:
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines()]


@pytest.fixture
def recorder() -> str:
    """A Python hook appending {argv, payload, cwd, env} as a JSON line to ``$LOG``."""
    return RECORDER


@pytest.fixture
def read_log() -> Callable[[Path], list[dict[str, Any]]]:
    """``read_log(path)``: the records a recorder hook wrote."""
    return _read_log
