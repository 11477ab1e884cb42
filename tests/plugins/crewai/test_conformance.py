"""The host conformance kit against hookwire's CrewAI hooks, on a scripted CrewAI ``BaseLLM``
(CrewAI ships no fake model: this is its public LLM interface, answering in CrewAI's own
ReAct format). CrewAI's telemetry and tracing are off for each test."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("crewai")

from crewai import Agent
from crewai.llms.base_llm import BaseLLM
from crewai.tools import tool

from hookwire.plugins.crewai import HookwireHooks
from hookwire.plugins.hostkit import (
    HostConformance,
    HostHarness,
    KitTools,
    Step,
    Transcript,
    flatten,
    scripted,
)

#: CrewAI warns about its own internals (``function_calling_llm``) on every kickoff.
pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")
STOP = "a CrewAI execution ends with its final answer: no hook can send the model back"


class ScriptedLLM(BaseLLM):
    """A CrewAI LLM answering the kit's script in CrewAI's text format."""

    def __init__(self, script: Sequence[Step], transcript: Transcript) -> None:
        super().__init__(model="scripted")
        self._steps = scripted(script)
        self._transcript = transcript

    def call(self, messages: Any, tools: Any = None, callbacks: Any = None,
             available_functions: Any = None, from_task: Any = None, from_agent: Any = None,
             response_model: Any = None) -> str:
        self._transcript.requests.append(flatten(messages))
        step = self._steps()
        if isinstance(step, str):
            return f"Thought: I am done.\nFinal Answer: {step}"
        call = step[0]  # CrewAI's text format takes one action per response
        return f"Thought: I will use a tool.\nAction: {call.name}\n" \
               f"Action Input: {json.dumps(dict(call.args))}"

    def supports_function_calling(self) -> bool:
        return False


def crew_tools(kit: KitTools) -> list[Any]:
    return [tool(f.__name__)(f) for f in kit.functions()]


def agent(script: Sequence[Step], t: Transcript, tools: list[Any], role: str = "worker") -> Any:
    return Agent(role=role, goal="do the task", backstory="a careful worker",
                 llm=ScriptedLLM(script, t), tools=tools, verbose=False)


class CrewAiHarness(HostHarness):
    name = "CrewAI"
    cannot = {"claude_stop_block": STOP, "codex_stop_block": STOP,
              "gemini_after_agent_retry": STOP}
    retries_failed_tools = "CrewAI's tool usage tries a raising tool again before it reports"

    def run(self, kernel: Any, *, cwd: Path, prompt: str, script: Sequence[Step],
            tools: KitTools) -> Transcript:
        t = tools.transcript
        with HookwireHooks(kernel, cwd=str(cwd)):
            try:
                t.output = agent(script, t, crew_tools(tools)).kickoff(prompt).raw
            except Exception as exc:
                t.error = exc
        return t

    def run_nested(self, kernel: Any, *, cwd: Path, prompt: str, script: Sequence[Step],
                   inner_script: Sequence[Step], tools: KitTools) -> Transcript:
        t = tools.transcript
        helper = agent(inner_script, t, crew_tools(tools)[:1], role="helper")

        @tool("delegate")
        def delegate(request: str) -> str:
            """Hand a task to a helper agent."""
            return str(helper.kickoff(request).raw)  # no adapter of its own

        with HookwireHooks(kernel, cwd=str(cwd)):
            try:
                t.output = agent(script, t, [*crew_tools(tools), delegate]).kickoff(prompt).raw
            except Exception as exc:
                t.error = exc
        return t


class TestCrewAiConformance(HostConformance):
    harness = CrewAiHarness()


def test_a_check_that_breaks_refuses_the_call(tmp_path: Path) -> None:
    """CrewAI runs a tool whose before-hook raised anything but ``HookAborted``: hookwire's
    own failure must refuse the call instead of letting it through unchecked."""
    from hookwire import Kernel
    from hookwire.plugins.hostkit import Call

    t = Transcript()
    kit = KitTools(t)
    with HookwireHooks(Kernel(), cwd=str(tmp_path)) as hooks:
        def broken(ctx: Any) -> None:
            raise RuntimeError("the check broke")

        hooks._check_tool = broken  # type: ignore[method-assign]
        agent([[Call("run_shell", {"cmd": "ls"})], "done"], t, crew_tools(kit)).kickoff("go")
    assert t.ran == [], "an unchecked call must not run"
    assert "hookwire could not check this tool call" in "\n".join(t.requests)
