"""Outcome → answer, one test per row of the observed exit-code and decision tables.

These use synthetic :class:`Outcome` objects (pure mapping); ``test_conformance.py`` runs the
same rows through real processes.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from hookwire import Decision, HookEntry, Outcome, OutcomeKind
from hookwire import events as ev
from hookwire.dialects.claude.handler import from_options
from hookwire.dialects.claude.outcome import (
    CONTEXT_CAP,
    NO_VERDICT,
    NO_VERDICT_FAILED,
    interpret,
)

CMD = "./hook.sh"
PRE = ev.ToolPre(tool_name="Bash", tool_input={"command": "ls"}, tool_use_id="toolu_1")
EVENTS: dict[str, ev.SeamEvent] = {
    "PreToolUse": PRE,
    "PostToolUse": ev.ToolPost(tool_name="Bash", tool_input={}, tool_response={}),
    "PostToolUseFailure": ev.ToolFailure(tool_name="Bash", error="Exit code 3"),
    "UserPromptSubmit": ev.PromptSubmit(prompt="hi"),
    "Stop": ev.Stop(),
    "SubagentStop": ev.SubagentStop(agent_id="a", agent_type="general-purpose"),
    "SessionStart": ev.SessionStart(source="startup"),
    "SubagentStart": ev.SubagentStart(agent_id="a", agent_type="Explore"),
    "PreCompact": ev.PreCompact(),
    "PostCompact": ev.PostCompact(),
    "Notification": ev.Notification(message="m"),
    "SessionEnd": ev.SessionEnd(),
    "PermissionRequest": ev.ApprovalRequest(tool_name="Bash", tool_input={"command": "ls"}),
}


def run(native: str, code: int | None = 0, stdout: Any = b"", stderr: bytes = b"",
        kind: OutcomeKind = OutcomeKind.EXITED, **options: Any):  # type: ignore[no-untyped-def]
    if isinstance(stdout, dict):
        stdout = json.dumps(stdout).encode()
    entry = HookEntry(dialect="claude", event=native, command=CMD, handler=from_options(options))
    outcome = Outcome(kind=kind, exit_code=code, stdout=stdout, stderr=stderr)
    return interpret(entry, EVENTS[native], native, outcome)


def pre(decision: str, **more: Any) -> dict[str, Any]:
    return {"hookSpecificOutput": {"hookEventName": "PreToolUse",
                                   "permissionDecision": decision, **more}}


# -- exit codes --------------------------------------------------------------------------------

def test_exit0_silent_is_no_opinion() -> None:
    assert run("PreToolUse").is_empty


def test_exit0_plain_stdout_ignored_on_tool_events() -> None:
    assert run("PreToolUse", stdout=b"hello\n").is_empty
    assert run("PostToolUse", stdout=b"hello\n").is_empty


def test_exit0_plain_stdout_is_context_on_prompt_and_session_start() -> None:
    (c,) = run("UserPromptSubmit", stdout=b"today is Monday\n").contexts
    assert c.text == "UserPromptSubmit hook success: today is Monday"
    (c,) = run("SessionStart", stdout=b"branch main\n").contexts
    assert c.text == "SessionStart:startup hook success: branch main"
    (c,) = run("PreCompact", stdout=b"keep the todo list\n").contexts
    assert c.text == "keep the todo list"


def test_invalid_json_is_plain_text() -> None:
    assert run("PreToolUse", stdout=b"{broken").is_empty
    (c,) = run("UserPromptSubmit", stdout=b"{broken json\n").contexts
    assert c.text == "UserPromptSubmit hook success: {broken json"


def test_json_after_a_log_line_is_plain_text() -> None:
    assert run("PreToolUse", stdout=b'log\n{"decision":"block"}').decision is Decision.NONE


def test_json_with_leading_whitespace_is_parsed() -> None:
    assert run("PreToolUse", stdout=b'\n  {"decision":"block","reason":"r"}').decision \
        is Decision.DENY


def test_schema_invalid_json_is_ignored_wholesale() -> None:
    a = run("PreToolUse", stdout=pre("maybe", additionalContext="x"))
    assert a.decision is Decision.NONE and not a.contexts
    assert "A hook gave no usable answer" in a.diagnostics[0]
    wrong_event = {"hookSpecificOutput": {"hookEventName": "PostToolUse",
                                          "permissionDecision": "deny"}}
    assert run("PreToolUse", stdout=wrong_event).decision is Decision.NONE
    assert run("Stop", stdout={"continue": "no"}).halt is None


def test_exit2_blocks_with_command_and_stderr() -> None:
    a = run("PreToolUse", 2, stdout=pre("allow"), stderr=b"no rm please\n")
    # byte for byte, trailing newline kept (observed on Claude Code 2.1.332)
    assert a.decision is Decision.DENY and a.reason == f"[{CMD}]: no rm please\n"
    assert run("PreToolUse", 2).reason == f"[{CMD}]: No stderr output"
    assert run("PreToolUse", 2, stderr=b"\n").reason == f"[{CMD}]: No stderr output"


@pytest.mark.parametrize(("native", "decision"), [
    ("UserPromptSubmit", Decision.BLOCK), ("Stop", Decision.BLOCK),
    ("SubagentStop", Decision.BLOCK), ("PreCompact", Decision.BLOCK),
    ("PostToolUse", Decision.BLOCK), ("PostToolUseFailure", Decision.BLOCK),
    ("SessionStart", Decision.NONE), ("SubagentStart", Decision.NONE),
    ("Notification", Decision.NONE), ("SessionEnd", Decision.NONE),
    ("PostCompact", Decision.NONE), ("PermissionRequest", Decision.NONE),
])
def test_exit2_per_event(native: str, decision: Decision) -> None:
    a = run(native, 2, stderr=b"why")
    assert a.decision is decision
    assert not a.contexts


@pytest.mark.parametrize("code", [1, 3, 127])
def test_other_exits_are_non_blocking(code: int) -> None:
    a = run("PreToolUse", code, stdout=b"plain", stderr=b"first\nsecond")
    assert a.decision is Decision.NONE
    assert a.diagnostics[0] == ("PreToolUse:Bash hook error: Failed with non-blocking status "
                                "code: first")
    assert a.diagnostics[1:] == ((NO_VERDICT_FAILED,) if code == 127 else ())
    assert not run("UserPromptSubmit", 1, stdout=b"ctx").contexts


def test_exit1_with_json_is_honoured() -> None:
    a = run("PreToolUse", 1, stdout=pre("deny", permissionDecisionReason="nope"))
    assert a.decision is Decision.DENY and a.reason == "nope"


@pytest.mark.parametrize("kind", [OutcomeKind.TIMED_OUT, OutcomeKind.CANCELLED])
def test_timeout_renders_no_decision(kind: OutcomeKind) -> None:
    a = run("PreToolUse", None, stdout=pre("deny"), kind=kind)
    assert a.decision is Decision.NONE and NO_VERDICT in a.diagnostics


def test_signal_and_failed_start_are_non_blocking() -> None:
    assert run("PreToolUse", None, kind=OutcomeKind.SIGNALED).decision is Decision.NONE
    assert run("PreToolUse", None, kind=OutcomeKind.FAILED_TO_START).decision is Decision.NONE


def test_killed_or_not_found_are_worded_as_claude_code_words_a_non_blocking_error() -> None:
    # Claude Code 2.1.332: a hook killed by a signal or whose command is not found is a
    # non-blocking error (outcome "error", like exit 127) plus a hook_no_verdict warning.
    killed = run("PreToolUse", None, kind=OutcomeKind.SIGNALED)
    assert killed.diagnostics == (
        "PreToolUse:Bash hook error: Failed with non-blocking status code: No stderr output",
        NO_VERDICT_FAILED)
    missing = run("PreToolUse", 127, stderr=b"/bin/sh: 1: /nope/hook: not found\n")
    assert missing.diagnostics == (
        "PreToolUse:Bash hook error: Failed with non-blocking status code: "
        "/bin/sh: 1: /nope/hook: not found", NO_VERDICT_FAILED)
    assert run("PreToolUse", 1, stderr=b"oops").diagnostics == (
        "PreToolUse:Bash hook error: Failed with non-blocking status code: oops",)
    # the text 2.1.332 gives for both, recorded for a SIGKILLed hook and /nonexistent/hook-binary
    assert NO_VERDICT_FAILED == ("hook_no_verdict: A hook gave no usable answer, so it didn't "
                                 "check this action.")


def test_not_utf8_output_is_decoded_leniently() -> None:
    a = run("PreToolUse", 2, stderr=b"bad \xff byte", kind=OutcomeKind.NOT_UTF8)
    assert a.decision is Decision.DENY and "\ufffd" in (a.reason or "")


# -- onFailure ---------------------------------------------------------------------------------

def test_on_failure_block_turns_failures_into_exit2() -> None:
    a = run("PreToolUse", None, kind=OutcomeKind.TIMED_OUT, onFailure="block")
    assert a.decision is Decision.DENY
    assert a.reason == f'[{CMD}]: timed out; blocking because onFailure is "block"'
    assert run("PreToolUse", 1, onFailure="block").decision is Decision.DENY
    assert run("PreToolUse", 0, stdout=pre("maybe"), onFailure="block").decision \
        is Decision.DENY
    assert run("UserPromptSubmit", 7, onFailure="block").decision is Decision.BLOCK
    assert run("PreToolUse", 0, onFailure="block").is_empty  # success is no failure


def test_on_failure_block_is_ignored_on_stop_and_advisory_events() -> None:
    a = run("Stop", 1, onFailure="block")
    assert a.decision is Decision.NONE and "ignored on Stop" in a.diagnostics[-1]
    assert run("SessionStart", 1, onFailure="block").decision is Decision.NONE


# -- PreToolUse decisions ----------------------------------------------------------------------

@pytest.mark.parametrize(("value", "decision"), [
    ("allow", Decision.ALLOW), ("deny", Decision.DENY), ("ask", Decision.ASK),
    ("defer", Decision.DEFER)])
def test_permission_decisions(value: str, decision: Decision) -> None:
    a = run("PreToolUse", stdout=pre(value, permissionDecisionReason="because"))
    assert a.decision is decision and a.reason == "because"


def test_legacy_approve_and_block() -> None:
    assert run("PreToolUse", stdout={"decision": "approve"}).decision is Decision.ALLOW
    a = run("PreToolUse", stdout={"decision": "block", "reason": "old style"})
    assert a.decision is Decision.DENY and a.reason == "old style"


def test_updated_input_and_context() -> None:
    a = run("PreToolUse", stdout=pre("allow", updatedInput={"command": "ls -la"},
                                     additionalContext="listed"))
    assert a.updated_input == {"command": "ls -la"}
    assert [c.text for c in a.contexts] == ["PreToolUse:Bash hook additional context: listed"]
    no_decision = {"hookSpecificOutput": {"hookEventName": "PreToolUse",
                                          "updatedInput": {"command": "pwd"}}}
    a = run("PreToolUse", stdout=no_decision)
    assert a.decision is Decision.NONE and a.updated_input == {"command": "pwd"}


def test_deny_drops_updated_input_and_defer_drops_context() -> None:
    assert run("PreToolUse", stdout=pre("deny", updatedInput={"c": 1})).updated_input is None
    a = run("PreToolUse", stdout=pre("defer", updatedInput={"c": 1}, additionalContext="x"))
    assert a.decision is Decision.DEFER and a.updated_input is None and not a.contexts


def test_continue_false_halts_and_system_message() -> None:
    a = run("PreToolUse", stdout={"continue": False, "stopReason": "enough",
                                  "systemMessage": "careful", "suppressOutput": True})
    assert a.halt is not None and a.halt.reason == "enough"
    assert a.system_messages == ("careful",)
    # PreCompact/PostCompact/Notification/SessionEnd discard continue and systemMessage.
    assert run("PreCompact", stdout={"continue": False, "systemMessage": "x"}).is_empty


# -- other events ------------------------------------------------------------------------------

def test_prompt_block_and_context() -> None:
    a = run("UserPromptSubmit", stdout={"decision": "block", "reason": "no secrets"})
    assert a.decision is Decision.BLOCK and a.reason == "no secrets"
    hso = {"hookSpecificOutput": {"hookEventName": "UserPromptSubmit",
                                  "additionalContext": "ctx"}}
    (c,) = run("UserPromptSubmit", stdout=hso).contexts
    assert c.text == "UserPromptSubmit hook additional context: ctx"


def test_stop_block_continues_and_additional_context_continues() -> None:
    a = run("Stop", stdout={"decision": "block", "reason": "tests fail"})
    assert a.decision is Decision.BLOCK and a.reason == "tests fail"
    a = run("Stop", stdout={"hookSpecificOutput": {"hookEventName": "Stop",
                                                   "additionalContext": "one more"}})
    assert a.decision is Decision.BLOCK
    assert [c.text for c in a.contexts] == ["Stop hook additional context: one more"]
    empty = run("Stop", stdout={"hookSpecificOutput": {"hookEventName": "Stop"}})
    assert empty.decision is Decision.NONE


def test_session_start_and_subagent_start_context_labels() -> None:
    for native in ("SessionStart", "SubagentStart"):
        out = {"hookSpecificOutput": {"hookEventName": native, "additionalContext": "c"}}
        (c,) = run(native, stdout=out).contexts
        assert c.text == f"{native} hook additional context: c"


def test_post_tool_use_block_and_output_rewrite() -> None:
    a = run("PostToolUse", stdout={"decision": "block", "reason": "lint failed"})
    assert a.decision is Decision.BLOCK and a.reason == "lint failed"
    out = {"hookSpecificOutput": {"hookEventName": "PostToolUse",
                                  "updatedToolOutput": {"stdout": "x"},
                                  "additionalContext": "c"}}
    a = run("PostToolUse", stdout=out)
    assert a.updated_output == {"stdout": "x"}
    assert a.contexts[0].text == "PostToolUse:Bash hook additional context: c"
    mcp = {"hookSpecificOutput": {"hookEventName": "PostToolUse",
                                  "updatedMCPToolOutput": "y"}}
    assert run("PostToolUse", stdout=mcp).updated_output is None  # ignored on Bash


def test_permission_request_decisions() -> None:
    def pr(**decision: Any) -> dict[str, Any]:
        return {"hookSpecificOutput": {"hookEventName": "PermissionRequest",
                                       "decision": decision}}
    a = run("PermissionRequest", stdout=pr(behavior="allow", updatedInput={"command": "pwd"}))
    assert a.decision is Decision.ALLOW and a.updated_input == {"command": "pwd"}
    a = run("PermissionRequest", stdout=pr(behavior="deny", message="no", interrupt=True))
    assert a.decision is Decision.DENY and a.reason == "no" and a.halt is not None
    assert run("PermissionRequest", stdout=pr(behavior="maybe")).decision is Decision.NONE


def test_events_without_specific_output_reject_it() -> None:
    a = run("PreCompact", stdout={"hookSpecificOutput": {"hookEventName": "PreCompact"}})
    assert a.is_empty and a.diagnostics


def test_large_context_spills_to_a_file() -> None:
    big = "x" * (CONTEXT_CAP + 5000)
    (c,) = run("PreToolUse", stdout=pre("allow", additionalContext=big)).contexts
    assert c.text.startswith("PreToolUse:Bash hook additional context: <persisted-output>\n"
                             "Output too large (14.6KB). Full output saved to: ")
    path = c.text.split("saved to: ", 1)[1].split("\n", 1)[0]
    assert path.endswith("-PreToolUse-" + path.split("-PreToolUse-")[1])
    with open(path) as fh:
        assert fh.read() == big
    assert "Preview (first 2KB):\n" + "x" * 2000 in c.text
    assert len(c.text) < 3000
