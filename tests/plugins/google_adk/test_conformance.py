"""The host conformance kit against the Google ADK runner plugin, on a scripted ADK model (a
``BaseLlm``: ADK ships no fake model; this is its public model interface)."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("google.adk")
#: ADK's own AgentTool builds its inner Runner with the argument ADK deprecated.
pytestmark = pytest.mark.filterwarnings(
    "ignore:The `plugins` argument is deprecated:DeprecationWarning")

from google.adk.agents import LlmAgent  # noqa: E402
from google.adk.apps import App  # noqa: E402
from google.adk.models.base_llm import BaseLlm  # noqa: E402
from google.adk.models.llm_response import LlmResponse  # noqa: E402
from google.adk.runners import InMemoryRunner  # noqa: E402
from google.adk.tools.agent_tool import AgentTool  # noqa: E402
from google.genai import types  # noqa: E402

from hookwire.plugins.google_adk import HookwirePlugin  # noqa: E402
from hookwire.plugins.hostkit import (  # noqa: E402
    HostConformance,
    HostHarness,
    KitTools,
    Step,
    Transcript,
    flatten,
    scripted,
)


class ScriptedLlm(BaseLlm):
    """An ADK model answering a script: function calls, or a final text."""

    model: str = "scripted"
    steps: Any = None
    transcript: Any = None

    async def generate_content_async(self, llm_request: Any, stream: bool = False
                                     ) -> AsyncIterator[LlmResponse]:
        self.transcript.requests.append(flatten(
            [llm_request.config.system_instruction if llm_request.config else None,
             [c.model_dump(exclude_none=True) for c in llm_request.contents]]))
        step = self.steps()
        if isinstance(step, str):
            parts = [types.Part(text=step)]
        else:
            parts = [types.Part(function_call=types.FunctionCall(
                id=f"call-{uuid.uuid4().hex[:8]}", name=c.name, args=dict(c.args)))
                for c in step]
        yield LlmResponse(content=types.Content(role="model", parts=parts))


def adk_tools(kit: KitTools) -> list[Any]:
    return list(kit.functions())


async def run_turn(plugin: HookwirePlugin, agent: Any, prompt: str) -> str | None:
    runner = InMemoryRunner(app=App(name="kit", root_agent=agent, plugins=[plugin]))
    session = await runner.session_service.create_session(app_name="kit", user_id="u")
    output = None
    try:
        async for event in plugin.run_async(
                runner, user_id="u", session_id=session.id,
                new_message=types.Content(role="user", parts=[types.Part(text=prompt)])):
            if event.content and event.content.parts and event.is_final_response():
                output = "".join(p.text or "" for p in event.content.parts)
    finally:
        await runner.close()
    return output


class AdkHarness(HostHarness):
    name = "Google ADK"

    def run(self, kernel: Any, *, cwd: Path, prompt: str, script: Sequence[Step],
            tools: KitTools) -> Transcript:
        transcript = tools.transcript
        plugin = HookwirePlugin(kernel, cwd=str(cwd))
        agent = LlmAgent(name="kit_agent", model=ScriptedLlm(steps=scripted(script),
                                                               transcript=transcript),
                         tools=adk_tools(tools))
        try:
            transcript.output = asyncio.run(run_turn(plugin, agent, prompt))
        except Exception as exc:
            transcript.error = exc
        finally:
            plugin.shutdown()
        return transcript


    def run_nested(self, kernel: Any, *, cwd: Path, prompt: str, script: Sequence[Step],
                   inner_script: Sequence[Step], tools: KitTools) -> Transcript:
        transcript = tools.transcript
        plugin = HookwirePlugin(kernel, cwd=str(cwd))
        helper = LlmAgent(name="delegate", description="Hand a task to a helper agent.",
                          model=ScriptedLlm(steps=scripted(inner_script), transcript=transcript),
                          tools=adk_tools(tools)[:1])
        agent = LlmAgent(name="kit_agent", model=ScriptedLlm(steps=scripted(script),
                                                               transcript=transcript),
                         tools=[*adk_tools(tools), AgentTool(agent=helper)])
        try:
            transcript.output = asyncio.run(run_turn(plugin, agent, prompt))
        except Exception as exc:
            transcript.error = exc
        finally:
            plugin.shutdown()
        return transcript


class TestAdkConformance(HostConformance):
    harness = AdkHarness()
