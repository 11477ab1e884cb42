"""One scenario per row of the contract's exit-code, output and rejection tables (§3, §4),
each a real hook process. "Invalid" output keeps only its systemMessage and fails open."""

from __future__ import annotations

import json
from typing import Any

import pytest

from hookwire import Decision, Verdict

Fire = Any


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


BASH = {"turn_id": "t", "tool_name": "Bash", "tool_input": {"command": "ls"},
        "tool_use_id": "c1"}
POST = {**BASH, "tool_response": "out"}
PERM = {"turn_id": "t", "tool_name": "Bash", "tool_input": {"command": "touch x"}}
DATA = {
    "PreToolUse": BASH, "PostToolUse": POST, "PermissionRequest": PERM,
    "UserPromptSubmit": {"prompt": "hi"}, "Stop": {"last_assistant_message": "done"},
    "SubagentStop": {"agent_id": "a", "agent_type": "default"},
    "SessionStart": {"source": "startup"}, "SubagentStart": {"agent_id": "a",
                                                             "agent_type": "default"},
    "PreCompact": {"trigger": "manual"}, "PostCompact": {"trigger": "auto"},
    "SessionEnd": {},
}


def out(obj: Any, code: int = 0, err: str = "") -> str:
    text = obj if isinstance(obj, str) else json.dumps(obj)
    body = f"printf '%s' {json.dumps(text)}"
    if err:
        body += f"; echo {json.dumps(err)} >&2"
    return body + f"; exit {code}"


def hso(event: str, **fields: Any) -> dict[str, Any]:
    return {"hookSpecificOutput": {"hookEventName": event, **fields}}


def inv(msg: str, **more: Any) -> dict[str, Any]:
    return {"diag": msg, **more}


ROWS: list[tuple[str, str, str, dict[str, Any]]] = [
    # -- PreToolUse ---------------------------------------------------------------------------
    ("pre-deny", "PreToolUse", out(hso("PreToolUse", permissionDecision="deny",
                                       permissionDecisionReason=" nope ")),
     {"decision": Decision.DENY, "reason": "nope"}),
    ("pre-deny-no-reason", "PreToolUse", out(hso("PreToolUse", permissionDecision="deny")),
     inv("PreToolUse hook returned permissionDecision:deny without a non-empty "
         "permissionDecisionReason")),
    ("pre-allow-rewrite", "PreToolUse",
     out(hso("PreToolUse", permissionDecision="allow", updatedInput={"command": "echo R"})),
     {"decision": Decision.NONE, "input": {"command": "echo R"}}),
    ("pre-bare-allow", "PreToolUse", out(hso("PreToolUse", permissionDecision="allow")),
     inv("PreToolUse hook returned unsupported permissionDecision:allow")),
    ("pre-updated-without-allow", "PreToolUse",
     out(hso("PreToolUse", updatedInput={"command": "x"})),
     inv("PreToolUse hook returned updatedInput without permissionDecision:allow")),
    ("pre-ask", "PreToolUse", out(hso("PreToolUse", permissionDecision="ask")),
     inv("PreToolUse hook returned unsupported permissionDecision:ask")),
    ("pre-reason-alone", "PreToolUse", out(hso("PreToolUse", permissionDecisionReason="r")),
     inv("PreToolUse hook returned permissionDecisionReason without permissionDecision")),
    ("pre-legacy-block", "PreToolUse", out({"decision": "block", "reason": "legacy"}),
     {"decision": Decision.DENY, "reason": "legacy"}),
    ("pre-legacy-block-no-reason", "PreToolUse", out({"decision": "block"}),
     inv("PreToolUse hook returned decision:block without a non-empty reason")),
    ("pre-legacy-approve", "PreToolUse", out({"decision": "approve"}),
     inv("PreToolUse hook returned unsupported decision:approve")),
    ("pre-legacy-reason-alone", "PreToolUse", out({"reason": "r"}),
     inv("PreToolUse hook returned reason without decision")),
    ("pre-continue-false", "PreToolUse", out({"continue": False}),
     inv("PreToolUse hook returned unsupported continue:false")),
    ("pre-stop-reason", "PreToolUse", out({"stopReason": "x"}),
     inv("PreToolUse hook returned unsupported stopReason")),
    ("pre-suppress", "PreToolUse", out({"suppressOutput": True}),
     inv("PreToolUse hook returned unsupported suppressOutput")),
    ("pre-unknown-field", "PreToolUse", out({"bogus": 1}),
     inv("hook returned invalid pre-tool-use JSON output")),
    ("pre-missing-event-name", "PreToolUse",
     out({"hookSpecificOutput": {"permissionDecision": "deny"}}),
     inv("hook returned invalid pre-tool-use JSON output")),
    ("pre-other-event-name-accepted", "PreToolUse",
     out(hso("Stop", permissionDecision="deny", permissionDecisionReason="x")),
     {"decision": Decision.DENY, "reason": "x"}),
    ("pre-array", "PreToolUse", out("[1]"), inv("hook returned invalid pre-tool-use JSON output")),
    ("pre-trailing-text", "PreToolUse", out('{"decision":"block","reason":"x"} tail'),
     inv("hook returned invalid pre-tool-use JSON output")),
    ("pre-plain-text-ignored", "PreToolUse", out("just text"), {"decision": Decision.NONE}),
    ("pre-context-and-message", "PreToolUse",
     out({**hso("PreToolUse", additionalContext="ctx"), "systemMessage": "warn"}),
     {"contexts": ["ctx"], "messages": ["warn"]}),
    ("pre-context-kept-when-blocking", "PreToolUse",
     out(hso("PreToolUse", permissionDecision="deny", permissionDecisionReason="no",
             additionalContext="ctx")),
     {"decision": Decision.DENY, "contexts": ["ctx"]}),
    ("pre-invalid-keeps-only-message", "PreToolUse",
     out({**hso("PreToolUse", permissionDecision="ask", additionalContext="ctx"),
          "systemMessage": "warn"}),
     inv("PreToolUse hook returned unsupported permissionDecision:ask", messages=["warn"])),
    ("pre-exit2", "PreToolUse", out(hso("PreToolUse", permissionDecision="allow",
                                        updatedInput={"command": "x"}), 2, " stderr reason "),
     {"decision": Decision.DENY, "reason": "stderr reason"}),
    ("pre-exit2-empty", "PreToolUse", out("", 2),
     inv("PreToolUse hook exited with code 2 but did not write a blocking reason to stderr")),
    ("pre-exit1-json-ignored", "PreToolUse",
     out(hso("PreToolUse", permissionDecision="deny", permissionDecisionReason="x"), 1),
     inv("hook exited with code 1")),
    # -- PermissionRequest ---------------------------------------------------------------------
    ("perm-allow", "PermissionRequest", out(hso("PermissionRequest",
                                                decision={"behavior": "allow"})),
     {"decision": Decision.ALLOW}),
    ("perm-deny-message", "PermissionRequest",
     out(hso("PermissionRequest", decision={"behavior": "deny", "message": " no "})),
     {"decision": Decision.DENY, "reason": "no"}),
    ("perm-deny-default", "PermissionRequest",
     out(hso("PermissionRequest", decision={"behavior": "deny"})),
     {"decision": Decision.DENY, "reason": "PermissionRequest hook denied approval"}),
    ("perm-updated-input", "PermissionRequest",
     out(hso("PermissionRequest", decision={"behavior": "allow", "updatedInput": {}})),
     inv("PermissionRequest hook returned unsupported updatedInput")),
    ("perm-updated-permissions", "PermissionRequest",
     out(hso("PermissionRequest", decision={"behavior": "allow", "updatedPermissions": []})),
     inv("PermissionRequest hook returned unsupported updatedPermissions")),
    ("perm-interrupt", "PermissionRequest",
     out(hso("PermissionRequest", decision={"behavior": "deny", "interrupt": True})),
     inv("PermissionRequest hook returned unsupported interrupt:true")),
    ("perm-continue-false", "PermissionRequest", out({"continue": False}),
     inv("PermissionRequest hook returned unsupported continue:false")),
    ("perm-exit2", "PermissionRequest", out("", 2, "denied by hook"),
     {"decision": Decision.DENY, "reason": "denied by hook"}),
    ("perm-exit2-empty", "PermissionRequest", out("", 2),
     inv("PermissionRequest hook exited with code 2 but did not write a denial reason to "
         "stderr")),
    ("perm-no-decision", "PermissionRequest", out(hso("PermissionRequest")),
     {"decision": Decision.NONE}),
    ("perm-invalid-json", "PermissionRequest", out("{oops"),
     inv("hook returned invalid permission-request JSON output")),
    # -- PostToolUse ---------------------------------------------------------------------------
    ("post-block", "PostToolUse", out({"decision": "block", "reason": "bad output"}),
     {"decision": Decision.BLOCK, "reason": "bad output", "output": "bad output"}),
    ("post-block-no-reason", "PostToolUse", out({"decision": "block"}),
     inv("PostToolUse hook returned decision:block without a non-empty reason")),
    ("post-continue-false", "PostToolUse", out({"continue": False, "stopReason": "halt"}),
     {"decision": Decision.BLOCK, "output": "halt", "halt": None}),
    ("post-continue-false-default", "PostToolUse", out({"continue": False}),
     {"decision": Decision.BLOCK, "output": "PostToolUse hook stopped execution"}),
    ("post-reason-alone", "PostToolUse", out({"reason": "r"}),
     inv("PostToolUse hook returned reason without decision")),
    ("post-suppress", "PostToolUse", out({"suppressOutput": True}),
     inv("PostToolUse hook returned unsupported suppressOutput")),
    ("post-updated-mcp", "PostToolUse",
     out(hso("PostToolUse", updatedMCPToolOutput={"x": 1})),
     inv("PostToolUse hook returned unsupported updatedMCPToolOutput")),
    ("post-context", "PostToolUse", out(hso("PostToolUse", additionalContext="c")),
     {"contexts": ["c"]}),
    ("post-exit2", "PostToolUse", out("", 2, "feedback"),
     {"decision": Decision.BLOCK, "output": "feedback"}),
    ("post-exit2-empty", "PostToolUse", out("", 2),
     inv("PostToolUse hook exited with code 2 but did not write feedback to stderr")),
    ("post-invalid", "PostToolUse", out("[]"),
     inv("hook returned invalid post-tool-use JSON output")),
    # -- UserPromptSubmit ----------------------------------------------------------------------
    ("ups-plain-text-context", "UserPromptSubmit", "printf '  remember X \\n\\n'",
     {"contexts": ["remember X"]}),
    ("ups-block", "UserPromptSubmit",
     out({"decision": "block", "reason": "r", **hso("UserPromptSubmit",
                                                    additionalContext="kept")}),
     {"decision": Decision.BLOCK, "reason": "r", "contexts": ["kept"]}),
    ("ups-block-no-reason", "UserPromptSubmit", out({"decision": "block"}),
     inv("UserPromptSubmit hook returned decision:block without a non-empty reason")),
    ("ups-continue-false", "UserPromptSubmit", out({"continue": False, "stopReason": "s"}),
     {"decision": Decision.BLOCK, "reason": "s", "halt": None}),
    ("ups-suppress-ignored", "UserPromptSubmit", out({"suppressOutput": True}),
     {"decision": Decision.NONE}),
    ("ups-exit2", "UserPromptSubmit", out("", 2, "no prompt"),
     {"decision": Decision.BLOCK, "reason": "no prompt"}),
    ("ups-exit2-empty", "UserPromptSubmit", out("", 2),
     inv("UserPromptSubmit hook exited with code 2 but did not write a blocking reason to "
         "stderr")),
    ("ups-invalid", "UserPromptSubmit", out("{x"),
     inv("hook returned invalid user prompt submit JSON output")),
    # -- Stop / SubagentStop -------------------------------------------------------------------
    ("stop-block", "Stop", out({"decision": "block", "reason": "keep going"}),
     {"continue": True, "reason": "keep going"}),
    ("stop-block-no-reason", "Stop", out({"decision": "block", "reason": " "}),
     inv("Stop hook returned decision:block without a non-empty reason")),
    ("stop-plain-text-fails", "Stop", out("hello"),
     inv("hook returned invalid stop hook JSON output")),
    ("stop-continue-false", "Stop", out({"continue": False, "stopReason": "done"}),
     {"continue": False, "halt": "done"}),
    ("stop-exit2", "Stop", out("", 2, "continue please"),
     {"continue": True, "reason": "continue please"}),
    ("stop-exit2-empty", "Stop", out("", 2),
     inv("Stop hook exited with code 2 but did not write a continuation prompt to stderr")),
    ("subagent-stop-plain-text", "SubagentStop", out("x"),
     inv("hook returned invalid subagent stop hook JSON output")),
    ("subagent-stop-block", "SubagentStop", out({"decision": "block", "reason": "more"}),
     {"continue": True, "reason": "more"}),
    ("subagent-stop-exit2-empty", "SubagentStop", out("", 2),
     inv("SubagentStop hook exited with code 2 but did not write a continuation prompt to "
         "stderr")),
    # -- SessionStart / SubagentStart ----------------------------------------------------------
    ("start-plain-context", "SessionStart", out("project notes"),
     {"contexts": ["project notes"]}),
    ("start-json-context", "SessionStart", out(hso("SessionStart", additionalContext="c")),
     {"contexts": ["c"]}),
    ("start-continue-false", "SessionStart", out({"continue": False, "stopReason": "no"}),
     {"halt": "no"}),
    ("start-exit2", "SessionStart", out("", 2, "x"), inv("hook exited with code 2")),
    ("start-invalid", "SessionStart", out("[x"),
     inv("hook returned invalid session start JSON output")),
    ("substart-continue-false-ignored", "SubagentStart", out({"continue": False}),
     {"halt": None}),
    ("substart-invalid", "SubagentStart", out("{"),
     inv("hook returned invalid subagent start JSON output")),
    # -- PreCompact / PostCompact --------------------------------------------------------------
    ("precompact-continue-false", "PreCompact", out({"continue": False, "stopReason": "s"}),
     {"decision": Decision.BLOCK, "halt": "s"}),
    ("precompact-plain-ignored", "PreCompact", out("text"), {"decision": Decision.NONE}),
    ("precompact-invalid", "PreCompact", out("{}x"),
     inv("hook returned invalid PreCompact hook JSON output")),
    ("precompact-exit2-stderr", "PreCompact", out("", 2, "why"), inv("why")),
    ("precompact-exit3", "PreCompact", out("", 3), inv("hook exited with code 3")),
    ("postcompact-continue-false", "PostCompact", out({"continue": False}), {"halt": None,
                                                                             "halted": True}),
    ("postcompact-message", "PostCompact", out({"systemMessage": "m"}), {"messages": ["m"]}),
    # -- SessionEnd ----------------------------------------------------------------------------
    ("end-stdout-ignored", "SessionEnd", out({"decision": "block"}), {"decision": Decision.NONE}),
    ("end-exit2-stderr", "SessionEnd", out("", 2, "bye"), inv("bye")),
    ("end-exit1", "SessionEnd", out("", 1), inv("hook exited with code 1")),
]


def check(verdict: Verdict, want: dict[str, Any]) -> None:
    if "diag" in want:
        assert want["diag"] in verdict.diagnostics
        assert verdict.decision is Decision.NONE and verdict.contexts == ()
        assert verdict.halt is None and verdict.updated_output is None
        assert not verdict.input_rewritten
    if "decision" in want:
        assert verdict.decision is want["decision"]
    if "reason" in want:
        assert verdict.reason == want["reason"]
    if "contexts" in want:
        assert [c.text for c in verdict.contexts] == want["contexts"]
    if "messages" in want:
        assert list(verdict.system_messages) == want["messages"]
    if "input" in want:
        assert verdict.effective_input == want["input"]
    if "output" in want:
        assert verdict.updated_output == want["output"]
    if "continue" in want:
        assert verdict.continue_turn is want["continue"]
    if "halt" in want and not want.get("halted"):
        if want["halt"] is None:
            assert verdict.halt is None
        else:
            assert verdict.halt is not None and verdict.halt.reason == want["halt"]
    if want.get("halted"):
        assert verdict.halt is not None


@pytest.mark.anyio
@pytest.mark.parametrize(("event", "body", "want"), [r[1:] for r in ROWS],
                         ids=[r[0] for r in ROWS])
async def test_row(fire: Fire, event: str, body: str, want: dict[str, Any]) -> None:
    verdict = await fire(event, DATA[event], body)
    check(verdict, want)


@pytest.mark.anyio
async def test_timeout_fails_open_and_kills_the_group(fire: Fire, tmp_path: Any) -> None:
    marker = tmp_path / "late"
    body = f"(sleep 2; touch {marker}) & sleep 5"
    verdict = await fire("PreToolUse", BASH, {"type": "command", "command": body, "timeout": 1})
    assert verdict.decision is Decision.NONE
    assert "hook timed out after 1s" in verdict.diagnostics
    import anyio

    await anyio.sleep(1.5)
    assert not marker.exists()


@pytest.mark.anyio
async def test_missing_command_fails_open(fire: Fire) -> None:
    verdict = await fire("UserPromptSubmit", {"prompt": "x"}, "/nonexistent/hook")
    assert verdict.decision is Decision.NONE
    assert verdict.diagnostics == ("hook exited with code 127",)


@pytest.mark.anyio
async def test_killed_by_signal(fire: Fire) -> None:
    verdict = await fire("Stop", {}, "kill -9 $$")
    assert verdict.diagnostics == ("hook exited without a status code",)


@pytest.mark.anyio
async def test_non_utf8_output_is_read_lossily(fire: Fire) -> None:
    verdict = await fire("SessionStart", {}, r"printf 'caf\351'")
    assert [c.text for c in verdict.contexts] == ["caf\ufffd"]


def async_kernel(root: Any, codex_home: Any, commands: list[str]) -> Any:
    """A kernel with one Codex PreToolUse group of ``async: true`` hooks, in order."""
    from hookwire import Kernel
    from hookwire.dialects.codex import CodexDialect

    config = root / "hooks.json"
    config.write_text(json.dumps({"hooks": {"PreToolUse": [{"hooks": [
        {"type": "command", "command": c, "async": True} for c in commands]}]}}))
    kernel = Kernel(load_entry_points=False)
    kernel.add_dialect(CodexDialect(codex_home=codex_home))
    kernel.add_config("codex", config)
    return kernel


@pytest.mark.anyio
async def test_async_handler_output_arrives_at_the_next_turn(tmp_path: Any,
                                                             codex_home: Any) -> None:
    """Codex delivers an async hook's additionalContext and systemMessage at the next turn
    boundary and ignores its control fields (a deny here)."""
    from pathlib import Path

    import anyio

    root = Path(tmp_path)
    answer = {**hso("PreToolUse", permissionDecision="deny", permissionDecisionReason="no",
                    additionalContext="late context"),
              "systemMessage": "late note"}
    script = root / "late.sh"
    script.write_text(f"#!/bin/sh\ncat >/dev/null\necho '{json.dumps(answer)}'\n"
                      f"touch {root / 'done'}\n")
    script.chmod(0o755)
    kernel = async_kernel(root, codex_home, [str(script)])
    async with kernel.session(cwd=str(root)) as session:
        now = await session.tool_pre("shell", {"command": ["ls"]})
        assert not now.denied and now.contexts == () and now.hooks == ()
        with anyio.fail_after(20):
            while not (root / "done").exists():
                await anyio.sleep(0.02)
        await anyio.sleep(0.2)  # the hook has answered; let the runner collect its exit
        nxt = await session.user_prompt("next turn")
    assert [c.text for c in nxt.contexts] == ["late context"]
    assert nxt.system_messages == ("late note",)
    assert not nxt.denied


@pytest.mark.anyio
async def test_non_object_updated_input_is_ignored(fire: Fire) -> None:
    """Named divergence D10."""
    verdict = await fire("PreToolUse", BASH, out(hso("PreToolUse", permissionDecision="allow",
                                                     updatedInput="echo x")))
    assert not verdict.input_rewritten
    assert any("D10" in d for d in verdict.diagnostics)


def test_blocked_tool_output_text() -> None:
    from hookwire.dialects.codex.outcome import blocked_tool_output

    assert blocked_tool_output("exec_command", {"command": "rm x"}, "no") == \
        "Command blocked by PreToolUse hook: no. Command: rm x"
    assert blocked_tool_output("mcp__s__t", {}, "no") == \
        "Tool call blocked by PreToolUse hook: no. Tool: mcp__s__t"


def test_output_over_the_cap_is_a_failure_that_fails_open() -> None:
    """Named divergence D9: Codex reads any size; here output past the kernel's cap ends the
    hook, and the run is a failure (fail open: no decision), even when what was read before
    the cap is a valid deny."""
    from hookwire import HookEntry, Outcome, OutcomeKind, ToolPre
    from hookwire.dialects.codex import CodexDialect

    deny = json.dumps(hso("PreToolUse", permissionDecision="deny",
                          permissionDecisionReason="no")).encode()
    entry = HookEntry(dialect="codex", event="PreToolUse", command="./big.sh")
    event = ToolPre(tool_name="shell", tool_input={"command": ["ls"]})
    for stream in ("stdout", "stderr"):
        capped = Outcome(kind=OutcomeKind.OVER_CAP, signal=15, stdout=deny,
                         **{f"{stream}_over_cap": True})
        answer = CodexDialect().interpret(entry, event, "PreToolUse", capped)
        assert answer.decision is Decision.NONE and answer.diagnostics


def test_codex_path_is_not_prepended_to_path(monkeypatch: pytest.MonkeyPatch) -> None:
    """Named divergence D13: the hook's PATH is the host's own."""
    from hookwire import HookEntry, SessionInfo, ToolPre
    from hookwire.dialects.codex import CodexDialect

    monkeypatch.setenv("PATH", "/usr/bin:/bin")
    entry = HookEntry(dialect="codex", event="PreToolUse", command="true")
    session = SessionInfo(session_id="s", cwd="/", project_dir="/")
    command = CodexDialect().command(entry, ToolPre(tool_name="shell"), "PreToolUse", session)
    env = command.env if command.env is not None else {}
    assert env.get("PATH", "/usr/bin:/bin") == "/usr/bin:/bin"


@pytest.mark.anyio
async def test_at_most_eight_async_hooks_run_at_once_in_a_session(tmp_path: Any,
                                                                  codex_home: Any) -> None:
    """Codex 0.171.0 lets 8 async hooks of a session be in flight; the others wait for a
    place. Ten hooks each hold their place until a gate file appears."""
    from pathlib import Path

    import anyio

    root = Path(tmp_path)
    started, gate = root / "started", root / "gate"
    started.mkdir()
    script = root / "slow.sh"
    script.write_text(f"#!/bin/sh\ncat >/dev/null\ntouch {started}/$$\n"
                      f"while [ ! -e {gate} ]; do sleep 0.05; done\n")
    script.chmod(0o755)
    kernel = async_kernel(root, codex_home, [f"{script} {i}" for i in range(10)])
    async with kernel.session(cwd=str(root)) as session:
        await session.tool_pre("shell", {"command": ["ls"]})
        with anyio.fail_after(30):
            while len(list(started.iterdir())) < 8:
                await anyio.sleep(0.02)
        await anyio.sleep(0.5)  # room for a ninth to start, were there no limit
        assert len(list(started.iterdir())) == 8
        gate.touch()
        with anyio.fail_after(30):  # the two waiting hooks get their places
            while len(list(started.iterdir())) < 10:
                await anyio.sleep(0.02)
