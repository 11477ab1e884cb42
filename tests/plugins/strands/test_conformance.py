"""The host conformance kit against the Strands Agents hook provider, on a scripted Strands
``Model`` (Strands ships no fake model: this is its public ``Model`` interface, streaming the
events a provider streams)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("strands")

from strands import Agent, tool
from strands.models import Model

from hookwire.plugins.hostkit import (
    HostConformance,
    HostHarness,
    KitTools,
    Step,
    Transcript,
    flatten,
    scripted,
)
from hookwire.plugins.strands import HookwireHooks


class ScriptedModel(Model):
    """A Strands model answering a script: tool calls, or a final text."""

    def __init__(self, script: Sequence[Step], transcript: Transcript) -> None:
        self.next = scripted(script)
        self.transcript = transcript

    def update_config(self, **config: Any) -> None:
        pass

    def get_config(self) -> Any:
        return {}

    async def structured_output(self, *args: Any, **kwargs: Any) -> Any:  # pragma: no cover
        raise NotImplementedError
        yield

    async def stream(self, messages: Any, tool_specs: Any = None, system_prompt: Any = None,
                     **kwargs: Any) -> Any:
        self.transcript.requests.append(flatten([system_prompt, messages]))
        step = self.next()
        yield {"messageStart": {"role": "assistant"}}
        if isinstance(step, str):
            yield {"contentBlockStart": {"start": {}}}
            yield {"contentBlockDelta": {"delta": {"text": step}}}
            yield {"contentBlockStop": {}}
            yield {"messageStop": {"stopReason": "end_turn"}}
            return
        for i, call in enumerate(step):
            use = {"toolUseId": f"call{len(self.transcript.requests)}_{i}", "name": call.name}
            yield {"contentBlockStart": {"start": {"toolUse": use}}}
            yield {"contentBlockDelta": {"delta": {"toolUse": {"input": json.dumps(call.args)}}}}
            yield {"contentBlockStop": {}}
        yield {"messageStop": {"stopReason": "tool_use"}}


def strands_tools(kit: KitTools) -> list[Any]:
    return [tool(f) for f in kit.functions()]


class StrandsHarness(HostHarness):
    name = "Strands Agents"

    def run(self, kernel: Any, *, cwd: Path, prompt: str, script: Sequence[Step],
            tools: KitTools) -> Transcript:
        transcript = tools.transcript
        with HookwireHooks(kernel, cwd=str(cwd)) as hooks:
            agent = Agent(model=ScriptedModel(script, transcript), tools=strands_tools(tools),
                          hooks=[hooks], callback_handler=None)
            try:
                result = agent(prompt)
                transcript.output = "\n".join(
                    b["text"] for b in result.message["content"] if "text" in b)
            except Exception as exc:
                transcript.error = exc
        return transcript


    def run_nested(self, kernel: Any, *, cwd: Path, prompt: str, script: Sequence[Step],
                   inner_script: Sequence[Step], tools: KitTools) -> Transcript:
        transcript = tools.transcript
        with HookwireHooks(kernel, cwd=str(cwd)) as hooks:
            # Strands' own agent-as-tool, given no hooks: the outer provider guards it
            helper = Agent(model=ScriptedModel(inner_script, transcript),
                           tools=strands_tools(tools)[:1], callback_handler=None, name="helper")
            delegate = helper.as_tool(name="delegate", description="Hand a task to a helper.")
            agent = Agent(model=ScriptedModel(script, transcript),
                          tools=[*strands_tools(tools), delegate], hooks=[hooks],
                          callback_handler=None)
            try:
                agent(prompt)
            except Exception as exc:
                transcript.error = exc
        return transcript


class TestStrandsConformance(HostConformance):
    harness = StrandsHarness()
