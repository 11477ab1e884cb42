"""The Google ADK runner plugin: every seam ADK has, applied the way ADK applies it (the
seam-by-seam table is in docs/hosts/google-adk.md).

ADK wraps an exception a plugin raises in a ``RuntimeError``; :meth:`HookwirePlugin.run_async`
and :meth:`HookwirePlugin.run` raise hookwire's own. Texts a hook adds for the model are
user-role contents of each later model request of that invocation, at the place they arose,
in each dialect's harness wording (which says it is a hook's) or the neutral labelled form.
ADK runs each ``runner.run`` on a loop of its own thread, so the session lives on a helper
thread.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Iterator
from typing import Any

from google.adk.plugins.base_plugin import BasePlugin
from google.genai import types

from hookwire.driver import Action, HostAdapter, HostRun, raise_own
from hookwire.plugins.google_adk.model import AdkModel
from hookwire.plugins.google_adk.profile import PROFILE
from hookwire.render import ModelText

log = logging.getLogger("hookwire.google_adk")


class HookwirePlugin(HostAdapter, BasePlugin):
    """Runs hookwire's hooks and plugins at every agent of an ADK runner:
    ``Runner(app=App(name=..., root_agent=agent, plugins=[HookwirePlugin(kernel, cwd=...)]))``.
    Use :meth:`run_async` / :meth:`run` in place of the runner's own so that a Stop hook can
    continue the turn."""

    def __init__(self, kernel: Any, *, max_stop_blocks: int | None = 8, neutral: bool = False,
                 name: str = "hookwire", **session_fields: Any) -> None:
        BasePlugin.__init__(self, name)
        HostAdapter.__init__(self, kernel, host=PROFILE, max_stop_blocks=max_stop_blocks,
                             neutral=neutral, **session_fields)
        self._continuing: dict[str, HostRun] = {}  # ADK session id → the turn going on
        self._feedback: dict[str, list[ModelText]] = {}  # ADK session id → stop feedback
        # ADK sessions whose turn run_async / run drive (runner.run works in a thread of its
        # own, so a context variable would not reach the callbacks)
        self._driven: set[str] = set()

    async def close(self) -> None:  # type: ignore[override]  # ADK's plugin API
        """ADK calls it when the runner closes: ``session_end``."""
        await asyncio.to_thread(self.shutdown)

    def shutdown(self, reason: str = "other") -> None:
        """``session_end`` without closing a runner."""
        HostAdapter.close(self, reason)

    def __exit__(self, *exc: object) -> None:
        self.shutdown()

    # -- driving a turn ------------------------------------------------------------------------

    async def run_async(self, runner: Any, *, user_id: str, session_id: str,
                        new_message: types.Content, **kwargs: Any) -> AsyncIterator[Any]:
        """``runner.run_async`` for one user turn, Stop continuations included."""
        self._driven.add(session_id)
        try:
            message: types.Content | None = new_message
            while message is not None:
                try:
                    async for event in runner.run_async(user_id=user_id, session_id=session_id,
                                                        new_message=message, **kwargs):
                        yield event
                except RuntimeError as exc:
                    raise_own(exc)  # ADK wraps what a plugin raises
                    raise
                message = self._continuation(session_id)
        finally:
            self._driven.discard(session_id)

    def run(self, runner: Any, *, user_id: str, session_id: str, new_message: types.Content,
            **kwargs: Any) -> Iterator[Any]:
        """``runner.run`` (blocking) for one user turn, Stop continuations included."""
        self._driven.add(session_id)
        try:
            message: types.Content | None = new_message
            while message is not None:
                try:
                    yield from runner.run(user_id=user_id, session_id=session_id,
                                          new_message=message, **kwargs)
                except RuntimeError as exc:
                    raise_own(exc)  # ADK wraps what a plugin raises
                    raise
                message = self._continuation(session_id)
        finally:
            self._driven.discard(session_id)

    def _continuation(self, session_id: str) -> types.Content | None:
        """The next user message of a turn a Stop hook continues (``None``: it ended)."""
        texts = self._feedback.pop(session_id, None)
        if texts is None:
            return None
        return types.Content(role="user", parts=[types.Part(text=t.text) for t in texts])

    # -- runs ----------------------------------------------------------------------------------

    async def before_run_callback(self, *, invocation_context: Any) -> None:
        ic = invocation_context
        self.driver.declare_tools([n for t in ic.agent.tools if (n := _tool_name(t))])
        model = getattr(ic.agent, "canonical_model", None)  # prompt and agent hooks ask it
        if model is not None:
            self.driver.lend(model=AdkModel(model, loop=asyncio.get_running_loop()))
        run = self._continuing.pop(ic.session.id, None)
        if run is None:
            run = self.driver.begin(_text(ic.user_content) or "", agent_type=ic.agent.name)
            await self.acall(run.open)
        self.runs[ic.invocation_id] = run  # runs keyed by invocation id

    async def before_model_callback(self, *, callback_context: Any, llm_request: Any) -> None:
        run = self.runs.get(callback_context.invocation_id)
        if run is not None:
            await self.before_request(run, llm_request.contents, _content,
                                      lambda c: c.role == "user")

    async def after_model_callback(self, *, callback_context: Any, llm_response: Any) -> None:
        run = self.runs.get(callback_context.invocation_id)
        if run is not None and not llm_response.partial:
            parts = getattr(llm_response.content, "parts", None) or []
            run.model_answered(_text(llm_response.content), [
                p.function_call.id for p in parts if p.function_call and p.function_call.id])

    async def on_model_error_callback(self, *, callback_context: Any, llm_request: Any,
                                      error: Exception) -> None:
        run = self.runs.get(callback_context.invocation_id)
        if run is not None:
            await self.acall(run.model_failed, error)

    async def after_run_callback(self, *, invocation_context: Any) -> None:
        ic = invocation_context
        run = self.runs.pop(ic.invocation_id, None)
        if run is None:
            return
        texts = await self.acall(run.stop)
        if texts is not None and not run.nested and ic.session.id in self._driven:
            self._continuing[ic.session.id] = run
            self._feedback[ic.session.id] = texts
            return
        if texts is not None:
            log.warning("a stop hook asked to continue the turn; run it with "
                        "HookwirePlugin.run_async() or .run() to let it")
        await self.acall(run.close)

    async def on_run_error_callback(self, *, invocation_context: Any,
                                    error: Exception) -> None:
        run = self.runs.pop(invocation_context.invocation_id, None)
        if run is not None:
            await self.acall(run.close)

    # -- tools ---------------------------------------------------------------------------------

    async def before_tool_callback(self, *, tool: Any, tool_args: dict[str, Any],
                                   tool_context: Any) -> dict[str, Any] | None:
        run = await self.guarded(tool_context.invocation_id)
        call_id = tool_context.function_call_id
        go = await self.acall(run.gate, tool.name, dict(tool_args), call_id,
                              check=lambda i: _invalid(tool, i))
        if go.action is not Action.RUN:
            return {"error": go.text or "denied by a hook"}
        if go.rewritten:
            tool_args.clear()
            tool_args.update(go.input)
        run.tool_started(call_id)  # the tool runs next, in this task: an agent run it starts
        return None                # is nested in this one

    def _ran(self, tool_context: Any) -> HostRun | None:
        run = self.runs.get(tool_context.invocation_id)
        return run if run and run.tool_ended(tool_context.function_call_id) else None

    async def after_tool_callback(self, *, tool: Any, tool_args: dict[str, Any],
                                  tool_context: Any, result: Any) -> dict[str, Any] | None:
        run = self._ran(tool_context)
        if run is None:
            return None
        sent = await self.acall(run.tool_done, tool.name, dict(tool_args),
                                tool_context.function_call_id, result)
        if sent is result:
            return None
        return sent if isinstance(sent, dict) else {"result": sent}

    async def on_tool_error_callback(self, *, tool: Any, tool_args: dict[str, Any],
                                     tool_context: Any, error: Exception) -> None:
        run = self._ran(tool_context)
        if run is not None and not isinstance(error, asyncio.CancelledError):
            await self.acall(run.tool_failed, tool.name, dict(tool_args),
                             tool_context.function_call_id, str(error) or repr(error))


def _content(text: ModelText) -> types.Content:
    return types.Content(role="user", parts=[types.Part(text=text.text)])


def _tool_name(tool: Any) -> str | None:
    name = getattr(tool, "name", None) or getattr(tool, "__name__", None)
    return name if isinstance(name, str) else None


def _text(content: Any) -> str | None:
    parts = getattr(content, "parts", None) or []
    texts = [p.text for p in parts if getattr(p, "text", None) and not getattr(p, "thought", None)]
    return "\n".join(texts) if texts else None


def _invalid(tool: Any, value: dict[str, Any]) -> str | None:
    """Why ``value`` does not fit the tool's declared parameters (``None``: it does, or the
    tool declares none)."""
    declaration = tool._get_declaration() if hasattr(tool, "_get_declaration") else None
    schema = getattr(declaration, "parameters", None)
    if schema is None:
        return None
    missing = [n for n in (schema.required or []) if n not in value]
    unknown = [n for n in value if n not in (schema.properties or {})]
    if missing:
        return f"missing argument(s): {', '.join(missing)}"
    if unknown:
        return f"unknown argument(s): {', '.join(unknown)}"
    return None


__all__ = ["HookwirePlugin"]
