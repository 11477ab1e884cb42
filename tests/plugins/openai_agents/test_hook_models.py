"""Claude Code ``prompt`` and ``agent`` hooks on the OpenAI Agents SDK agent's own model: the
hook's run goes to the same ``ScriptedModel`` the agent runs on, whose steps interleave (the
agent's tool call, the hook's answer, the agent's reply). No network."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("agents")

from agents import Agent, function_tool, set_tracing_disabled
from agents.testing import ScriptedModel, assistant_message, function_call

from hookwire import Kernel
from hookwire.dialects.claude.testing import group, write_settings
from hookwire.plugins.openai_agents import Hookwire, RunHalted

pytestmark = pytest.mark.anyio
PROMPT = "Block any command that deletes files. The call: $ARGUMENTS"


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(autouse=True)
def offline(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-dummy-never-used")
    set_tracing_disabled(True)
    yield


def setup(project: Path, hooks: dict[str, Any], model: ScriptedModel
          ) -> tuple[Hookwire, Agent[Any], list[str]]:
    write_settings(project / ".claude" / "settings.json", hooks)
    kernel = Kernel()
    kernel.add_config("claude", project / ".claude" / "settings.json")
    ran: list[str] = []
    agent = Agent(name="a", model=model, tools=[bash_tool(project, ran)])
    return Hookwire(kernel, cwd=str(project)), agent, ran


def bash_tool(project: Path, ran: list[str]) -> Any:
    """``Bash(command)``: really runs ``sh -c`` in the project; ``ran`` lists the commands."""
    @function_tool(name_override="Bash")
    def bash(command: str) -> str:
        """Run a shell command."""
        ran.append(command)
        return subprocess.run(["sh", "-c", command], cwd=project, capture_output=True,
                              text=True, timeout=30).stdout

    return bash


def items_text(call: Any) -> str:
    return json.dumps(call.input, default=str)


async def test_prompt_hook_denies_and_ends_the_turn(tmp_path: Path) -> None:
    model = ScriptedModel([
        [function_call("Bash", {"command": "rm -rf build"}, call_id="c1")],
        [assistant_message(json.dumps({"ok": False, "reason": "it deletes files"}))],
    ])
    hooks, agent, ran = setup(tmp_path, {"PreToolUse": [group(
        {"type": "prompt", "prompt": PROMPT}, matcher="Bash")]}, model)
    with hooks, pytest.raises(RunHalted, match="it deletes files"):
        await hooks.run(agent, "clean up")
    assert ran == [] and len(model.calls) == 2
    hook_call = model.calls[1]
    assert "rm -rf build" in items_text(hook_call)
    assert "ok" in (hook_call.system_instructions or "")


async def test_continue_on_block_the_model_reads_claude_codes_wording(tmp_path: Path) -> None:
    model = ScriptedModel([
        [function_call("Bash", {"command": "rm -rf build"}, call_id="c1")],
        [assistant_message(json.dumps({"ok": False, "reason": "it deletes files"}))],
        [assistant_message("understood")],
    ])
    hooks, agent, ran = setup(tmp_path, {"PreToolUse": [group(
        {"type": "prompt", "prompt": PROMPT, "continueOnBlock": True}, matcher="Bash")]}, model)
    with hooks:
        result = await hooks.run(agent, "clean up")
    assert ran == [] and result.final_output == "understood"
    assert f"PreToolUse:Bash hook error: [{PROMPT}]: it deletes files" in items_text(
        model.calls[2])


async def test_agent_hook_reads_a_project_file_before_it_answers(tmp_path: Path) -> None:
    (tmp_path / "POLICY.md").write_text("Never delete the build folder.\n")
    model = ScriptedModel([
        [function_call("Bash", {"command": "rm -rf build"}, call_id="c1")],
        [function_call("Read", {"file_path": "POLICY.md"}, call_id="h1")],
        [function_call("StructuredOutput", {"ok": False, "reason": "POLICY.md forbids it"},
                       call_id="h2")],
        [assistant_message("ok, I will not")],
    ])
    hooks, agent, ran = setup(tmp_path, {"PreToolUse": [group(
        {"type": "agent", "prompt": PROMPT}, matcher="Bash")]}, model)
    with hooks:
        result = await hooks.run(agent, "clean up")
    assert ran == [] and result.final_output == "ok, I will not"
    # the hook's second request carries what Read returned
    assert "Never delete the build folder." in items_text(model.calls[2])
    assert "PreToolUse:Bash hook error:" in items_text(model.calls[3])
    assert "POLICY.md forbids it" in items_text(model.calls[3])


async def test_all_five_handler_types_run_unmodified(tmp_path: Path, five_handlers: Any) -> None:
    """Command, http, prompt, agent and mcp_tool hooks of one settings file; the mcp_tool hook
    calls a real stdio MCP server the agent holds (``mcp_servers``). One scripted model
    answers the agent and both model hooks, each step by what it is asked."""
    from agents.mcp import MCPServerStdio
    from agents.testing import ModelStep

    project = tmp_path / "proj"
    project.mkdir()
    kernel = five_handlers.kernel(project)
    agent_turns = [[function_call("Bash", {"command": "echo hi"}, call_id="c1")],
                   [function_call("Bash", {"command": "rm -rf build"}, call_id="c2")],
                   [assistant_message("done")]]
    asked: list[str] = []

    def respond(call: Any) -> Any:
        system = call.system_instructions or ""
        if "verifier" in system:  # the agent hook: Read, then its answer
            asked.append("agent")
            if "Commands that delete files" not in items_text(call):
                return [function_call("Read", {"file_path": "POLICY.md"}, call_id="r")]
            return [function_call("StructuredOutput", {"ok": True, "reason": "fine"},
                                  call_id="s")]
        if "judge" in system:
            asked.append("prompt")
            return [assistant_message(json.dumps({"ok": True, "reason": "harmless"}))]
        return agent_turns.pop(0)

    model = ScriptedModel([ModelStep.respond(respond) for _ in range(12)])
    ran: list[str] = []
    argv = five_handlers.mcp_argv
    async with MCPServerStdio({"command": argv[0], "args": argv[1:]}, name="guard",
                              client_session_timeout_seconds=30) as server:
        agent = Agent(name="a", model=model, tools=[bash_tool(project, ran)],
                      mcp_servers=[server])
        with Hookwire(kernel, cwd=str(project)) as hooks:
            result = await hooks.run(agent, "say hi, then clean up")
    assert result.final_output == "done" and ran == ["echo hi"]
    assert len(five_handlers.read("command.log")) == 2 and len(five_handlers.http_bodies) == 2
    assert five_handlers.read("mcp.log") == ["echo hi", "rm -rf build"]
    assert sorted(asked) == ["agent"] * 4 + ["prompt"] * 2
    assert "PreToolUse:Bash hook error: the guard server refuses rm" in items_text(
        model.calls[-1])
