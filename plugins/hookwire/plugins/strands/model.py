"""A Strands model lent to hookwire's hooks that ask a model (Claude Code's ``prompt`` and
``agent`` hooks; :class:`hookwire.hostparts.HostModel`).

Each question is an invocation of a fresh Strands ``Agent`` on the model, carrying none of
hookwire's hooks: the hook's tools and an answer tool whose input schema is the hook's JSON
schema are Strands tools; a call of the answer tool is the answer and ends the invocation once
the tools of its turn have run (``Agent.cancel(after_current_tools=True)``), as does the
hook's turn limit. A ``prompt`` hook is offered the answer tool alone, and its plain text
answer is taken when it is a JSON object (Strands forces a tool only for its pydantic
structured output, which a JSON schema given at run time does not fit).
"""

from __future__ import annotations

import functools
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from strands import Agent
from strands.hooks import AfterModelCallEvent, HookProvider, HookRegistry
from strands.models import Model
from strands.tools.tools import PythonAgentTool
from strands.types.tools import ToolResult, ToolUse

from hookwire.hostparts import ModelAsk, ModelReply
from hookwire.plugins._hookmodel import answer_tool, offered, run_tool
from hookwire.plugins._mcp import on_loop
from hookwire.wire import json_object


class StrandsModel:
    """``model`` (a Strands ``Model``) as a :class:`~hookwire.hostparts.HostModel`."""

    def __init__(self, model: Model, *, loop: Any = None) -> None:
        self.model = model
        self.loop = loop  # the asyncio loop its client lives on (hooks may run on another)

    @property
    def name(self) -> str:
        config: Any = self.model.get_config()
        named = config.get("model_id") if isinstance(config, Mapping) else None
        return named if isinstance(named, str) and named else type(self.model).__name__

    async def ask(self, ask: ModelAsk) -> ModelReply:
        return await on_loop(self.loop, functools.partial(self._ask, ask))

    async def _ask(self, ask: ModelAsk) -> ModelReply:
        answers: list[dict[str, Any]] = []
        agents: list[Agent] = []

        async def give(args: dict[str, Any]) -> str:
            answers.append(args)
            agents[0].cancel(after_current_tools=True)
            return "Answer received."

        hook_tools = {t.name: t for t in ask.tools}
        tools: list[Any] = [
            _tool(name, description, schema, give if name == answer_tool(ask)
                  else functools.partial(_call, hook_tools, name))
            for name, description, schema in offered(ask)]
        *earlier, last = ask.messages
        agents.append(Agent(
            model=self.model, tools=tools, system_prompt=ask.system, callback_handler=None,
            messages=[{"role": "assistant" if m.role == "assistant" else "user",
                       "content": [{"text": m.text}]} for m in earlier],
            hooks=[_TurnLimit(max(ask.max_turns, 1))], name="hookwire-hook"))
        result = await agents[0].invoke_async(last.text)
        if answers:
            return ModelReply(output=answers[-1], model=self.name)
        text = "\n".join(b["text"] for b in result.message.get("content") or []
                         if isinstance(b.get("text"), str)) or None
        return ModelReply(output=None if ask.output_tool else json_object(text), text=text,
                          model=self.name)


async def _call(tools: Mapping[str, Any], name: str, args: dict[str, Any]) -> str:
    return await run_tool(tools.get(name), name, args)


def _tool(name: str, description: str, schema: Mapping[str, Any],
          run: Callable[[dict[str, Any]], Awaitable[str]]) -> PythonAgentTool:
    async def call(tool_use: ToolUse, **state: Any) -> ToolResult:
        text = await run(dict(tool_use.get("input") or {}))
        return {"toolUseId": tool_use["toolUseId"], "status": "success",
                "content": [{"text": text}]}

    return PythonAgentTool(name, {"name": name, "description": description,
                                  "inputSchema": {"json": dict(schema)}}, call)


class _TurnLimit(HookProvider):
    """Ends the invocation after ``turns`` model requests (their tools still run)."""

    def __init__(self, turns: int) -> None:
        self.turns = turns

    def register_hooks(self, registry: HookRegistry, **kwargs: Any) -> None:
        registry.add_callback(AfterModelCallEvent, self._counted)

    def _counted(self, event: AfterModelCallEvent) -> None:
        self.turns -= 1
        if self.turns <= 0:
            event.agent.cancel(after_current_tools=True)
