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
