"""Stdin payloads: key sets, key order and framing per event (observed doc §2)."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hookwire import EventDataError, SessionInfo, UnknownEventError
from hookwire import events as ev
from hookwire.dialects.claude import ClaudeDialect

S = SessionInfo(session_id="sid", cwd="/p/sub", project_dir="/p", transcript_path="/t.jsonl",
                permission_mode="default")
EFFORT = {"effort": {"level": "medium"}}
D = ClaudeDialect()
PREFIX = ["session_id", "transcript_path", "cwd"]


def keys(event: ev.SeamEvent, native: str, session: SessionInfo = S) -> list[str]:
    raw = D.payload(event, native, session)
    assert raw.endswith(b"\n") and raw.count(b"\n") == 1
    return list(json.loads(raw))


@pytest.mark.parametrize(("native", "event", "expected"), [
    ("SessionStart", ev.SessionStart(source="startup"), ["hook_event_name", "source"]),
    ("SessionStart", ev.SessionStart(source="compact", prompt_id="p", extra={"model": "m"}),
     ["prompt_id", "hook_event_name", "source", "model"]),
    ("UserPromptSubmit", ev.PromptSubmit(prompt="hi", prompt_id="p"),
     ["prompt_id", "permission_mode", "hook_event_name", "prompt"]),
    ("PreToolUse", ev.ToolPre(tool_name="Bash", tool_input={}, tool_use_id="t",
                              prompt_id="p", extra=EFFORT),
     ["prompt_id", "permission_mode", "effort", "hook_event_name", "tool_name", "tool_input",
      "tool_use_id"]),
    ("PreToolUse", ev.ToolPre(tool_name="Bash", tool_use_id="t", prompt_id="p",
                              agent_id="a1", agent_type="Explore", extra=EFFORT),
     ["prompt_id", "permission_mode", "agent_id", "agent_type", "effort", "hook_event_name",
      "tool_name", "tool_input", "tool_use_id"]),
    ("PermissionRequest", ev.ApprovalRequest(tool_name="Bash", prompt_id="p", extra=EFFORT),
     ["prompt_id", "permission_mode", "effort", "hook_event_name", "tool_name", "tool_input",
      "permission_suggestions"]),
    ("PostToolUse", ev.ToolPost(tool_name="Bash", tool_response={"stdout": "hello"},
                                tool_use_id="t", duration_ms=12, prompt_id="p", extra=EFFORT),
     ["prompt_id", "permission_mode", "effort", "hook_event_name", "tool_name", "tool_input",
      "tool_response", "tool_use_id", "duration_ms"]),
    ("PostToolUseFailure", ev.ToolFailure(tool_name="Bash", error="Exit code 3\noops",
                                          tool_use_id="t", duration_ms=5, prompt_id="p",
                                          extra=EFFORT),
     ["prompt_id", "permission_mode", "effort", "hook_event_name", "tool_name", "tool_input",
      "tool_use_id", "error", "is_interrupt", "duration_ms"]),
    ("Stop", ev.Stop(last_assistant_message="done", prompt_id="p", extra=EFFORT),
     ["prompt_id", "permission_mode", "effort", "hook_event_name", "stop_hook_active",
      "last_assistant_message", "background_tasks", "session_crons"]),
    ("SubagentStart", ev.SubagentStart(agent_id="a", agent_type="general-purpose",
                                       prompt_id="p"),
     ["prompt_id", "agent_id", "agent_type", "hook_event_name"]),
    ("SubagentStop", ev.SubagentStop(agent_id="a", agent_type="", prompt_id="p",
                                     last_assistant_message="x", agent_transcript_path="/a",
                                     extra=EFFORT),
     ["prompt_id", "permission_mode", "agent_id", "agent_type", "effort", "hook_event_name",
      "stop_hook_active", "agent_transcript_path", "last_assistant_message",
      "background_tasks", "session_crons"]),
    ("PreCompact", ev.PreCompact(prompt_id="p"),
     ["prompt_id", "hook_event_name", "trigger", "custom_instructions"]),
    ("PostCompact", ev.PostCompact(prompt_id="p", compact_summary="s"),
     ["prompt_id", "hook_event_name", "trigger", "compact_summary"]),
    ("Notification", ev.Notification(message="Claude needs your permission",
                                      notification_type="permission_prompt", prompt_id="p"),
     ["prompt_id", "hook_event_name", "message", "notification_type"]),
    ("SessionEnd", ev.SessionEnd(prompt_id="p"), ["prompt_id", "hook_event_name", "reason"]),
])
def test_key_order(native: str, event: ev.SeamEvent, expected: list[str]) -> None:
    assert keys(event, native) == PREFIX + expected


def test_bytes_are_json_stringify() -> None:
    event = ev.PromptSubmit(prompt='é ✓ 😀 "q" \\ </a>&\n\t\x01 \ud800', prompt_id="p")
    raw = D.payload(event, "UserPromptSubmit", S)
    assert raw == (
        '{"session_id":"sid","transcript_path":"/t.jsonl","cwd":"/p/sub","prompt_id":"p",'
        '"permission_mode":"default","hook_event_name":"UserPromptSubmit",'
        '"prompt":"é ✓ 😀 \\"q\\" \\\\ </a>&\\n\\t\\u0001 \\ud800"}\n').encode()


def test_integral_floats_print_like_javascript() -> None:
    event = ev.ToolPre(tool_name="Bash", tool_input={"timeout": 120000.0, "x": 1.5},
                       tool_use_id="t")
    assert b'"tool_input":{"timeout":120000,"x":1.5}' in D.payload(event, "PreToolUse", S)


def test_unknown_extras_pass_through_at_the_end() -> None:
    event = ev.ToolPre(tool_name="Bash", tool_use_id="t",
                       extra={"future_field": 1, "scratchpad_dir": "/s"})
    ks = keys(event, "PreToolUse")
    assert ks[3] == "scratchpad_dir" and ks[-1] == "future_field"


def test_event_from_wire_accepts_claude_spellings() -> None:
    data = {"session_id": "s", "cwd": "/x", "hook_event_name": "PreToolUse",
            "tool_name": "Bash", "tool_input": {"command": "ls"}, "tool_use_id": "t1",
            "prompt_id": "p", "effort": {"level": "high"}}
    event = D.event_from_wire("PreToolUse", data)
    assert isinstance(event, ev.ToolPre)
    assert (event.tool_name, event.tool_use_id, event.prompt_id) == ("Bash", "t1", "p")
    assert event.extra == {"effort": {"level": "high"}}
    stop = D.event_from_wire("Stop", {"stop_hook_active": True,
                                      "last_assistant_message": "m", "background_tasks": []})
    assert isinstance(stop, ev.Stop) and stop.stop_hook_active
    pr = D.event_from_wire("PermissionRequest", {
        "tool_name": "Bash", "tool_input": {}, "permission_suggestions": [{"type": "setMode"}]})
    assert isinstance(pr, ev.ApprovalRequest) and pr.suggestions == ({"type": "setMode"},)
    for native, field in [("PostToolUseFailure", "error"), ("PreCompact", "trigger"),
                          ("Notification", "message"), ("SessionEnd", "reason"),
                          ("SessionStart", "source"), ("UserPromptSubmit", "prompt")]:
        e = D.event_from_wire(native, {field: "v", "tool_name": "T"} if "Tool" in native
                              else {field: "v"})
        assert getattr(e, field) == "v"


def test_event_from_wire_errors() -> None:
    with pytest.raises(UnknownEventError):
        D.event_from_wire("Bash", {})
    with pytest.raises(EventDataError):
        D.event_from_wire("CwdChanged", {})
    with pytest.raises(EventDataError):
        D.event_from_wire("PreToolUse", {"tool_input": {}})  # no tool_name
    with pytest.raises(EventDataError):
        D.event_from_wire("PreToolUse", {"tool_name": "Bash", "tool_input": "ls"})


JSONISH = st.recursive(
    st.none() | st.booleans() | st.integers(min_value=-2**53, max_value=2**53)
    | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner,
                                                                max_size=3),
    max_leaves=10)


@given(tool=st.text(min_size=1, max_size=10), tool_input=st.dictionaries(
    st.text(max_size=6), JSONISH, max_size=4), tool_use_id=st.text(max_size=10),
    prompt_id=st.none() | st.text(max_size=6))
def test_payload_round_trips_through_event_from_wire(tool: str, tool_input: dict[str, object],
                                                    tool_use_id: str,
                                                    prompt_id: str | None) -> None:
    event = ev.ToolPre(tool_name=tool, tool_input=tool_input, tool_use_id=tool_use_id,
                       prompt_id=prompt_id, extra=EFFORT)
    raw = D.payload(event, "PreToolUse", S)
    assert D.event_from_wire("PreToolUse", json.loads(raw)) == event
    assert json.loads(raw.decode("utf-8"))["tool_input"] == tool_input


def test_non_finite_and_unknown_values_do_not_break_the_payload() -> None:
    import datetime

    event = ev.ToolPre(tool_name="T", tool_input={"n": float("nan"),
                                                  "d": datetime.date(2026, 1, 2)})
    assert b'"tool_input":{"n":null,"d":"2026-01-02"}' in D.payload(event, "PreToolUse", S)


def test_stop_block_cap_setting() -> None:
    from hookwire.dialects.claude.events import stop_block_cap

    assert stop_block_cap({}) == 8
    assert stop_block_cap({"CLAUDE_CODE_STOP_HOOK_BLOCK_CAP": "3"}) == 3
    assert stop_block_cap({"CLAUDE_CODE_STOP_HOOK_BLOCK_CAP": "0"}) is None
