"""Claude Code ``prompt`` and ``agent`` hooks on the CrewAI agent's own LLM: the hook's
request goes to the same scripted ``BaseLLM`` the agent runs on, which answers both (told
apart by the hook's system message). A text-only LLM answers a ``prompt`` hook with a JSON
text; an ``agent`` hook needs one that calls functions (CrewAI's native tool calls)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("crewai")

from crewai import Agent
from crewai.llms.base_llm import BaseLLM
from crewai.tools import tool

from hookwire import Kernel
from hookwire.dialects.claude.testing import group, write_settings
from hookwire.plugins.crewai import HookwireHooks

#: CrewAI warns about its own internals (``function_calling_llm``) on every kickoff.
pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")
PROMPT = "Block any command that deletes files. The call: $ARGUMENTS"


class Both(BaseLLM):
    """The agent's scripted ``turns`` and ``judge(messages, tools)`` for the hook's own
    requests; ``native``: it calls functions (OpenAI-style tool calls), else it writes
    CrewAI's text format."""

    def __init__(self, turns: list[Any], judge: Any, *, native: bool) -> None:
        super().__init__(model="scripted")
        self._turns, self._judge, self._native = turns, judge, native
        self.agent_requests: list[str] = []
        self.hook_requests: list[tuple[list[Any], list[str]]] = []

    def call(self, messages: Any, tools: Any = None, callbacks: Any = None,
             available_functions: Any = None, from_task: Any = None, from_agent: Any = None,
             response_model: Any = None) -> Any:
        if "hook" in str(messages[0]["content"]):
            self.hook_requests.append((list(messages),
                                       [t["function"]["name"] for t in tools or []]))
            return self._judge(messages)
        self.agent_requests.append(json.dumps(messages, default=str))
        turn = self._turns.pop(0)
        if isinstance(turn, str):
            return turn if self._native else f"Thought: I am done.\nFinal Answer: {turn}"
        if self._native:
            return [tool_call(*turn, id=f"c{len(self.agent_requests)}")]
        return (f"Thought: I will use a tool.\nAction: {turn[0]}\n"
                f"Action Input: {json.dumps(turn[1])}")

    def supports_function_calling(self) -> bool:
        return self._native


def tool_call(name: str, args: dict[str, Any], id: str) -> dict[str, Any]:
    return {"id": id, "type": "function",
            "function": {"name": name, "arguments": json.dumps(args)}}


def run(project: Path, hooks: dict[str, Any], llm: Both) -> tuple[list[str], str]:
    write_settings(project / ".claude" / "settings.json", hooks)
    kernel = Kernel()
    kernel.add_config("claude", project / ".claude" / "settings.json")
    kernel.map_tool("bash", "Bash")  # CrewAI names its tools in snake case
    ran: list[str] = []

    @tool("Bash")
    def bash(command: str) -> str:
        """Run a shell command."""
        ran.append(command)
        return subprocess.run(["sh", "-c", command], cwd=project, capture_output=True,
                              text=True, timeout=30).stdout

    agent = Agent(role="worker", goal="do the task", backstory="a careful worker", llm=llm,
                  tools=[bash], verbose=False)
    with HookwireHooks(kernel, cwd=str(project)):
        return ran, str(agent.kickoff("clean up").raw)


def test_d34_a_text_only_llm_answers_a_prompt_hook_in_json(tmp_path: Path) -> None:
    """The denial reads as Claude Code words it."""
    llm = Both([("Bash", {"command": "rm -rf build"}), "understood"], native=False,
               judge=lambda m: json.dumps({"ok": False, "reason": "it deletes files"}))
    ran, out = run(tmp_path, {"PreToolUse": [group(
        {"type": "prompt", "prompt": PROMPT, "continueOnBlock": True}, matcher="Bash")]}, llm)
    assert ran == [] and out == "understood"
    [(request, offered)] = llm.hook_requests
    assert offered == [] and '"ok"' in request[0]["content"]  # the schema, in the system
    assert '"tool_input":{"command":"rm -rf build"}' in request[-1]["content"]
    assert f"PreToolUse:Bash hook error: [{PROMPT}]: it deletes files" in llm.agent_requests[1]


def test_agent_hook_reads_a_project_file_before_it_answers(tmp_path: Path) -> None:
    (tmp_path / "POLICY.md").write_text("Never delete the build folder.\n")

    def investigator(messages: list[Any]) -> Any:
        read = [m["content"] for m in messages if m["role"] == "tool"]
        if not read:
            return [tool_call("Read", {"file_path": "POLICY.md"}, "r1")]
        return [tool_call("StructuredOutput", {"ok": False, "reason": f"policy: {read[0]}"},
                          "a1")]

    llm = Both([("Bash", {"command": "rm -rf build"}), "ok, I will not"], native=True,
               judge=investigator)
    ran, out = run(tmp_path, {"PreToolUse": [group(
        {"type": "agent", "prompt": PROMPT}, matcher="Bash")]}, llm)
    assert ran == [] and out == "ok, I will not" and len(llm.hook_requests) == 2
    assert set(llm.hook_requests[0][1]) == {"Read", "Glob", "Grep", "StructuredOutput"}
    assert "Never delete the build folder." in llm.agent_requests[1]


def test_an_llm_without_function_calls_cannot_run_an_agent_hook(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    llm = Both([("Bash", {"command": "true"}), "done"], native=False, judge=None)
    ran, out = run(tmp_path, {"PreToolUse": [group(
        {"type": "agent", "prompt": PROMPT}, matcher="Bash")]}, llm)
    assert ran == ["true"] and out == "done" and llm.hook_requests == []
    assert "cannot call tools" in caplog.text  # it failed to start, and says why
