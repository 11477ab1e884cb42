"""One test per named divergence in docs/dialects/claude.md (D-numbers match the document)."""

from __future__ import annotations

import json
import os

from hookwire import Decision, HookEntry, Outcome, OutcomeKind, SessionInfo
from hookwire import events as ev
from hookwire.dialects.claude import ClaudeDialect
from hookwire.dialects.claude.env import AI_AGENT, environment
from hookwire.dialects.claude.handler import ClaudeHandler
from hookwire.dialects.claude.outcome import interpret

D = ClaudeDialect()
S = SessionInfo(session_id="s", cwd="/", project_dir="/p")
ENTRY = HookEntry(dialect="claude", event="PreToolUse", command="x")


def payload(event: ev.SeamEvent, native: str, session: SessionInfo = S) -> dict[str, object]:
    return json.loads(D.payload(event, native, session))  # type: ignore[no-any-return]


def test_d1_identity_variables() -> None:
    env = environment(ENTRY, ev.ToolPre(tool_name="Bash"), "PreToolUse", S)
    assert env["CLAUDE_CODE_ENTRYPOINT"] == "hookwire" and env["AI_AGENT"] == AI_AGENT
    assert env["CLAUDECODE"] == "1"
    for absent in ("CLAUDE_CODE_CHILD_NOTES_DIR", "CLAUDE_CODE_MESSAGING_SOCKET",
                   "CLAUDE_CODE_SESSION_ATTENDED"):
        assert env.get(absent) == os.environ.get(absent)  # only what the host had


def test_d2_effort_only_when_the_host_gives_it() -> None:
    plain = ev.ToolPre(tool_name="Bash")
    assert "effort" not in payload(plain, "PreToolUse")
    assert "CLAUDE_EFFORT" not in environment(ENTRY, plain, "PreToolUse", S)


def test_d3_transcript_path_is_empty_without_a_transcript() -> None:
    assert payload(ev.Stop(), "Stop")["transcript_path"] == ""


def test_if_paths_resolve_against_the_sessions_cwd() -> None:
    entries = [HookEntry(dialect="claude", event="PreToolUse", command="x",
                         handler=ClaudeHandler(if_="Edit(src/**)"))]
    edit = ev.ToolPre(tool_name="Edit", tool_input={"file_path": "/w/src/a.py"})
    inside = SessionInfo(session_id="s", cwd="/w", project_dir="/w")
    outside = SessionInfo(session_id="s", cwd="/elsewhere", project_dir="/elsewhere")
    assert D.select(entries, edit, "PreToolUse", inside)
    assert not D.select(entries, edit, "PreToolUse", outside)


def test_d13_output_over_the_cap_renders_no_decision() -> None:
    outcome = Outcome(kind=OutcomeKind.OVER_CAP, stderr=b"x" * 10)
    answer = interpret(ENTRY, ev.ToolPre(tool_name="Bash"), "PreToolUse", outcome)
    assert answer.decision is Decision.NONE and answer.diagnostics


def test_d17_unknown_hook_specific_keys_and_nulls_are_ignored() -> None:
    out = {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny",
                                  "futureKey": 1}, "reason": None}
    answer = interpret(ENTRY, ev.ToolPre(tool_name="Bash"), "PreToolUse",
                       Outcome(kind=OutcomeKind.EXITED, exit_code=0,
                               stdout=json.dumps(out).encode()))
    assert answer.decision is Decision.DENY


def test_d20_session_start_model_follows_the_session() -> None:
    start = ev.SessionStart(source="startup")
    assert "model" not in payload(start, "SessionStart")
    with_model = SessionInfo(session_id="s", cwd="/", project_dir="/", model="claude-x")
    assert payload(start, "SessionStart", with_model)["model"] == "claude-x"
