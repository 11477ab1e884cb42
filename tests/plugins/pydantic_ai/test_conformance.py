"""The host conformance kit against the pydantic-ai capability, on pydantic-ai's own
``FunctionModel``."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("pydantic_ai")

from pydantic_ai import Agent
from pydantic_ai.messages import ModelResponse, TextPart, ToolCallPart
from pydantic_ai.models.function import AgentInfo, FunctionModel

from hookwire.plugins.hostkit import (
    HostConformance,
    HostHarness,
    KitTools,
    Step,
    Transcript,
    flatten,
    scripted,
)
from hookwire.plugins.pydantic_ai import Hookwire


def model(script: Sequence[Step], transcript: Transcript) -> FunctionModel:
    steps = scripted(script)

    def respond(messages: list[Any], info: AgentInfo) -> ModelResponse:
        transcript.requests.append(flatten(messages))
        step = steps()
        if isinstance(step, str):
            return ModelResponse(parts=[TextPart(step)])
        return ModelResponse(parts=[ToolCallPart(c.name, dict(c.args)) for c in step])

    return FunctionModel(respond)


def kit_tools(kit: KitTools) -> list[Any]:
    return list(kit.functions())


class PydanticAiHarness(HostHarness):
    name = "pydantic-ai"

    def run(self, kernel: Any, *, cwd: Path, prompt: str, script: Sequence[Step],
            tools: KitTools) -> Transcript:
        t = tools.transcript
        agent = Agent(model(script, t), tools=kit_tools(tools),
                      capabilities=[Hookwire(kernel, cwd=str(cwd))])
        try:
            t.output = asyncio.run(agent.run(prompt)).output
        except Exception as exc:
            t.error = exc
        return t

    def run_nested(self, kernel: Any, *, cwd: Path, prompt: str, script: Sequence[Step],
                   inner_script: Sequence[Step], tools: KitTools) -> Transcript:
        t = tools.transcript
        hooks = Hookwire(kernel, cwd=str(cwd))
        helper = Agent(model(inner_script, t), tools=kit_tools(tools)[:1], capabilities=[hooks],
                       name="helper")

        async def delegate(request: str) -> str:
            """Hand a task to a helper agent."""
            return str((await helper.run(request)).output)

        agent = Agent(model(script, t), tools=[*kit_tools(tools), delegate], capabilities=[hooks])
        try:
            t.output = asyncio.run(agent.run(prompt)).output
        except Exception as exc:
            t.error = exc
        return t


class TestPydanticAiConformance(HostConformance):
    harness = PydanticAiHarness()
