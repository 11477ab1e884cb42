"""What every lent model (:class:`hookwire.hostparts.HostModel`) does the same way, whatever
its runtime: the short tool loop of an ``agent`` hook, the answer tool of a ``prompt`` hook,
and reading a plain text answer as a JSON object. An adapter's ``model.py`` only translates
one request and its reply into its runtime's messages (see :func:`converse`).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any

import attrs

from hookwire.hostparts import HookTool, ModelAsk, ModelReply
from hookwire.wire import json_object

#: The answer tool of a ``prompt`` hook (an ``agent`` hook names its own).
ANSWER = "answer"
#: The answer tool's description.
GIVE = "Give your answer."


@attrs.frozen(kw_only=True)
class ToolCall:
    """One tool call of the model's reply: ``id`` as its runtime gives it (may be empty)."""

    id: str
    name: str
    args: dict[str, Any]


@attrs.frozen(kw_only=True)
class Turn:
    """The model's reply to one request: its tool ``calls`` and any ``text``."""

    calls: tuple[ToolCall, ...] = ()
    text: str | None = None


#: One request: given the results of the previous turn's tool calls (none on the first),
#: the adapter adds them to its conversation, asks the model and returns its reply.
Send = Callable[[Sequence[tuple[ToolCall, str]]], Awaitable[Turn]]


def answer_tool(ask: ModelAsk) -> str:
    """The name of the tool whose arguments are the answer."""
    return ask.output_tool or ANSWER


def offered(ask: ModelAsk) -> list[tuple[str, str, Mapping[str, Any]]]:
    """The tools the model is offered, as (name, description, JSON schema): an ``agent``
    hook's tools and its answer tool, or a ``prompt`` hook's answer tool alone."""
    return [*((t.name, t.description, t.parameters) for t in ask.tools),
            (answer_tool(ask), GIVE, ask.schema)]


async def converse(ask: ModelAsk, send: Send, *, model: str) -> ModelReply:
    """Ask until the model answers: a call of the answer tool is the answer; a reply without
    calls ends it (its text is the answer of a ``prompt`` hook when it is a JSON object,
    never of an ``agent`` hook); other calls run the hook's tools, whose results go back in
    the next request, for at most ``ask.max_turns`` requests."""
    answer, tools = answer_tool(ask), {t.name: t for t in ask.tools}
    results: list[tuple[ToolCall, str]] = []
    text: str | None = None
    for _ in range(max(ask.max_turns, 1)):
        turn = await send(results)
        text = turn.text
        for call in turn.calls:
            if call.name == answer:
                return ModelReply(output=dict(call.args), model=model)
        if not turn.calls:
            return ModelReply(output=None if ask.output_tool else json_object(text), text=text,
                              model=model)
        results = [(call, await run_tool(tools.get(call.name), call.name, call.args))
                   for call in turn.calls]
    return ModelReply(output=None, text=text, model=model)


async def run_tool(tool: HookTool | None, name: str, args: Mapping[str, Any]) -> str:
    """A hook tool's result, or what the model reads when it called a tool that is not one."""
    if tool is None:
        return f"Error: there is no tool {name!r}"
    return await tool.call(dict(args))
