"""A LangChain chat model lent to hookwire's hooks that ask a model (Claude Code's ``prompt`` and
``agent`` hooks; :class:`hookwire.hostparts.HostModel`).

A question is asked on the chat model itself, outside the agent graph (its middleware, hooks
included, never sees it): the answer comes as a call of one tool whose parameters are the
hook's JSON schema (the tool-calling form of LangChain's structured output), forced for a
``prompt`` hook; an ``agent`` hook's other tools run in a short loop until the model calls the
answer tool or its turns run out. A plain text answer is taken only from a ``prompt`` hook,
and only when it is a JSON object.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import (
    AIMessage,
    BaseMessage,
    HumanMessage,
    SystemMessage,
    ToolMessage,
)

from hookwire.hostparts import ModelAsk, ModelReply
from hookwire.plugins._hookmodel import ToolCall, Turn, answer_tool, converse, offered


class LangChainModel:
    """``model`` (a ``BaseChatModel`` that can call tools) as a
    :class:`~hookwire.hostparts.HostModel`."""

    def __init__(self, model: BaseChatModel) -> None:
        self.model = model

    @property
    def name(self) -> str:
        model = self.model
        named = getattr(model, "model_name", None) or getattr(model, "model", None)
        return str(named) if isinstance(named, str) else type(model).__name__

    async def ask(self, ask: ModelAsk) -> ModelReply:
        specs = [_spec(*tool) for tool in offered(ask)]
        bound = (self.model.bind_tools(specs) if ask.output_tool
                 else self.model.bind_tools(specs, tool_choice=answer_tool(ask)))
        messages: list[BaseMessage] = [SystemMessage(ask.system), *(
            AIMessage(m.text) if m.role == "assistant" else HumanMessage(m.text)
            for m in ask.messages)]

        async def send(results: Sequence[tuple[ToolCall, str]]) -> Turn:
            messages.extend(ToolMessage(text, tool_call_id=call.id) for call, text in results)
            reply = await bound.ainvoke(messages)
            messages.append(reply)
            return Turn(calls=tuple(ToolCall(id=c.get("id") or "", name=c["name"],
                                             args=dict(c.get("args") or {}))
                                    for c in getattr(reply, "tool_calls", None) or []),
                        text=reply.content if isinstance(reply.content, str) else None)

        return await converse(ask, send, model=self.name)


def _spec(name: str, description: str, parameters: Any) -> dict[str, Any]:
    return {"type": "function", "function": {"name": name, "description": description,
                                             "parameters": dict(parameters)}}
