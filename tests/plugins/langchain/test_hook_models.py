"""Claude Code ``prompt`` and ``agent`` hooks on the LangChain agent's own chat model: the
hook's request goes to the same ``GenericFakeChatModel`` the agent runs on, which answers
both (told apart by the hook's system prompt)."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("langchain.agents")

from langchain.agents import create_agent
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.tools import tool
from pydantic import Field

from hookwire import Kernel
from hookwire.dialects.claude.testing import group, write_settings
from hookwire.plugins.langchain import HookwireMiddleware

PROMPT = "Block any command that deletes files. The call: $ARGUMENTS"


class Both(GenericFakeChatModel):
    """The agent's scripted ``turns``, and ``judge(messages)`` for the hook's own requests;
    ``bind_tools`` is a shim recording what the hook's request offered."""

    turns: list[Any] = Field(default_factory=list)
    judge: Any = None
    hook_requests: list[list[BaseMessage]] = Field(default_factory=list)
    bound: list[Any] = Field(default_factory=list)

    def bind_tools(self, tools: Any, **kwargs: Any) -> Both:
        self.bound.append((tools, kwargs))
        return self

    def _generate(self, messages: list[BaseMessage], stop: Any = None, run_manager: Any = None,
                  **kwargs: Any) -> ChatResult:
        if "hook" in str(messages[0].content):
            self.hook_requests.append(list(messages))
            return ChatResult(generations=[ChatGeneration(message=self.judge(messages))])
        return ChatResult(generations=[ChatGeneration(message=self.turns.pop(0))])


def call(name: str, args: dict[str, Any], id: str = "c1") -> AIMessage:
    return AIMessage(content="", tool_calls=[{"name": name, "args": args, "id": id,
                                              "type": "tool_call"}])


def hook_bindings(model: Both) -> list[Any]:
    """The tools the hook's own requests were offered (the agent binds LangChain tools)."""
    return [b for b in model.bound if b[0] and isinstance(b[0][0], dict)]


@pytest.fixture
def made() -> Iterator[list[HookwireMiddleware]]:
    out: list[HookwireMiddleware] = []
    yield out
    for mw in out:
        mw.close()


def setup(project: Path, hooks: dict[str, Any], model: Both,
          made: list[HookwireMiddleware]) -> tuple[Any, list[str]]:
    write_settings(project / ".claude" / "settings.json", hooks)
    kernel = Kernel()
    kernel.add_config("claude", project / ".claude" / "settings.json")
    ran: list[str] = []

    @tool("Bash")
    def bash(command: str) -> str:
        """Run a shell command."""
        ran.append(command)
        return subprocess.run(["sh", "-c", command], cwd=project, capture_output=True,
                              text=True, timeout=30).stdout

    mw = HookwireMiddleware(kernel, cwd=str(project))
    made.append(mw)
    return create_agent(model, tools=[bash], middleware=[mw]), ran


def test_prompt_hook_denial_reads_as_claude_code_words_it(
        tmp_path: Path, made: list[HookwireMiddleware]) -> None:
    model = Both(messages=iter(()), turns=[call("Bash", {"command": "rm -rf build"}),
                                          AIMessage("understood")],
                 judge=lambda m: call("answer", {"ok": False, "reason": "it deletes files"}))
    agent, ran = setup(tmp_path, {"PreToolUse": [group(
        {"type": "prompt", "prompt": PROMPT, "continueOnBlock": True}, matcher="Bash")]},
        model, made)
    result = agent.invoke({"messages": [HumanMessage("clean up")]})
    assert ran == [] and result["messages"][-1].content == "understood"
    [request] = model.hook_requests
    assert '"tool_input":{"command":"rm -rf build"}' in str(request[-1].content)
    [(tools, kwargs)] = hook_bindings(model)
    assert [t["function"]["name"] for t in tools] == ["answer"]
    assert kwargs == {"tool_choice": "answer"}  # the answer is forced, as structured output
    [msg] = [m for m in result["messages"] if isinstance(m, ToolMessage)]
    assert msg.content == f"PreToolUse:Bash hook error: [{PROMPT}]: it deletes files"


def test_agent_hook_reads_a_project_file_before_it_answers(
        tmp_path: Path, made: list[HookwireMiddleware]) -> None:
    (tmp_path / "POLICY.md").write_text("Never delete the build folder.\n")

    def investigator(messages: list[BaseMessage]) -> AIMessage:
        read = [m.content for m in messages if isinstance(m, ToolMessage)]
        if not read:
            return call("Read", {"file_path": "POLICY.md"}, "r1")
        return call("StructuredOutput", {"ok": False, "reason": f"policy: {read[0]}"}, "a1")

    model = Both(messages=iter(()), turns=[call("Bash", {"command": "rm -rf build"}),
                                          AIMessage("ok, I will not")], judge=investigator)
    agent, ran = setup(tmp_path, {"PreToolUse": [group(
        {"type": "agent", "prompt": PROMPT}, matcher="Bash")]}, model, made)
    result = agent.invoke({"messages": [HumanMessage("clean up")]})
    assert ran == [] and result["messages"][-1].content == "ok, I will not"
    assert len(model.hook_requests) == 2
    names = {t["function"]["name"] for t in hook_bindings(model)[0][0]}
    assert names == {"Read", "Glob", "Grep", "StructuredOutput"}
    [msg] = [m for m in result["messages"] if isinstance(m, ToolMessage)]
    assert "Never delete the build folder." in str(msg.content)
