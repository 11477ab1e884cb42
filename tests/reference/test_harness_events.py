"""The reference host fires what each harness fires, with what it sends (issue #14): Codex's
PostToolUse after a shell command that exited non-zero (Codex 0.171.0 counts it a success;
Claude Code 2.1.332 fires PostToolUseFailure instead), and ``duration_ms`` on Claude Code's
PostToolUse / PostToolUseFailure input (always present in 2.1.332's recordings)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hookwire import Kernel
from hookwire.dialects.claude import ClaudeDialect
from hookwire.dialects.codex import CodexDialect
from hookwire.reference import Agent, ModelTurn, ScriptedModel, ToolCall


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def bash(cmd: str, id: str = "call_1") -> ModelTurn:
    return ModelTurn(tool_calls=(ToolCall(name="Bash", input={"command": cmd}, id=id),))


def recorder(tmp_path: Path, name: str) -> tuple[str, Path]:
    out = tmp_path / f"{name}.jsonl"
    script = tmp_path / f"{name}.sh"
    script.write_text(f"#!/bin/sh\ncat >> {out}\necho >> {out}\n")
    script.chmod(0o755)
    return str(script), out


def records(path: Path) -> list[dict]:  # type: ignore[type-arg]
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def kernel_with(tmp_path: Path, claude: dict | None = None,  # type: ignore[type-arg]
                codex: dict | None = None) -> Kernel:  # type: ignore[type-arg]
    kernel = Kernel(load_entry_points=False)
    if claude is not None:
        kernel.add_dialect(ClaudeDialect())
        path = tmp_path / "settings.json"
        path.write_text(json.dumps({"hooks": claude}))
        kernel.add_config("claude", path)
    if codex is not None:
        home = tmp_path / "codex-home"
        home.mkdir(exist_ok=True)
        kernel.add_dialect(CodexDialect(codex_home=home, spill_dir=tmp_path / "spill"))
        path = tmp_path / "hooks.json"
        path.write_text(json.dumps({"hooks": codex}))
        kernel.add_config("codex", path)
    return kernel


def on(event: str, command: str, matcher: str = "Bash") -> list[dict]:  # type: ignore[type-arg]
    return [{"matcher": matcher, "hooks": [{"type": "command", "command": command}]}]


@pytest.mark.anyio
async def test_codex_post_tool_use_fires_after_a_failing_shell_command(tmp_path: Path) -> None:
    codex_post, codex_out = recorder(tmp_path, "codex-post")
    claude_post, claude_post_out = recorder(tmp_path, "claude-post")
    claude_fail, claude_fail_out = recorder(tmp_path, "claude-fail")
    kernel = kernel_with(
        tmp_path, codex={"PostToolUse": on("PostToolUse", codex_post)},
        claude={"PostToolUse": on("PostToolUse", claude_post),
                "PostToolUseFailure": on("PostToolUseFailure", claude_fail)})
    model = ScriptedModel([bash("echo oops >&2; exit 3"), ModelTurn(text="done")])
    async with Agent(kernel, model, cwd=str(tmp_path)) as agent:
        await agent.run("fail please")
    [codex] = records(codex_out)
    assert codex["hook_event_name"] == "PostToolUse" and codex["tool_name"] == "Bash"
    assert codex["tool_input"] == {"command": "echo oops >&2; exit 3"}
    assert codex["tool_response"] == "oops" and codex["tool_use_id"] == "call_1"
    assert records(claude_post_out) == []  # Claude Code: PostToolUse does not fire for it
    [failure] = records(claude_fail_out)
    assert failure["error"] == "Exit code 3\noops" and failure["is_interrupt"] is False
    assert isinstance(failure["duration_ms"], int)


@pytest.mark.anyio
async def test_codex_post_tool_use_block_after_a_failing_command_replaces_the_output(
        tmp_path: Path) -> None:
    block = tmp_path / "block.sh"
    block.write_text("#!/bin/sh\necho 'look at the exit code' >&2\nexit 2\n")
    block.chmod(0o755)
    kernel = kernel_with(tmp_path, codex={"PostToolUse": on("PostToolUse", str(block))})
    model = ScriptedModel([bash("exit 4"), ModelTurn(text="done")])
    async with Agent(kernel, model, cwd=str(tmp_path)) as agent:
        await agent.run("go")
    tool = [m for m in model.requests[1] if m.role == "tool"]
    assert [m.content for m in tool] == ["look at the exit code"]


@pytest.mark.anyio
async def test_a_tool_error_is_not_a_codex_post_tool_use(tmp_path: Path) -> None:
    codex_post, codex_out = recorder(tmp_path, "codex-post")
    kernel = kernel_with(tmp_path, codex={"PostToolUse": on("PostToolUse", codex_post, ".*")})
    model = ScriptedModel([ModelTurn(tool_calls=(ToolCall(
        name="Read", input={"file_path": str(tmp_path / "missing")}, id="r1"),)),
        ModelTurn(text="done")])
    async with Agent(kernel, model, cwd=str(tmp_path)) as agent:
        await agent.run("read")
    assert records(codex_out) == []


@pytest.mark.anyio
async def test_duration_ms_is_present_on_claude_post_tool_use(tmp_path: Path) -> None:
    post, out = recorder(tmp_path, "post")
    kernel = kernel_with(tmp_path, claude={"PostToolUse": on("PostToolUse", post)})
    model = ScriptedModel([bash("echo hello"), ModelTurn(text="done")])
    async with Agent(kernel, model, cwd=str(tmp_path)) as agent:
        await agent.run("go")
    [rec] = records(out)
    assert list(rec)[-2:] == ["tool_use_id", "duration_ms"]
    assert isinstance(rec["duration_ms"], int) and rec["duration_ms"] >= 0


def script(tmp_path: Path, name: str, body: str) -> str:
    path = tmp_path / name
    path.write_text("#!/bin/sh\n" + body + "\n")
    path.chmod(0o755)
    return str(path)


STOP_START = """echo '{"continue": false, "stopReason": "not today"}'"""


@pytest.mark.anyio
@pytest.mark.parametrize("dialect", ["claude", "codex"])
async def test_session_start_continue_false_stops_the_first_prompt_before_any_model_request(
        tmp_path: Path, dialect: str) -> None:
    prompt_hook, prompts = recorder(tmp_path, "prompt")
    hooks = {"SessionStart": on("SessionStart", script(tmp_path, "s.sh", STOP_START), ""),
             "UserPromptSubmit": on("UserPromptSubmit", prompt_hook, "")}
    kernel = kernel_with(tmp_path, **{dialect: hooks})
    model = ScriptedModel([bash("echo should-not-run"), ModelTurn(text="second")])
    async with Agent(kernel, model, cwd=str(tmp_path)) as agent:
        first = await agent.run("first")
        assert first.terminal_reason == "hook_stopped" and first.halt is not None
        assert first.halt.reason == "not today" and first.tool_runs == ()
        assert model.requests == [] and records(prompts) == []
        second = await agent.run("second")
        halted = agent.session.halted
    if dialect == "codex":
        # Codex 0.171.0 drops that turn only: the next one reaches the model
        assert halted is None and second.terminal_reason == "completed"
        assert len(model.requests) == 2 and records(prompts)[0]["prompt"] == "second"
    else:
        # Claude Code: continue:false stops Claude entirely (the halt is sticky)
        assert halted is not None and second.terminal_reason == "hook_stopped"
        assert model.requests == []


@pytest.mark.anyio
async def test_codex_stop_continue_false_ends_the_turn_not_the_session(tmp_path: Path) -> None:
    stop = script(tmp_path, "stop.sh", """echo '{"continue": false, "stopReason": "enough"}'""")
    kernel = kernel_with(tmp_path, codex={"Stop": on("Stop", stop, "")})
    model = ScriptedModel([ModelTurn(text="one"), ModelTurn(text="two")])
    async with Agent(kernel, model, cwd=str(tmp_path)) as agent:
        first = await agent.run("first")
        assert first.terminal_reason == "hook_stopped" and first.halt is not None
        assert first.halt.scope == "turn" and agent.session.halted is None
        second = await agent.run("second")
        assert second.text == "two" and len(model.requests) == 2


@pytest.mark.anyio
async def test_codex_halt_scope_session_is_the_opt_in_old_behaviour(tmp_path: Path) -> None:
    stop = script(tmp_path, "stop.sh", """echo '{"continue": false, "stopReason": "enough"}'""")
    home = tmp_path / "codex-home"
    home.mkdir()
    kernel = Kernel(load_entry_points=False)
    kernel.add_dialect(CodexDialect(codex_home=home, halt_scope="session"))
    path = tmp_path / "hooks.json"
    path.write_text(json.dumps({"hooks": {"Stop": on("Stop", stop, "")}}))
    kernel.add_config("codex", path)
    async with kernel.session(cwd=str(tmp_path)) as session:
        verdict = await session.stop(last_assistant_message="done")
        assert verdict.halt is not None and verdict.halt.scope == "session"
        assert session.halted is verdict.halt
