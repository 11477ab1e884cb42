"""Claude Code ``prompt`` and ``agent`` hooks on the pydantic-ai agent's own model: the hook's
model request goes to the same ``FunctionModel`` the agent runs on, which answers both."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("pydantic_ai")

from pydantic_ai import Agent, Tool
from pydantic_ai.messages import (
    ModelMessage,
    ModelResponse,
    TextPart,
    ToolCallPart,
    ToolReturnPart,
    UserPromptPart,
)
from pydantic_ai.models.function import AgentInfo, FunctionModel

from hookwire import Kernel
from hookwire.dialects.claude.testing import group, write_settings
from hookwire.hostparts import HostParts, ModelAsk, ModelReply
from hookwire.plugins.pydantic_ai import Hookwire, RunHalted

pytestmark = pytest.mark.anyio
PROMPT = "Block any command that deletes files. The call: $ARGUMENTS"


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


class Both:
    """One ``FunctionModel`` for the agent (its scripted ``turns``) and for the hook's own
    requests (``judge``: messages, info → a response), told apart by the hook's instructions."""

    def __init__(self, turns: list[Any], judge: Any) -> None:
        self.turns, self.judge = turns, judge
        self.agent_requests: list[list[ModelMessage]] = []
        self.hook_requests: list[tuple[list[ModelMessage], AgentInfo]] = []

    def respond(self, messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        if info.instructions and "hook" in info.instructions:
            self.hook_requests.append((list(messages), info))
            return self.judge(messages, info)  # type: ignore[no-any-return]
        self.agent_requests.append(list(messages))
        turn = self.turns.pop(0)
        if isinstance(turn, str):
            return ModelResponse(parts=[TextPart(turn)])
        return ModelResponse(parts=[ToolCallPart(turn[0], turn[1])])

    def model(self) -> FunctionModel:
        return FunctionModel(self.respond)


def verdict(ok: bool, reason: str) -> Any:
    """A prompt hook's answer, in native structured output (text holding the JSON)."""
    def judge(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        assert info.model_request_parameters.output_mode == "native"
        assert not info.function_tools  # a prompt hook's request has no tools
        return ModelResponse(parts=[TextPart(json.dumps({"ok": ok, "reason": reason}))])
    return judge


def setup(project: Path, hooks: dict[str, Any], model: Both) -> tuple[Agent[None, Any], list[str]]:
    write_settings(project / ".claude" / "settings.json", hooks)
    kernel = Kernel()
    kernel.add_config("claude", project / ".claude" / "settings.json")
    ran: list[str] = []

    def bash(command: str) -> str:
        """Run a shell command."""
        ran.append(command)
        return subprocess.run(["sh", "-c", command], cwd=project, capture_output=True,
                              text=True, timeout=30).stdout

    agent = Agent(model.model(), tools=[Tool(bash, name="Bash")],
                  capabilities=[Hookwire(kernel, cwd=str(project))])
    return agent, ran


def user_text(messages: list[ModelMessage]) -> str:
    return "\n".join(str(p.content) for m in messages for p in getattr(m, "parts", ())
                     if isinstance(p, UserPromptPart))


def returns(messages: list[ModelMessage]) -> list[str]:
    return [p.model_response_str() for m in messages for p in getattr(m, "parts", ())
            if isinstance(p, ToolReturnPart) or type(p).__name__ == "RetryPromptPart"]


async def test_prompt_hook_denies_the_tool_and_ends_the_turn(tmp_path: Path) -> None:
    model = Both([("Bash", {"command": "rm -rf build"}), "never asked"],
                 verdict(False, "it deletes the build folder"))
    agent, ran = setup(tmp_path, {"PreToolUse": [group(
        {"type": "prompt", "prompt": PROMPT}, matcher="Bash")]}, model)
    with pytest.raises(RunHalted, match="it deletes the build folder"):
        await agent.run("clean up")
    assert ran == [] and len(model.agent_requests) == 1
    [(messages, info)] = model.hook_requests
    event = json.loads(user_text(messages).removeprefix(PROMPT.replace("$ARGUMENTS", "")))
    assert event["tool_name"] == "Bash" and event["tool_input"] == {"command": "rm -rf build"}
    assert "ok" in (info.instructions or "")


async def test_continue_on_block_the_model_reads_claude_codes_wording(tmp_path: Path) -> None:
    model = Both([("Bash", {"command": "rm -rf build"}), "understood"],
                 verdict(False, "it deletes the build folder"))
    agent, ran = setup(tmp_path, {"PreToolUse": [group(
        {"type": "prompt", "prompt": PROMPT, "continueOnBlock": True}, matcher="Bash")]}, model)
    result = await agent.run("clean up")
    assert result.output == "understood" and ran == []
    [text] = returns(model.agent_requests[1])
    assert f"PreToolUse:Bash hook error: [{PROMPT}]: it deletes the build folder" in text


async def test_prompt_hook_ok_true_lets_the_tool_run(tmp_path: Path) -> None:
    model = Both([("Bash", {"command": "echo hi"}), "done"], verdict(True, "harmless"))
    agent, ran = setup(tmp_path, {"PreToolUse": [group(
        {"type": "prompt", "prompt": PROMPT})]}, model)
    assert (await agent.run("say hi")).output == "done"
    assert ran == ["echo hi"] and len(model.hook_requests) == 1


async def test_agent_hook_reads_a_project_file_before_it_answers(tmp_path: Path) -> None:
    (tmp_path / "POLICY.md").write_text("Never delete the build folder.\n")

    def investigator(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        assert [t.name for t in info.output_tools] == ["StructuredOutput"]
        assert {t.name for t in info.function_tools} == {"Read", "Glob", "Grep"}
        seen = [p.content for m in messages for p in getattr(m, "parts", ())
                if isinstance(p, ToolReturnPart)]
        if not seen:
            return ModelResponse(parts=[ToolCallPart("Read", {"file_path": "POLICY.md"})])
        return ModelResponse(parts=[ToolCallPart("StructuredOutput", {
            "ok": False, "reason": f"POLICY.md says: {seen[0].split(chr(9))[1].strip()}"})])

    model = Both([("Bash", {"command": "rm -rf build"}), "ok, I will not"], investigator)
    agent, ran = setup(tmp_path, {"PreToolUse": [group(
        {"type": "agent", "prompt": PROMPT}, matcher="Bash")]}, model)
    result = await agent.run("clean up")
    assert ran == [] and result.output == "ok, I will not"  # an agent hook lets the turn go on
    assert len(model.hook_requests) == 2  # Read, then the answer
    [text] = returns(model.agent_requests[1])
    assert f"PreToolUse:Bash hook error: [{PROMPT}]: POLICY.md says: Never delete the build " \
        "folder." in text


async def test_a_model_given_to_the_kernel_wins_over_the_agents(tmp_path: Path) -> None:
    class Strict:
        name = "strict"

        async def ask(self, ask: ModelAsk) -> ModelReply:
            return ModelReply(output={"ok": False, "reason": "the kernel's model says no"})

    model = Both([("Bash", {"command": "echo hi"}), "never asked"], verdict(True, "fine"))
    agent, ran = setup(tmp_path, {"PreToolUse": [group(
        {"type": "prompt", "prompt": PROMPT})]}, model)
    kernel = next(c for c in agent.root_capability.capabilities  # type: ignore[attr-defined]
                  if isinstance(c, Hookwire)).kernel
    kernel.parts = HostParts(model=Strict())
    with pytest.raises(RunHalted, match="the kernel's model says no"):
        await agent.run("say hi")
    assert ran == [] and model.hook_requests == []


async def test_d30_pydantic_ai_asks_an_agent_hook_again_after_a_plain_text_answer(
        tmp_path: Path) -> None:
    """An agent hook answers only through its StructuredOutput tool. Claude Code takes a plain
    text answer as no answer; pydantic-ai's own output handling asks the model again (within
    the hook's turns), and the second answer counts."""
    answers = [ModelResponse(parts=[TextPart("It looks harmless to me.")]),
               ModelResponse(parts=[ToolCallPart("StructuredOutput", {
                   "ok": False, "reason": "second answer"})])]

    def judge(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        return answers.pop(0)

    model = Both([("Bash", {"command": "rm -rf build"}), "understood"], judge)
    agent, ran = setup(tmp_path, {"PreToolUse": [group(
        {"type": "agent", "prompt": PROMPT}, matcher="Bash")]}, model)
    assert (await agent.run("clean up")).output == "understood"
    assert ran == [] and len(model.hook_requests) == 2
    [text] = returns(model.agent_requests[1])
    assert "second answer" in text


def judge_both(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
    """The prompt hook says ok; the agent hook reads POLICY.md, then says ok."""
    if not info.output_tools or info.output_tools[0].name != "StructuredOutput":
        return ModelResponse(parts=[TextPart(json.dumps({"ok": True, "reason": "harmless"}))])
    if not any(isinstance(p, ToolReturnPart) for m in messages for p in getattr(m, "parts", ())):
        return ModelResponse(parts=[ToolCallPart("Read", {"file_path": "POLICY.md"})])
    return ModelResponse(parts=[ToolCallPart("StructuredOutput", {"ok": True,
                                                                  "reason": "not a deletion"})])


async def test_all_five_handler_types_run_unmodified(tmp_path: Path, five_handlers: Any) -> None:
    """Command, http, prompt, agent and mcp_tool hooks of one settings file, on a real stdio
    MCP server the agent holds as a toolset: each one runs once for each call."""
    from fastmcp.client.transports import StdioTransport
    from pydantic_ai.mcp import MCPToolset

    project = tmp_path / "proj"
    project.mkdir()
    kernel = five_handlers.kernel(project)
    model = Both([("Bash", {"command": "echo hi"}), ("Bash", {"command": "rm -rf build"}),
                  "done"], judge_both)
    ran: list[str] = []

    def bash(command: str) -> str:
        """Run a shell command."""
        ran.append(command)
        return subprocess.run(["sh", "-c", command], cwd=project, capture_output=True,
                              text=True, timeout=30).stdout

    argv = five_handlers.mcp_argv
    guard: Any = MCPToolset(StdioTransport(command=argv[0], args=argv[1:]), id="guard")
    # the server's own tool is not offered to the agent: only the hook calls it
    agent = Agent(model.model(), tools=[Tool(bash, name="Bash")],
                  toolsets=[guard.filtered(lambda ctx, tool: False)],
                  capabilities=[Hookwire(kernel, cwd=str(project))])
    assert (await agent.run("say hi, then clean up")).output == "done"
    assert ran == ["echo hi"]
    assert len(five_handlers.read("command.log")) == 2 and len(five_handlers.http_bodies) == 2
    assert five_handlers.read("mcp.log") == ["echo hi", "rm -rf build"]
    agent_hook = [r for r in model.hook_requests if r[1].output_tools[0:1]
                  and r[1].output_tools[0].name == "StructuredOutput"]
    assert len(agent_hook) == 4 and len(model.hook_requests) == 6  # per call: 1 prompt, 2 agent
    denied = returns(model.agent_requests[2])[-1]
    assert "PreToolUse:Bash hook error: the guard server refuses rm" in denied
