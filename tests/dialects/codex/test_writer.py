"""Writing Codex's ``hooks.json``: ``write_config`` is the inverse of the reader."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hookwire import HookEntry, Location
from hookwire.dialects.codex import CodexDialect

POSITIONAL = frozenset({"key", "group_index", "handler_index"})


def read_back(folder: Path, name: str, doc: dict[str, Any]) -> list[HookEntry]:
    path = folder / name
    path.write_text(json.dumps(doc, indent=2), encoding="utf-8")
    result = CodexDialect(codex_home=folder / "home").read_config(path)
    assert not [p for p in result.problems if p.severity == "error"]
    return list(result.entries)


def same(entries: list[HookEntry]) -> list[HookEntry]:
    """Entries compared without where they were written: the location and Codex's positional
    trust key name the place (groups merge), everything else (the content hash included)
    must match."""
    return [attrs.evolve(e, location=Location(),
                         handler=e.handler and attrs.evolve(
                             e.handler, **{k: None for k in POSITIONAL}))
            for e in entries]


def test_installer_shaped_entries() -> None:
    doc = CodexDialect().write_config([
        HookEntry(dialect="codex", event="SessionStart", command="run start", timeout=600.0),
        HookEntry(dialect="codex", event="SessionEnd", command="run end", timeout=3.0),
    ])
    assert json.dumps(doc) == json.dumps({"hooks": {
        "SessionStart": [{"hooks": [{"type": "command", "command": "run start",
                                     "timeout": 600}]}],
        "SessionEnd": [{"hooks": [{"type": "command", "command": "run end", "timeout": 3}]}]}})


def test_one_group_per_consecutive_event_and_matcher() -> None:
    entries = [HookEntry(dialect="codex", event="PreToolUse", matcher=m, command=c)
               for m, c in [("Bash", "1"), ("Bash", "2"), ("apply_patch", "3")]]
    groups = CodexDialect().write_config(entries)["hooks"]["PreToolUse"]
    assert [(g["matcher"], [h["command"] for h in g["hooks"]]) for g in groups] == [
        ("Bash", ["1", "2"]), ("apply_patch", ["3"])]


def test_handler_fields_round_trip(tmp_path: Path) -> None:
    original = {"hooks": {
        "PostToolUse": [{"matcher": "Bash", "hooks": [
            {"type": "command", "command": "./post.sh", "timeout": 30,
             "statusMessage": "checking", "additionalContextLimit": 100}]}],
        "Stop": [{"hooks": [{"type": "command", "command": "./stop.sh", "async": True}]}]}}
    first = read_back(tmp_path, "a.json", original)
    written = CodexDialect().write_config(first)
    assert written == original
    assert same(read_back(tmp_path, "b.json", written)) == same(first)


HANDLER = st.fixed_dictionaries(
    {"type": st.just("command"),
     "command": st.text(min_size=1, max_size=12).filter(lambda s: s.strip() != "")},
    optional={"timeout": st.integers(1, 600), "statusMessage": st.text(max_size=5),
              "async": st.booleans(), "additionalContextLimit": st.integers(1, 5000)})
MATCHERS = {"PreToolUse": ["Bash", "^apply_patch$", "a|b"], "PostToolUse": ["Bash"],
            "UserPromptSubmit": [], "Stop": [], "SessionStart": ["startup"]}


@st.composite
def documents(draw: st.DrawFn) -> dict[str, Any]:
    hooks: dict[str, Any] = {}
    for event in draw(st.lists(st.sampled_from(sorted(MATCHERS)), unique=True, max_size=3)):
        groups = []
        for _ in range(draw(st.integers(1, 3))):
            group: dict[str, Any] = {"hooks": draw(st.lists(HANDLER, min_size=1, max_size=3))}
            if MATCHERS[event] and draw(st.booleans()):
                group["matcher"] = draw(st.sampled_from(MATCHERS[event]))
            groups.append(group)
        hooks[event] = groups
    return {"hooks": hooks}


@settings(max_examples=80, deadline=None)
@given(doc=documents())
def test_read_write_read_gives_the_same_entries(tmp_path_factory: pytest.TempPathFactory,
                                                doc: dict[str, Any]) -> None:
    folder = tmp_path_factory.mktemp("rt")
    first = read_back(folder, "a.json", doc)
    again = read_back(folder, "b.json", CodexDialect().write_config(first))
    assert same(again) == same(first)
