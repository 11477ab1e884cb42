"""A LlamaIndex function-calling LLM lent to hookwire's hooks that ask a model (Claude Code's
``prompt`` and ``agent`` hooks; :class:`hookwire.hostparts.HostModel`).

A question is asked on the LLM itself, outside any workflow (no hookwire hook sees it), with
``achat_with_tools``: a ``prompt`` hook's answer is a call of one tool whose parameters are the
hook's JSON schema, required (``tool_required``); an ``agent`` hook's tools run in a short loop
until the model calls the answer tool or its turns run out
(:func:`hookwire.plugins._hookmodel.converse`).
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Mapping, Sequence
from typing import Any

from llama_index.core.llms import ChatMessage
from llama_index.core.llms.function_calling import FunctionCallingLLM
from llama_index.core.tools import AsyncBaseTool, ToolMetadata, ToolOutput

from hookwire.hostparts import ModelAsk, ModelReply
from hookwire.plugins._hookmodel import ToolCall, Turn, converse, offered
from hookwire.plugins._mcp import on_loop, running_loop


class LlamaIndexModel:
    """``llm`` (a LlamaIndex ``FunctionCallingLLM``) as a
    :class:`~hookwire.hostparts.HostModel`."""

    def __init__(self, llm: FunctionCallingLLM, *, loop: Any = None) -> None:
        self.llm = llm
        self.loop = loop  # the asyncio loop its client lives on (hooks may run on another)

    @property
    def name(self) -> str:
        named = getattr(self.llm, "model", None)
        return named if isinstance(named, str) and named else type(self.llm).__name__

    async def ask(self, ask: ModelAsk) -> ModelReply:
        return await on_loop(self.loop, functools.partial(self._ask, ask))

    async def _ask(self, ask: ModelAsk) -> ModelReply:
        tools = [_Schema(n, d, s) for n, d, s in offered(ask)]
        history = [ChatMessage(role="system", content=ask.system), *(
            ChatMessage(role=m.role, content=m.text) for m in ask.messages)]

        async def send(results: Sequence[tuple[ToolCall, str]]) -> Turn:
            history.extend(ChatMessage(role="tool", content=text, additional_kwargs={
                "tool_call_id": call.id}) for call, text in results)
            response = await self.llm.achat_with_tools(
                tools, chat_history=list(history), allow_parallel_tool_calls=True,
                tool_required=not ask.output_tool)
            history.append(response.message)
            calls = self.llm.get_tool_calls_from_response(response, error_on_no_tool_call=False)
            return Turn(calls=tuple(ToolCall(id=c.tool_id, name=c.tool_name,
                                             args=dict(c.tool_kwargs or {})) for c in calls),
                        text=response.message.content)

        return await converse(ask, send, model=self.name)


def lent(agent: Any) -> LlamaIndexModel | None:
    """The model of ``agent`` (of an ``AgentWorkflow``'s root agent) to lend, when it can call
    tools (a ``FunctionCallingLLM``); ``None`` else."""
    agents = getattr(agent, "agents", None) or {}
    llm = getattr(agents.get(getattr(agent, "root_agent", None)) or agent, "llm", None)
    if not isinstance(llm, FunctionCallingLLM):
        return None
    return LlamaIndexModel(llm, loop=running_loop())


@dataclasses.dataclass
class _Parameters(ToolMetadata):
    """Tool metadata whose parameters are a JSON schema as given (not a pydantic model)."""

    parameters: Mapping[str, Any] = dataclasses.field(default_factory=dict)

    def get_parameters_dict(self) -> dict[str, Any]:
        return dict(self.parameters)


class _Schema(AsyncBaseTool):
    """A tool the model is offered, described by name and JSON schema; hookwire runs it."""

    def __init__(self, name: str, description: str, parameters: Mapping[str, Any]) -> None:
        self._metadata = _Parameters(description=description, name=name, fn_schema=None,
                                     parameters=parameters)

    @property
    def metadata(self) -> ToolMetadata:
        return self._metadata

    def call(self, *args: Any, **kwargs: Any) -> ToolOutput:  # pragma: no cover
        raise NotImplementedError("hookwire runs a hook's tools itself")

    async def acall(self, *args: Any, **kwargs: Any) -> ToolOutput:  # pragma: no cover
        raise NotImplementedError("hookwire runs a hook's tools itself")


__all__ = ["LlamaIndexModel", "lent"]
