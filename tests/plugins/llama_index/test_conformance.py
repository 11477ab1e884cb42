"""The host conformance kit against hookwire's LlamaIndex runner, on LlamaIndex's own
``MockFunctionCallingLLM`` answering the kit's script."""

from __future__ import annotations

import asyncio
import uuid
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

from hookwire.plugins.hostkit import (  # noqa: E402
    HostConformance,
    HostHarness,
    KitTools,
    Step,
    Transcript,
    flatten,
    scripted,
)
from hookwire.plugins.llama_index import Hookwire  # noqa: E402


def llm(script: Sequence[Step], transcript: Transcript) -> MockFunctionCallingLLM:
    steps = scripted(script)

    def respond(messages: Sequence[ChatMessage], **kwargs: Any) -> ChatMessage:
        transcript.requests.append(flatten([m.model_dump() for m in messages]))
        step = steps()
        if isinstance(step, str):
            return ChatMessage(role="assistant", content=step)
        return ChatMessage(role="assistant", blocks=[
            ToolCallBlock(tool_call_id=f"call-{uuid.uuid4().hex[:8]}", tool_name=c.name,
                          tool_kwargs=dict(c.args)) for c in step])

    return MockFunctionCallingLLM(response_generator=respond)


def kit_tools(kit: KitTools) -> list[Any]:
    return [FunctionTool.from_defaults(f) for f in kit.functions()]


def agent(script: Sequence[Step], t: Transcript, tools: list[Any], name: str = "kit") -> Any:
    return FunctionAgent(name=name, description="a kit agent", llm=llm(script, t),
                         tools=tools, streaming=False)


class LlamaIndexHarness(HostHarness):
    name = "LlamaIndex"

    def run(self, kernel: Any, *, cwd: Path, prompt: str, script: Sequence[Step],
            tools: KitTools) -> Transcript:
        t = tools.transcript
        with Hookwire(kernel, cwd=str(cwd)) as hooks:
            try:
                output = asyncio.run(hooks.run(agent(script, t, kit_tools(tools)), prompt))
                t.output = str(output.response.content)
            except Exception as exc:
                t.error = exc
        return t

    def run_nested(self, kernel: Any, *, cwd: Path, prompt: str, script: Sequence[Step],
                   inner_script: Sequence[Step], tools: KitTools) -> Transcript:
        t = tools.transcript
        with Hookwire(kernel, cwd=str(cwd)) as hooks:
            helper = agent(inner_script, t, kit_tools(tools)[:1], name="helper")

            async def delegate(request: str) -> str:
                """Hand a task to a helper agent."""
                return str((await hooks.run(helper, request)).response.content)

            outer = agent(script, t, [*kit_tools(tools), FunctionTool.from_defaults(delegate)])
            try:
                t.output = str(asyncio.run(hooks.run(outer, prompt)).response.content)
            except Exception as exc:
                t.error = exc
        return t


class TestLlamaIndexConformance(HostConformance):
    harness = LlamaIndexHarness()
