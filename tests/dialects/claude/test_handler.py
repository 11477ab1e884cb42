"""The typed handler: read from settings, structured from hookwire's options, exported back."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hookwire import ConfigError, HookEntry, Provenance
from hookwire.dialects.claude import ClaudeDialect
from hookwire.dialects.claude.handler import ClaudeHandler


def test_reader_fills_the_typed_handler(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    path.write_text(json.dumps({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
        {"type": "command", "command": "x", "if": "Bash(git *)", "onFailure": "block",
         "statusMessage": "checking"},
        {"type": "http", "url": "http://h", "headers": {"A": "$T"}, "allowedEnvVars": ["T"]},
    ]}]}}))
    cmd, http = ClaudeDialect().read_config(path).entries
    assert cmd.handler == ClaudeHandler(scope="cli", onFailure="block", if_="Bash(git *)",
                                        statusMessage="checking")
    assert http.handler == ClaudeHandler(type="http", scope="cli", headers={"A": "$T"},
                                         allowedEnvVars=("T",))
    assert ClaudeDialect.handler_type is ClaudeHandler


def test_handler_from_options_uses_claude_spellings_and_rejects_unknown_keys() -> None:
    d = ClaudeDialect()
    assert d.handler_from_options({"if": "Edit(*)", "onFailure": "block", "scope": "plugin"}) \
        == ClaudeHandler(if_="Edit(*)", onFailure="block", scope="plugin")
    with pytest.raises(ConfigError, match="colour"):
        d.handler_from_options({"colour": "red"})
    with pytest.raises(ConfigError, match=r"\$\.options\.if"):
        d.handler_from_options({"if": 3})


def test_export_round_trips_through_handler_from_options(tmp_path: Path) -> None:
    d = ClaudeDialect()
    h = ClaudeHandler(scope="plugin", onFailure="block", if_="Bash(ls)", asyncRewake=True,
                      plugin={"CLAUDE_PLUGIN_ROOT": "/p"})
    entry = HookEntry(dialect="claude", event="PreToolUse", command="x", handler=h,
                      provenance=Provenance.IMPORTED)
    exported = d.export(entry)
    assert exported.rejected is None
    assert d.handler_from_options(exported.options) == h
    project = ClaudeHandler(scope="project")
    assert d.export(HookEntry(dialect="claude", event="Stop", command="x",
                              handler=project)).options == {}


def test_config_paths_are_the_project_and_local_settings(tmp_path: Path) -> None:
    assert ClaudeDialect().config_paths(tmp_path) == [
        tmp_path / ".claude" / "settings.json", tmp_path / ".claude" / "settings.local.json"]


def test_an_entry_without_a_typed_handler_gets_the_defaults() -> None:
    from hookwire.dialects.claude.handler import DEFAULT_HANDLER, handler_of

    bare = HookEntry(dialect="claude", event="PreToolUse", command="x")
    assert handler_of(bare) is DEFAULT_HANDLER
    typed = HookEntry(dialect="claude", event="PreToolUse", command="x",
                      handler=ClaudeHandler(onFailure="block"))
    assert handler_of(typed).onFailure == "block"
