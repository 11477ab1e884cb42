"""Claude Code ``prompt`` and ``agent`` hooks on the LlamaIndex agent's own LLM: the hook's
request goes to the same ``MockFunctionCallingLLM`` the agent runs on, which answers both
(told apart by the hook's system message)."""

from __future__ import annotations

import asyncio
import subprocess
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("llama_index.core")
#: LlamaIndex reads pydantic attributes pydantic deprecated (``__fields__`` and others).
pytestmark = pytest.mark.filterwarnings(
    "ignore::pydantic.warnings.PydanticDeprecationWarning")

from llama_index.core.agent.workflow import FunctionAgent  # noqa: E402
from llama_index.core.base.llms.types import ToolCallBlock  # noqa: E402
from llama_index.core.llms import ChatMessage  # noqa: E402
from llama_index.core.llms.mock import MockFunctionCallingLLM  # noqa: E402
from llama_index.core.tools import FunctionTool  # noqa: E402

from hookwire import Kernel  # noqa: E402
from hookwire.dialects.claude.testing import group, write_settings  # noqa: E402
from hookwire.plugins.llama_index import Hookwire  # noqa: E402

PROMPT = "Block any command that deletes files. The call: $ARGUMENTS"


def call(name: str, args: dict[str, Any], id: str = "c1") -> ChatMessage:
    return ChatMessage(role="assistant", blocks=[
        ToolCallBlock(tool_call_id=id, tool_name=name, tool_kwargs=args)])


class Both:
    """The agent's scripted ``turns`` and ``judge(messages)`` for the hook's own requests,
    as the response generator of one ``MockFunctionCallingLLM``."""

    def __init__(self, turns: list[ChatMessage], judge: Any) -> None:
        self.turns, self.judge = turns, judge
        self.agent_requests: list[str] = []
        self.hook_requests: list[tuple[list[ChatMessage], list[str]]] = []

    def __call__(self, messages: Sequence[ChatMessage], **kwargs: Any) -> ChatMessage:
        if "hook" in str(messages[0].content):
            offered = [t.metadata.get_name() for t in kwargs.get("tools") or []]
            self.hook_requests.append((list(messages), offered))
            return self.judge(list(messages))  # type: ignore[no-any-return]
        self.agent_requests.append("\n".join(str(m.content) for m in messages))
        return self.turns.pop(0)


def run(project: Path, hooks: dict[str, Any], model: Both) -> tuple[list[str], str]:
    write_settings(project / ".claude" / "settings.json", hooks)
    kernel = Kernel()
    kernel.add_config("claude", project / ".claude" / "settings.json")
    ran: list[str] = []

    def Bash(command: str) -> str:  # the tool's name is Claude Code's
        """Run a shell command."""
        ran.append(command)
        return subprocess.run(["sh", "-c", command], cwd=project, capture_output=True,
                              text=True, timeout=30).stdout

    agent = FunctionAgent(name="a", description="an agent", tools=[
        FunctionTool.from_defaults(Bash)], llm=MockFunctionCallingLLM(response_generator=model),
        streaming=False)
    with Hookwire(kernel, cwd=str(project)) as hooks:
        output = asyncio.run(hooks.run(agent, "clean up"))
    return ran, str(output.response.content)


def test_prompt_hook_denial_reads_as_claude_code_words_it(tmp_path: Path) -> None:
    model = Both([call("Bash", {"command": "rm -rf build"}),
                  ChatMessage(role="assistant", content="understood")],
                 judge=lambda m: call("answer", {"ok": False, "reason": "it deletes files"}))
    ran, out = run(tmp_path, {"PreToolUse": [group(
        {"type": "prompt", "prompt": PROMPT, "continueOnBlock": True}, matcher="Bash")]}, model)
    assert ran == [] and out == "understood"
    [(request, offered)] = model.hook_requests
    assert offered == ["answer"]  # the answer is a required call of this one tool
    assert '"tool_input":{"command":"rm -rf build"}' in str(request[-1].content)
    assert f"PreToolUse:Bash hook error: [{PROMPT}]: it deletes files" in model.agent_requests[1]


def test_agent_hook_reads_a_project_file_before_it_answers(tmp_path: Path) -> None:
    (tmp_path / "POLICY.md").write_text("Never delete the build folder.\n")

    def investigator(messages: list[ChatMessage]) -> ChatMessage:
        read = [str(m.content) for m in messages if m.role == "tool"]
        if not read:
            return call("Read", {"file_path": "POLICY.md"}, "r1")
        return call("StructuredOutput", {"ok": False, "reason": f"policy: {read[0]}"}, "a1")

    model = Both([call("Bash", {"command": "rm -rf build"}),
                  ChatMessage(role="assistant", content="ok, I will not")], judge=investigator)
    ran, out = run(tmp_path, {"PreToolUse": [group(
        {"type": "agent", "prompt": PROMPT}, matcher="Bash")]}, model)
    assert ran == [] and out == "ok, I will not" and len(model.hook_requests) == 2
    assert set(model.hook_requests[0][1]) == {"Read", "Glob", "Grep", "StructuredOutput"}
    assert "Never delete the build folder." in model.agent_requests[1]
