"""Writing Claude Code's hook configuration: ``write_config`` is the inverse of the reader."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hookwire import HookEntry, Location
from hookwire.dialects.claude import ClaudeDialect


def read_back(folder: Path, name: str, doc: dict[str, Any]) -> list[HookEntry]:
    path = folder / name
    path.write_text(json.dumps(doc, indent=2), encoding="utf-8")
    result = ClaudeDialect().read_config(path)
    assert not [p for p in result.problems if p.severity == "error"]
    return list(result.entries)


def same(entries: list[HookEntry]) -> list[HookEntry]:
    """Entries compared without where they were written (the line and group index move)."""
    return [attrs.evolve(e, location=Location()) for e in entries]


def test_groups_keep_matcher_first_and_whole_seconds_as_integers() -> None:
    doc = ClaudeDialect().write_config([
        HookEntry(dialect="claude", event="PreToolUse", matcher="*", command="a", timeout=65.0),
        HookEntry(dialect="claude", event="Stop", command="b", timeout=2.5),
    ])
    assert json.dumps(doc) == json.dumps({"hooks": {
        "PreToolUse": [{"matcher": "*", "hooks": [
            {"type": "command", "command": "a", "timeout": 65}]}],
        "Stop": [{"hooks": [{"type": "command", "command": "b", "timeout": 2.5}]}]}})


def test_one_group_per_consecutive_event_and_matcher_so_order_is_kept() -> None:
    entries = [HookEntry(dialect="claude", event="PreToolUse", matcher=m, command=c)
               for m, c in [("Bash", "1"), ("Bash", "2"), ("Edit", "3"), ("Bash", "4")]]
    groups = ClaudeDialect().write_config(entries)["hooks"]["PreToolUse"]
    assert [(g["matcher"], [h["command"] for h in g["hooks"]]) for g in groups] == [
        ("Bash", ["1", "2"]), ("Edit", ["3"]), ("Bash", ["4"])]


def test_handler_fields_round_trip(tmp_path: Path) -> None:
    original = {"hooks": {
        "PreToolUse": [{"matcher": "Bash", "hooks": [
            {"type": "command", "command": "./ok.sh", "timeout": 5, "if": "Bash(git *)"},
            {"type": "command", "command": "./tool.sh", "args": ["a b", "c"]},
            {"type": "http", "url": "http://127.0.0.1:1/hook", "headers": {"X": "1"},
             "allowedEnvVars": ["TOKEN"], "timeout": 3}]}],
        "Stop": [{"hooks": [
            {"type": "command", "command": "./stop.sh", "async": True, "onFailure": "block",
             "statusMessage": "checking"},
            {"type": "command", "command": "./wake.sh", "asyncRewake": True}]}]}}
    first = read_back(tmp_path, "a.json", original)
    written = ClaudeDialect().write_config(first)
    assert written == original
    assert same(read_back(tmp_path, "b.json", written)) == same(first)


COMMAND = st.text(min_size=1, max_size=12)
HANDLER = st.fixed_dictionaries(
    {"type": st.just("command"), "command": COMMAND},
    optional={"timeout": st.one_of(st.integers(1, 600), st.sampled_from([0.5, 2.25])),
              "async": st.booleans(), "asyncRewake": st.booleans(),
              "onFailure": st.sampled_from(["continue", "block"]),
              "statusMessage": st.text(max_size=5),
              "args": st.lists(st.text(alphabet="abc$", max_size=4), max_size=2)})
EVENT_GROUPS = {
    "PreToolUse": st.sampled_from(["Bash", "Edit|Write", "*", "mcp__.*"]),
    "PostToolUse": st.sampled_from(["Bash", "*"]),
    "UserPromptSubmit": st.none(),
    "Stop": st.none(),
    "SessionStart": st.sampled_from(["startup", "resume"]),
}


@st.composite
def documents(draw: st.DrawFn) -> dict[str, Any]:
    hooks: dict[str, Any] = {}
    for event in draw(st.lists(st.sampled_from(sorted(EVENT_GROUPS)), unique=True,
                               max_size=3)):
        groups = []
        for _ in range(draw(st.integers(1, 3))):
            group: dict[str, Any] = {"hooks": draw(st.lists(HANDLER, min_size=1, max_size=3))}
            matcher = draw(EVENT_GROUPS[event])
            if matcher is not None:
                group["matcher"] = matcher
            groups.append(group)
        hooks[event] = groups
    return {"hooks": hooks}


@settings(max_examples=80, deadline=None)
@given(doc=documents())
def test_read_write_read_gives_the_same_entries(tmp_path_factory: pytest.TempPathFactory,
                                                doc: dict[str, Any]) -> None:
    folder = tmp_path_factory.mktemp("rt")
    first = read_back(folder, "a.json", doc)
    again = read_back(folder, "b.json", ClaudeDialect().write_config(first))
    assert same(again) == same(first)
