"""The dialect object: registration, commands built per entry, ``hookwire fire``."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from hookwire import HookEntry, Kernel, SessionInfo
from hookwire import events as ev
from hookwire.dialects.claude import ClaudeDialect
from hookwire.dialects.claude.handler import from_options
from hookwire.dialects.claude.testing import group, write_settings

S = SessionInfo(session_id="s", cwd="/", project_dir="/proj")


def entry(event: str = "PreToolUse", command: str | tuple[str, ...] = "x",
          timeout: float | None = None, **options: object) -> HookEntry:
    return HookEntry(dialect="claude", event=event, command=command, timeout=timeout,
                     handler=from_options({"scope": "project", **options}))


def test_registered_through_the_entry_point() -> None:
    kernel = Kernel()
    assert isinstance(kernel.dialect("claude"), ClaudeDialect)
    assert not [e for e in kernel.load_errors if e.entry_point == "claude"]


@pytest.mark.parametrize(("event", "native", "expected"), [
    (ev.ToolPre(tool_name="Bash"), "PreToolUse", 600.0),
    (ev.PromptSubmit(prompt="p"), "UserPromptSubmit", 30.0),
])
def test_default_timeouts(event: ev.SeamEvent, native: str, expected: float) -> None:
    cmd = ClaudeDialect().command(entry(native), event, native, S)
    assert cmd.timeout == expected and cmd.shell == "x" and cmd.spawn_argv[:2] == ("/bin/sh",
                                                                                    "-c")
    assert ClaudeDialect().command(entry(native, timeout=7), event, native, S).timeout == 7


def test_exec_form_substitutes_each_argument() -> None:
    cmd = ClaudeDialect().command(entry(command=("${CLAUDE_PROJECT_DIR}/bin/h", "a b", "$X")),
                                  ev.ToolPre(tool_name="Bash"), "PreToolUse", S)
    assert cmd.argv == ("/proj/bin/h", "a b", "$X")


def test_session_end_shares_one_budget() -> None:
    d = ClaudeDialect()
    end = ev.SessionEnd()
    picked = d.select([entry("SessionEnd", "a"), entry("SessionEnd", "b", timeout=5)], end,
                      "SessionEnd", S)
    assert [e.timeout for e in picked] == [5, 5]
    alone = d.select([entry("SessionEnd", "a")], end, "SessionEnd", S)
    assert [e.timeout for e in alone] == [1.5]
    big = d.select([entry("SessionEnd", "a", timeout=600)], end, "SessionEnd", S)
    assert big[0].timeout == 60
    plugin = d.select([entry("SessionEnd", "a", timeout=30, scope="plugin")], end,
                      "SessionEnd", S)
    assert plugin[0].timeout == 1.5  # plugin timeouts do not raise the budget


def test_non_tool_matchers_use_their_field() -> None:
    d = ClaudeDialect()
    hooks = [HookEntry(dialect="claude", event="SessionEnd", command="c", matcher="clear")]
    assert d.select(hooks, ev.SessionEnd(reason="other"), "SessionEnd", S) == []
    assert d.select(hooks, ev.SessionEnd(reason="clear"), "SessionEnd", S)
    ups = [HookEntry(dialect="claude", event="UserPromptSubmit", command="c", matcher="xyz")]
    # the matcher is ignored on UserPromptSubmit
    assert d.select(ups, ev.PromptSubmit(prompt="p"), "UserPromptSubmit", S)


def test_hookwire_fire(tmp_path: Path) -> None:
    rec = tmp_path / "in"
    settings = write_settings(tmp_path / "settings.json", {"PreToolUse": [group(
        f"cat > {rec}; echo 'nope' >&2; exit 2", matcher="Bash")]})
    data = {"session_id": "abc", "cwd": str(tmp_path), "transcript_path": "/t.jsonl",
            "permission_mode": "default", "prompt_id": "p1", "tool_name": "Bash",
            "tool_input": {"command": "ls"}, "tool_use_id": "t1",
            "effort": {"level": "medium"}}
    out = subprocess.run(
        [sys.executable, "-m", "hookwire.cli", "fire", "PreToolUse", "--dialect", "claude",
         "--config", str(settings), "--data", json.dumps(data)],
        capture_output=True, text=True, check=True)
    verdict = json.loads(out.stdout)
    assert verdict["decision"] == "deny"
    assert verdict["reason"].endswith("]: nope\n")
    assert rec.read_bytes() == (
        '{"session_id":"abc","transcript_path":"/t.jsonl","cwd":"' + str(tmp_path) + '",'
        '"prompt_id":"p1","permission_mode":"default","effort":{"level":"medium"},'
        '"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"},'
        '"tool_use_id":"t1"}\n').encode()
