"""Codex's config wire layer (#13): hooks.json and config.toml ``[hooks]`` are attrs classes read
by the dialect's own cattrs converter, with serde's leniency kept exactly (unknown keys fail only
at the root) and every failure located as ``msg @ $.path`` with its file and line."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from hookwire.dialects.codex import _wire, config


def _read(tmp_path: Path, doc: Any) -> tuple[str, int | None]:
    path = tmp_path / "hooks.json"
    path.write_text(json.dumps(doc, indent=2))
    result = config.read_file(path)
    assert result.entries == ()
    (problem,) = result.problems
    assert problem.location.file == str(path)
    prefix = f"failed to parse hooks config {path}: "
    assert problem.message.startswith(prefix)
    return problem.message.removeprefix(prefix), problem.location.line


def _cmd(**more: Any) -> dict[str, Any]:
    return {"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "x", **more}]}]}}


@pytest.mark.parametrize(("doc", "message", "line"), [
    ({"$schema": "x"}, "unknown field `$schema`, expected `description` or `hooks` @ $", 1),
    ({"description": 3}, "invalid type: integer `3`, expected a string @ $.description", 2),
    ({"hooks": None}, "invalid type: null, expected a map of events @ $.hooks", 2),
    ({"hooks": {"Stop": {}}}, "invalid type: map, expected a sequence @ $.hooks.Stop", 3),
    ({"hooks": {"Stop": [{"hooks": None}]}},
     "invalid type: null, expected a sequence @ $.hooks.Stop[0].hooks", 5),
    (_cmd(timeout=-1), "invalid value: integer `-1`, expected u64 @ $.hooks.Stop[0].hooks[0]"
     ".timeout", 9),
    (_cmd(**{"async": None}), "invalid type: null, expected a boolean @ "
     "$.hooks.Stop[0].hooks[0].async", 9),
    ({"hooks": {"Stop": [{"hooks": [{"type": "command"}]}]}},
     "missing field `command` @ $.hooks.Stop[0].hooks[0]", 6),
    ({"hooks": {"Stop": [{"hooks": [{"type": "mcp_tool", "server": "s", "tool": "t",
                                     "input": []}]}]}},
     "invalid type: sequence, expected a map @ $.hooks.Stop[0].hooks[0].input", 10),
])
def test_failures_are_located(tmp_path: Path, doc: Any, message: str, line: int) -> None:
    assert _read(tmp_path, doc) == (message, line)


def test_the_first_failure_in_the_document_is_reported(tmp_path: Path) -> None:
    """serde stops at the first bad value; the converter collects all, the earliest wins."""
    bad_stop = [{"hooks": [{"type": "command", "command": 5}]}]
    bad_pre = [{"hooks": [{"type": "command", "command": "y", "timeout": "z"}]}]
    assert "$.hooks.Stop[0]" in _read(tmp_path, {"hooks": {"Stop": bad_stop,
                                                           "PreToolUse": bad_pre}})[0]
    assert "$.hooks.PreToolUse[0]" in _read(tmp_path, {"hooks": {"PreToolUse": bad_pre,
                                                                 "Stop": bad_stop}})[0]


def test_leniency_kept(tmp_path: Path) -> None:
    """Unknown events, unknown group and handler keys, null optionals and the
    ``command_windows`` alias are accepted, as by Codex."""
    path = tmp_path / "hooks.json"
    path.write_text(json.dumps({"hooks": {"Nope": 3, "Stop": [{"x": 1, "matcher": None, "hooks": [
        {"type": "command", "command": "ok", "timeout": None, "statusMessage": None,
         "command_windows": "w", "extra": [1]}]}]}}))
    result = config.read_file(path)
    assert result.problems == () and [e.command for e in result.entries] == ["ok"]


def test_models_are_typed() -> None:
    parsed = _wire.structure({"hooks": {"Stop": [{"matcher": "m", "hooks": [
        {"type": "command", "command": "c", "async": True, "timeout": 3,
         "additionalContextLimit": 10}, {"type": "prompt"}]}]}}, _wire.HooksFile, "$", {})
    (group,) = parsed.hooks["Stop"]
    assert group.matcher == "m"
    assert group.hooks == (_wire.CommandHook(command="c", async_=True, timeout=_wire.U64(3),
                                             additional_context_limit=_wire.U64(10)),
                           _wire.OtherHook(type="prompt"))


def test_config_toml_failures_are_located(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text('[[hooks.Stop]]\n[[hooks.Stop.hooks]]\ntype = "command"\ncommand = 1\n'
                    '[hooks.state]\nx = 1\n')
    (problem,) = config.read_file(path).problems
    assert problem.message == (f"failed to parse TOML hooks in {path}: invalid type: integer "
                               "`1`, expected a string @ $.hooks.Stop[0].hooks[0].command")
    assert problem.location.pointer == "$.hooks.Stop[0].hooks[0].command"
