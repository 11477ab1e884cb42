"""What the model reads (issue #14): the reference host's model requests carry each hook's
text in the wording and place its harness gives it. Claude Code 2.1.332 and Codex 0.171.0
recordings (``docs/dialects/claude.md`` / ``codex.md``, "What the model reads")."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hookwire import Kernel
from hookwire.dialects.claude import ClaudeDialect
from hookwire.dialects.claude.render import PREAMBLE
from hookwire.dialects.codex import CodexDialect
from hookwire.reference import Agent, ModelTurn, ScriptedModel, ToolCall


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def script(tmp_path: Path, name: str, body: str) -> str:
    path = tmp_path / name
    path.write_text("#!/bin/sh\ncat >/dev/null\n" + body + "\n")
    path.chmod(0o755)
    return str(path)


def kernel(tmp_path: Path, dialect: str, hooks: dict) -> Kernel:  # type: ignore[type-arg]
    k = Kernel(load_entry_points=False)
    if dialect == "claude":
        k.add_dialect(ClaudeDialect())
        path = tmp_path / "settings.json"
    else:
        (tmp_path / "home").mkdir(exist_ok=True)
        k.add_dialect(CodexDialect(codex_home=tmp_path / "home", spill_dir=tmp_path / "spill"))
        path = tmp_path / "hooks.json"
    path.write_text(json.dumps({"hooks": {
        event: [{"matcher": m, "hooks": [{"type": "command", "command": c}]}]
        for event, (m, c) in hooks.items()}}))
    k.add_config(dialect, path)
    return k


def bash(cmd: str) -> ModelTurn:
    return ModelTurn(tool_calls=(ToolCall(name="Bash", input={"command": cmd}, id="t1"),))


def shown(request) -> list[tuple[str, str]]:  # type: ignore[no-untyped-def]
    return [(m.role, m.content) for m in request]


@pytest.mark.anyio
@pytest.mark.parametrize("dialect", ["claude", "codex"])
async def test_pre_tool_use_deny(tmp_path: Path, dialect: str) -> None:
    deny = script(tmp_path, "deny.sh", "echo 'no rm here' >&2; exit 2")
    model = ScriptedModel([bash("rm -rf build"), ModelTurn(text="ok")])
    async with Agent(kernel(tmp_path, dialect, {"PreToolUse": ("Bash", deny)}), model,
                     cwd=str(tmp_path)) as agent:
        await agent.run("go")
    [tool] = [m for m in model.requests[1] if m.role == "tool"]
    if dialect == "claude":  # byte for byte: trailing newline of stderr kept
        assert tool.content == f"PreToolUse:Bash hook error: [{deny}]: no rm here\n"
    else:
        assert tool.content == ("Command blocked by PreToolUse hook: no rm here. "
                                "Command: rm -rf build")
    assert tool.is_error and tool.source is not None and "PreToolUse hook" in tool.source


@pytest.mark.anyio
@pytest.mark.parametrize("dialect", ["claude", "codex"])
async def test_post_tool_use_block(tmp_path: Path, dialect: str) -> None:
    block = script(tmp_path, "b.sh", """echo '{"decision":"block","reason":"lint failed"}'""")
    model = ScriptedModel([bash("echo hello"), ModelTurn(text="ok")])
    async with Agent(kernel(tmp_path, dialect, {"PostToolUse": ("Bash", block)}), model,
                     cwd=str(tmp_path)) as agent:
        await agent.run("go")
    after = shown(model.requests[1])[2:]
    if dialect == "claude":  # the tool result unchanged, then the blocking error
        assert after == [("tool", "hello"), ("system", "PostToolUse:Bash hook blocking error "
                                                       f'from command: "{block}": lint failed')]
    else:  # Codex: the reason replaces the tool output
        assert after == [("tool", "lint failed")]


@pytest.mark.anyio
@pytest.mark.parametrize("dialect", ["claude", "codex"])
async def test_user_prompt_submit_block_sends_nothing(tmp_path: Path, dialect: str) -> None:
    block = script(tmp_path, "b.sh", "echo 'not that' >&2; exit 2")
    model = ScriptedModel([ModelTurn(text="ok")])
    async with Agent(kernel(tmp_path, dialect, {"UserPromptSubmit": ("", block)}), model,
                     cwd=str(tmp_path)) as agent:
        result = await agent.run("do it")
    assert model.requests == [] and result.terminal_reason == "prompt_blocked"
    if dialect == "claude":
        assert result.text == (f"UserPromptSubmit operation blocked by hook:\n[{block}]: "
                               "not that\n\n\nOriginal prompt: do it")
    else:
        assert result.text == "not that"


@pytest.mark.anyio
@pytest.mark.parametrize("dialect", ["claude", "codex"])
async def test_session_start_and_prompt_context(tmp_path: Path, dialect: str) -> None:
    start = script(tmp_path, "s.sh", "echo 'tests run by hand'")
    ups = script(tmp_path, "u.sh", "echo 'branch main'")
    model = ScriptedModel([ModelTurn(text="ok")])
    k = kernel(tmp_path, dialect, {"SessionStart": ("", start), "UserPromptSubmit": ("", ups)})
    async with Agent(k, model, cwd=str(tmp_path)) as agent:
        await agent.run("hello")
    request = model.requests[0]
    if dialect == "claude":  # one system message after the first user message
        assert shown(request) == [("user", "hello"), (
            "system", "SessionStart:startup hook success: tests run by hand\n\n"
                      "UserPromptSubmit hook success: branch main")]
    else:  # developer messages: SessionStart's before the first user message
        assert shown(request) == [("developer", "tests run by hand"), ("user", "hello"),
                                  ("developer", "branch main")]
    assert all(m.source for m in request if m.role != "user")  # labelled: never the user's


@pytest.mark.anyio
@pytest.mark.parametrize("dialect", ["claude", "codex"])
async def test_stop_block(tmp_path: Path, dialect: str) -> None:
    flag = tmp_path / "once"
    stop = script(tmp_path, "stop.sh", f"""[ -e {flag} ] && exit 0; touch {flag}
echo '{{"decision":"block","reason":"run the tests"}}'""")
    model = ScriptedModel([ModelTurn(text="done"), ModelTurn(text="tested")])
    async with Agent(kernel(tmp_path, dialect, {"Stop": ("", stop)}), model,
                     cwd=str(tmp_path)) as agent:
        await agent.run("go")
    added = shown(model.requests[1])[2:]
    if dialect == "claude":
        assert added == [
            ("user", f"<system-reminder>\n{PREAMBLE}\nStop hook feedback:\nrun the tests\n"
                     "</system-reminder>"),
            ("system", f'Stop hook blocking error from command: "{stop}": run the tests')]
    else:
        source = tmp_path / "hooks.json"  # Codex's source path and display order
        assert added == [("user", f'<hook_prompt hook_run_id="stop:0:{source}">run the tests'
                                  "</hook_prompt>")]


@pytest.mark.anyio
async def test_a_host_can_choose_the_neutral_form(tmp_path: Path) -> None:
    deny = script(tmp_path, "deny.sh", "echo 'no' >&2; exit 2")
    model = ScriptedModel([bash("rm x"), ModelTurn(text="ok")])
    async with Agent(kernel(tmp_path, "claude", {"PreToolUse": ("Bash", deny)}), model,
                     cwd=str(tmp_path), neutral=True) as agent:
        await agent.run("go")
    [tool] = [m for m in model.requests[1] if m.role == "tool"]
    assert tool.content == f"[{deny}]: no\n"


@pytest.mark.anyio
async def test_claude_deny_without_a_reason_reads_blocked_by_hook(tmp_path: Path) -> None:
    # Claude Code 2.1.332: `permissionDecision: "deny"` and no reason gives the model
    # `PreToolUse:<tool> hook error: Blocked by hook`
    deny = script(tmp_path, "deny.sh", """echo '{"hookSpecificOutput": {"hookEventName": """
                  """"PreToolUse", "permissionDecision": "deny"}}'""")
    model = ScriptedModel([bash("rm -rf build"), ModelTurn(text="ok")])
    async with Agent(kernel(tmp_path, "claude", {"PreToolUse": ("Bash", deny)}), model,
                     cwd=str(tmp_path)) as agent:
        await agent.run("go")
    [tool] = [m for m in model.requests[1] if m.role == "tool"]
    assert tool.content == "PreToolUse:Bash hook error: Blocked by hook" and tool.is_error


@pytest.mark.anyio
async def test_claude_contexts_of_one_tool_call_are_one_message(tmp_path: Path) -> None:
    # Claude Code 2.1.332: several additionalContexts of one call are one system message,
    # labelled once, the texts joined with a newline in the order the hooks finished
    def ctx(name: str, text: str, delay: str = "") -> str:
        return script(tmp_path, name, delay + """echo '{"hookSpecificOutput": {"hookEventName":"""
                      f""" "PreToolUse", "additionalContext": "{text}"}}}}'""")
    settings = tmp_path / "settings.json"
    settings.write_text(json.dumps({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
        {"type": "command", "command": ctx("one.sh", "CTX_ONE", "sleep 0.3\n")},
        {"type": "command", "command": ctx("two.sh", "CTX_TWO")}]}]}}))
    k = Kernel(load_entry_points=False)
    k.add_dialect(ClaudeDialect())
    k.add_config("claude", settings)
    model = ScriptedModel([bash("echo hi"), ModelTurn(text="ok")])
    async with Agent(k, model, cwd=str(tmp_path)) as agent:
        await agent.run("go")
    after = shown(model.requests[1])[2:]
    assert after == [("tool", "hi"),
                     ("system", "PreToolUse:Bash hook additional context: CTX_TWO\nCTX_ONE")]
