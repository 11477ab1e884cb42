"""The Strands Agents hook provider: every seam Strands has, applied the way Strands applies it
(the seam-by-seam table is in docs/hosts/strands.md).

Texts a hook adds for the model (contexts, feedback) are text blocks of the latest user-role
message before the next model call (Strands has no system messages in its history): in each
dialect's harness wording, which says it is a hook's, or the neutral labelled form. Strands
runs each synchronous invocation on an event loop of its own, so the session lives on a helper
thread.
"""

from __future__ import annotations

import weakref
from collections.abc import Mapping
from typing import Any

from strands import Agent
from strands.hooks import (
    AfterInvocationEvent,
    AfterModelCallEvent,
    AfterToolCallEvent,
    BeforeInvocationEvent,
    BeforeModelCallEvent,
    BeforeToolCallEvent,
    HookProvider,
    HookRegistry,
)
from strands.types.content import ContentBlock

from hookwire.driver import Action, HostAdapter
from hookwire.plugins._mcp import running_loop
from hookwire.plugins._schema import schema_error
from hookwire.plugins.strands.model import StrandsModel
from hookwire.plugins.strands.profile import PROFILE
from hookwire.render import ModelText, Placement


class HookwireHooks(HostAdapter, HookProvider):
    """Runs hookwire's hooks and plugins at a Strands agent's seams:
    ``Agent(model, tools=[...], hooks=[HookwireHooks(kernel, cwd=project)])``. One session
    for every agent given this provider, until :meth:`close`."""

    def __init__(self, kernel: Any, *, max_stop_blocks: int | None = 8, neutral: bool = False,
                 **session_fields: Any) -> None:
        super().__init__(kernel, host=PROFILE, max_stop_blocks=max_stop_blocks, neutral=neutral,
                         **session_fields)
        self._continuing: set[int] = set()  # agents resumed by a stop continuation
        self._registries: weakref.WeakSet[HookRegistry] = weakref.WeakSet()

    def register_hooks(self, registry: HookRegistry, **kwargs: Any) -> None:
        self._registries.add(registry)
        registry.add_callback(BeforeInvocationEvent, self._invocation)
        registry.add_callback(BeforeModelCallEvent, self._before_model)
        registry.add_callback(AfterModelCallEvent, self._after_model)
        registry.add_callback(BeforeToolCallEvent, self._before_tool)
        registry.add_callback(AfterToolCallEvent, self._after_tool)
        registry.add_callback(AfterInvocationEvent, self._after_invocation)

    # -- invocations ---------------------------------------------------------------------------

    async def _invocation(self, event: BeforeInvocationEvent) -> None:
        key = id(event.agent)
        self.driver.declare_tools(list(event.agent.tool_names))
        self.driver.lend(model=StrandsModel(event.agent.model, loop=running_loop()))
        if key in self._continuing:
            self._continuing.discard(key)
            return
        run = self.driver.begin(_prompt(event.messages), agent_type=event.agent.name or "agent")
        self.runs[key] = run
        await self.acall(run.open)

    async def _before_model(self, event: BeforeModelCallEvent) -> None:
        run = self.runs.get(id(event.agent))
        if run is not None:
            _place(event.agent.messages, await self.acall(run.before_model))

    async def _after_model(self, event: AfterModelCallEvent) -> None:
        run = self.runs.get(id(event.agent))
        if run is None:
            return
        if event.stop_response is not None:
            message = event.stop_response.message
            run.model_answered(_text(message), [b["toolUse"]["toolUseId"] for b in
                                                message.get("content") or [] if "toolUse" in b])
        elif event.exception is not None:
            await self.acall(run.model_failed, event.exception)

    async def _after_invocation(self, event: AfterInvocationEvent) -> None:
        key = id(event.agent)
        run = self.runs.get(key)
        if run is None:
            return
        if event.result is None or event.result.stop_reason == "interrupt":
            self.runs.pop(key, None)  # failed, or paused: no stop
            return
        feedback = await self.acall(run.stop, _text(event.result.message))
        if feedback is None:
            self.runs.pop(key, None)
            await self.acall(run.close)
            return
        self._continuing.add(key)
        event.resume = [ContentBlock(text=t.text) for t in feedback]

    # -- tools ---------------------------------------------------------------------------------

    async def _before_tool(self, event: BeforeToolCallEvent) -> None:
        run = await self.guarded(id(event.agent))  # runs keyed by id(agent)
        use = event.tool_use
        name, call_id = use["name"], use["toolUseId"]
        args = dict(use.get("input") or {})
        spec: Any = getattr(event.selected_tool, "tool_spec", None) or {}
        go = await self.acall(run.gate, name, args, call_id, check=lambda i: schema_error(
            (spec.get("inputSchema") or {}).get("json"), i))
        if go.action is not Action.RUN:
            event.cancel_tool = go.text or "denied by a hook"
            return
        if go.rewritten:
            event.tool_use["input"] = go.input
        inner = getattr(event.selected_tool, "agent", None)  # ``agent.as_tool()``
        if isinstance(inner, Agent) and inner.hooks not in self._registries:
            inner.hooks.add_hook(self)  # a sub-agent given no adapter runs under this one
        run.tool_started(call_id)  # the tool runs in this task (or a copy of its context)

    async def _after_tool(self, event: AfterToolCallEvent) -> None:
        run = self.runs.get(id(event.agent))
        call_id = event.tool_use["toolUseId"]
        if run is None or not run.tool_ended(call_id):
            return  # not ours, or refused (the refusal is its result)
        name, args = event.tool_use["name"], dict(event.tool_use.get("input") or {})
        result = event.result
        text = _result_text(result)
        if event.exception is not None or result.get("status") == "error":
            error = str(event.exception) if event.exception is not None else text
            await self.acall(run.tool_failed, name, args, call_id, error)
            return
        sent = await self.acall(run.tool_done, name, args, call_id, text)
        if sent is not text:
            event.result = {**result, "content": [{"text": str(sent)}]}


def _place(messages: list[Any], texts: list[ModelText]) -> None:
    """Hook texts into the latest user-role message (before its text where the harness puts
    them before the prompt)."""
    if not texts:
        return
    if not messages or messages[-1].get("role") != "user":
        messages.append({"role": "user", "content": []})
    content = messages[-1]["content"]
    content[:0] = [{"text": t.text} for t in texts if t.placement is Placement.BEFORE_PROMPT]
    content.extend({"text": t.text} for t in texts if t.placement is not Placement.BEFORE_PROMPT)


def _prompt(messages: Any) -> str:
    for message in reversed(messages or []):
        if isinstance(message, Mapping) and message.get("role") == "user":
            return _text(message) or ""
    return ""


def _text(message: Any) -> str | None:
    if not isinstance(message, Mapping):
        return None
    parts = [b["text"] for b in message.get("content") or [] if isinstance(b, Mapping)
             and isinstance(b.get("text"), str)]
    return "\n".join(parts) if parts else None


def _result_text(result: Mapping[str, Any]) -> str:
    return "\n".join(str(b.get("text", b.get("json", ""))) for b in result.get("content") or [])


__all__ = ["HookwireHooks"]
