"""The host conformance kit against the OpenAI Agents SDK runner, on the SDK's own
``ScriptedModel``. No network: tracing is off and the API key is a dummy."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("agents")

from agents import Agent, function_tool, set_tracing_disabled
from agents.testing import ScriptedModel, assistant_message, function_call

from hookwire.plugins.hostkit import (
    HostConformance,
    HostHarness,
    KitTools,
    Step,
    Transcript,
    flatten,
)
from hookwire.plugins.openai_agents import Hookwire


@pytest.fixture(autouse=True)
def offline(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-dummy-never-used")
    set_tracing_disabled(True)
    yield


class KitModel(ScriptedModel):
    """The SDK's ``ScriptedModel`` fed the kit's steps (``"done"`` past the end), recording
    what each request sent into the transcript."""

    def __init__(self, script: Sequence[Step], transcript: Transcript) -> None:
        steps: list[Any] = []
        for n, step in enumerate([*script, *["done"] * 4]):
            steps.append([assistant_message(step)] if isinstance(step, str) else [
                function_call(c.name, dict(c.args), call_id=f"call_{id(self)}_{n}_{i}")
                for i, c in enumerate(step)])
        super().__init__(steps)
        self.transcript = transcript

    async def get_response(self, system_instructions: Any, input: Any, *args: Any,
                           **kwargs: Any) -> Any:
        self.transcript.requests.append(flatten([system_instructions, input]))
        return await super().get_response(system_instructions, input, *args, **kwargs)


def kit_tools(kit: KitTools) -> list[Any]:
    return [function_tool(f) for f in kit.functions()]


class OpenAiAgentsHarness(HostHarness):
    name = "OpenAI Agents SDK"
    delegate_arg = "input"
    hides_tool_errors = ("a function tool's default failure handler replaces the exception "
                         "with 'An error occurred while running the tool. Please try again.'")

    def run(self, kernel: Any, *, cwd: Path, prompt: str, script: Sequence[Step],
            tools: KitTools) -> Transcript:
        t = tools.transcript
        agent = Agent(name="kit", model=KitModel(script, t), tools=kit_tools(tools))
        with Hookwire(kernel, cwd=str(cwd), approval="kernel") as hooks:
            try:
                t.output = str(asyncio.run(hooks.run(agent, prompt)).final_output)
            except Exception as exc:
                t.error = exc
        return t

    def run_nested(self, kernel: Any, *, cwd: Path, prompt: str, script: Sequence[Step],
                   inner_script: Sequence[Step], tools: KitTools) -> Transcript:
        t = tools.transcript
        with Hookwire(kernel, cwd=str(cwd), approval="kernel") as hooks:
            helper = Agent(name="helper", model=KitModel(inner_script, t),
                           tools=kit_tools(tools)[:1])
            # the SDK's own agent-as-a-tool, given no hookwire of its own
            delegate = helper.as_tool("delegate", "Hand a task to a helper agent.")
            agent = Agent(name="kit", model=KitModel(script, t),
                          tools=[*kit_tools(tools), delegate])
            try:
                t.output = str(asyncio.run(hooks.run(agent, prompt)).final_output)
            except Exception as exc:
                t.error = exc
        return t


class TestOpenAiAgentsConformance(HostConformance):
    harness = OpenAiAgentsHarness()
