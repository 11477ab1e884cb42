"""The host conformance kit against the LangChain middleware, on LangChain's own
``GenericFakeChatModel`` (scripted, recording each request)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("langchain.agents")

from langchain.agents import create_agent
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.tools import tool
from pydantic import Field

from hookwire.plugins.hostkit import (
    HostConformance,
    HostHarness,
    KitTools,
    Step,
    Transcript,
    flatten,
    scripted,
)
from hookwire.plugins.langchain import HookwireMiddleware


class KitModel(GenericFakeChatModel):
    """A chat model answering the kit's script; ``bind_tools`` is a no-op shim."""

    steps: Any = None
    transcript: Any = None
    calls: list[int] = Field(default_factory=list)

    def bind_tools(self, tools: Any, **kwargs: Any) -> KitModel:
        return self

    def _generate(self, messages: list[BaseMessage], stop: Any = None, run_manager: Any = None,
                  **kwargs: Any) -> ChatResult:
        self.transcript.requests.append(flatten([m.model_dump() for m in messages]))
        step = self.steps()
        self.calls.append(1)
        if isinstance(step, str):
            message = AIMessage(content=step)
        else:
            message = AIMessage(content="", tool_calls=[
                {"name": c.name, "args": dict(c.args), "id": f"call_{len(self.calls)}_{i}",
                 "type": "tool_call"} for i, c in enumerate(step)])
        return ChatResult(generations=[ChatGeneration(message=message)])


def kit_model(script: Sequence[Step], transcript: Transcript) -> KitModel:
    return KitModel(messages=iter(()), steps=scripted(script), transcript=transcript)


def kit_tools(kit: KitTools) -> list[Any]:
    return [tool(f) for f in kit.functions()]


def _invoke(agent: Any, prompt: str, t: Transcript) -> None:
    try:
        state = agent.invoke({"messages": [HumanMessage(prompt)]})
        last = state["messages"][-1]
        t.output = last.content if isinstance(last, AIMessage) else None
    except Exception as exc:
        t.error = exc


class LangChainHarness(HostHarness):
    name = "LangChain"

    def run(self, kernel: Any, *, cwd: Path, prompt: str, script: Sequence[Step],
            tools: KitTools) -> Transcript:
        t = tools.transcript
        with HookwireMiddleware(kernel, cwd=str(cwd)) as middleware:
            agent = create_agent(kit_model(script, t), tools=kit_tools(tools),
                                 middleware=[middleware])
            _invoke(agent, prompt, t)
        return t

    def run_nested(self, kernel: Any, *, cwd: Path, prompt: str, script: Sequence[Step],
                   inner_script: Sequence[Step], tools: KitTools) -> Transcript:
        t = tools.transcript
        with HookwireMiddleware(kernel, cwd=str(cwd)) as middleware:
            helper = create_agent(kit_model(inner_script, t), tools=kit_tools(tools)[:1],
                                  middleware=[middleware])

            @tool
            def delegate(request: str) -> str:
                """Hand a task to a helper agent."""
                state = helper.invoke({"messages": [HumanMessage(request)]})
                return str(state["messages"][-1].content)

            agent = create_agent(kit_model(script, t), tools=[*kit_tools(tools), delegate],
                                 middleware=[middleware])
            _invoke(agent, prompt, t)
        return t


class TestLangChainConformance(HostConformance):
    harness = LangChainHarness()
