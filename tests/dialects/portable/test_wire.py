"""The portable hooks.json wire layer (#13): the file and each handler are attrs classes read by
the dialect's own cattrs converter (unknown keys refused, as the format says); the format's
failure policy and its messages stay: a bad top level rejects the file, a bad handler is skipped
with one problem per bad field, located by JSON path and line."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from hookwire.dialects.portable import _wire, config


def _load(tmp_path: Path, handler: dict[str, Any]) -> config.PluginHooks:
    (tmp_path / "hooks.json").write_text(json.dumps(
        {"$schema": config.SCHEMA_ID, "hooks": {"turn-end": [handler, {"command": "ok"}]}},
        indent=2))
    return config.load(tmp_path)


def test_every_bad_field_of_a_handler_is_a_located_problem(tmp_path: Path) -> None:
    hooks = _load(tmp_path, {"command": 3, "args": ["a", 1], "env": {"A": 1}, "cwd": 4,
                             "timeout": True, "result": "loud", "x": 1})
    assert [h.command for h in hooks.handlers] == ["ok"]  # the other handler still loads
    fields = ["x", "command", "args", "env", "cwd", "timeout", "result"]
    assert [p.location.pointer for p in hooks.problems] == [
        f"$.hooks.turn-end[0].{f}" for f in fields]
    text = (tmp_path / "hooks.json").read_text().splitlines()
    # each problem is on the line of its field (json.dumps indent=2: one key per line)
    assert [p.location.line for p in hooks.problems] == [
        next(n for n, line in enumerate(text, 1) if line.strip().startswith(f'"{f}"'))
        for f in fields]
    assert all(p.location.file == str(tmp_path / "hooks.json") for p in hooks.problems)


@pytest.mark.parametrize(("doc", "message"), [
    ({"$schema": ["x"], "hooks": {}}, "unsupported $schema"),
    ({"$schema": config.SCHEMA_ID}, "hooks must be an object"),
    ({"$schema": config.SCHEMA_ID, "hooks": {}, "b": 1, "a": 2}, "unknown key 'b'"),
])
def test_a_bad_top_level_rejects_the_file(tmp_path: Path, doc: Any, message: str) -> None:
    (tmp_path / "hooks.json").write_text(json.dumps(doc))
    hooks = config.load(tmp_path)
    assert hooks.handlers == () and len(hooks.problems) == 1
    assert message in hooks.problems[0].message


def test_models_are_typed() -> None:
    spec, refused = _wire.structure({"command": "c", "args": ["a"], "env": {"A": "1"},
                                     "timeout": 2, "result": "context"}, _wire.HandlerSpec)
    assert refused == _wire.Failures()
    assert spec == _wire.HandlerSpec(command="c", args=("a",), env={"A": "1"}, timeout=2.0,
                                     result="context")


@pytest.mark.parametrize(("data", "context"), [
    ({"context": "x", "metadata": {"a": 1}}, "x"),  # metadata is the handler's own
    ({}, ""),
    ({"context": 3}, None), ({"context": None}, None),
])
def test_result_envelope(data: Any, context: str | None) -> None:
    envelope, _ = _wire.structure(data, _wire.ResultEnvelope)
    assert (envelope.context if envelope is not None else None) == context
