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
from hookwire.wire import json_object

_ANSWER = "answer"


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
        answer = ask.output_tool or _ANSWER
        spec = _spec(answer, "Give your answer.", ask.schema)
        if ask.output_tool:
            bound = self.model.bind_tools([*(_spec(t.name, t.description, t.parameters)
                                             for t in ask.tools), spec])
        else:
            bound = self.model.bind_tools([spec], tool_choice=answer)
        messages: list[BaseMessage] = [SystemMessage(ask.system), *(
            AIMessage(m.text) if m.role == "assistant" else HumanMessage(m.text)
            for m in ask.messages)]
        text: str | None = None
        for _ in range(max(ask.max_turns, 1)):
            reply = await bound.ainvoke(messages)
            messages.append(reply)
            calls = list(getattr(reply, "tool_calls", None) or [])
            for call in calls:
                if call["name"] == answer:
                    return ModelReply(output=dict(call["args"]), model=self.name)
            text = reply.content if isinstance(reply.content, str) else None
            if not calls:
                return ModelReply(output=None if ask.output_tool else json_object(text), text=text,
                                  model=self.name)
            for call in calls:
                messages.append(ToolMessage(await ask.call_tool(call["name"], call.get("args")),
                                            tool_call_id=call.get("id") or ""))
        return ModelReply(output=None, text=text, model=self.name)


def _spec(name: str, description: str, parameters: Any) -> dict[str, Any]:
    return {"type": "function", "function": {"name": name, "description": description,
                                             "parameters": dict(parameters)}}
