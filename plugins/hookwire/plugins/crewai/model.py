"""A CrewAI LLM lent to hookwire's hooks that ask a model (Claude Code's ``prompt`` and
``agent`` hooks; :class:`hookwire.hostparts.HostModel`).

A question is a direct ``call`` of the LLM (no agent, task or crew: hookwire's hooks, which
follow agents and crews, leave it alone), made in a worker thread since CrewAI's LLMs are
synchronous. An LLM that calls functions (``supports_function_calling()``) is offered a tool
whose parameters are the hook's JSON schema (not forced: ``call`` takes no tool choice, so a
JSON text answers a ``prompt`` hook too), and runs an ``agent`` hook's tools in a short loop
(:func:`hookwire.plugins._hookmodel.converse`). One that only writes text answers a
``prompt`` hook with a JSON object, the schema stated in the system message; it cannot run an
``agent`` hook, which then fails to start, naming why.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Sequence
from typing import Any

from crewai.llms.base_llm import BaseLLM
from crewai.utilities.agent_utils import extract_tool_call_info, is_tool_call_list
from crewai.utilities.string_utils import sanitize_tool_name

from hookwire.errors import HostPartMissing
from hookwire.hostparts import ModelAsk, ModelReply
from hookwire.plugins._hookmodel import ToolCall, Turn, converse, offered
from hookwire.wire import json_object


class CrewAiModel:
    """``llm`` (a CrewAI ``BaseLLM``) as a :class:`~hookwire.hostparts.HostModel`."""

    def __init__(self, llm: BaseLLM) -> None:
        self.llm = llm

    @property
    def name(self) -> str:
        named = getattr(self.llm, "model", None)
        return named if isinstance(named, str) and named else type(self.llm).__name__

    async def ask(self, ask: ModelAsk) -> ModelReply:
        import anyio.to_thread

        messages: list[Any] = [{"role": m.role, "content": m.text} for m in ask.messages]
        if not _calls_functions(self.llm):
            if ask.output_tool:
                raise HostPartMissing(f"the CrewAI LLM {self.name} cannot call tools "
                                      "(supports_function_calling() is false): an agent hook "
                                      "needs one that can")
            system = (f"{ask.system}\n\nAnswer with a JSON object, and nothing else, that "
                      f"matches this JSON schema: {json.dumps(dict(ask.schema))}")
            text = await anyio.to_thread.run_sync(functools.partial(
                self.llm.call, [{"role": "system", "content": system}, *messages]))
            text = text if isinstance(text, str) else None
            return ModelReply(output=json_object(text), text=text, model=self.name)
        tools: list[Any] = [{"type": "function", "function": {
            "name": name, "description": description, "parameters": dict(schema)}}
            for name, description, schema in offered(ask)]
        names = {sanitize_tool_name(name): name for name, _, _ in offered(ask)}
        messages.insert(0, {"role": "system", "content": ask.system})

        async def send(results: Sequence[tuple[ToolCall, str]]) -> Turn:
            messages.extend({"role": "tool", "tool_call_id": call.id, "name": call.name,
                             "content": text} for call, text in results)
            reply = await anyio.to_thread.run_sync(functools.partial(
                self.llm.call, list(messages), tools=tools))
            if not (isinstance(reply, list) and is_tool_call_list(reply)):
                return Turn(text=reply if isinstance(reply, str) else None)
            calls = tuple(_call(info, names) for info in map(extract_tool_call_info, reply)
                          if info is not None)
            messages.append({"role": "assistant", "content": None, "tool_calls": [
                {"id": c.id, "type": "function", "function": {
                    "name": c.name, "arguments": json.dumps(c.args)}} for c in calls]})
            return Turn(calls=calls)

        return await converse(ask, send, model=self.name)


def _calls_functions(llm: Any) -> bool:
    """Whether ``llm`` makes native function calls (as CrewAI asks it)."""
    supports = getattr(llm, "supports_function_calling", None)
    return bool(callable(supports) and supports())


def _call(info: tuple[str, str, Any], names: dict[str, str]) -> ToolCall:
    """A tool call as CrewAI reads it (its name sanitized: ours again)."""
    call_id, name, args = info
    if isinstance(args, str):
        args = json_object(args) or {}
    return ToolCall(id=str(call_id), name=names.get(name, name), args=dict(args or {}))


__all__ = ["CrewAiModel"]
