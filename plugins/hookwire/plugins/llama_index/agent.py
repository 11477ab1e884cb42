"""LlamaIndex agent workflows with hooks: every seam an agent workflow has, applied its way.

=====================  ==========================================================================
hookwire seam          LlamaIndex seam (how the verdict is applied)
=====================  ==========================================================================
session_start / end    the runner's lifetime (``async with`` / :meth:`Hookwire.close`)
prompt_submit          the workflow's memory read before its first model call
                       (:class:`HookedMemory`, public ``BaseMemory``); blocked →
                       :class:`PromptBlocked`; contexts → system messages of the memory
tool_pre / approve     each tool of the agent (and of every agent of an ``AgentWorkflow``) is a
                       wrapper: deny → an error ``ToolOutput`` with the hook's text; ask → the
                       kernel's ``approve`` seam, no answer refuses; rewritten input → the tool
                       runs with it
tool_post / failure    the same wrapper: a replaced result is the ``ToolOutput``; an exception
                       is a failure (then raised as LlamaIndex expects)
tool_batch             the memory read before the next model call: blocked →
                       :class:`ToolBatchBlocked`
stop                   after the workflow's ``AgentOutput``: continue → the workflow runs again
                       on the same memory, with the feedback as the next user message
subagent_start / stop  :meth:`Hookwire.run` called inside a guarded tool: same session and turn
halt                   :class:`RunHalted` at the next model call
=====================  ==========================================================================

Hook texts for the model are messages put into the workflow's memory before the model call
(``system``, or ``user`` where the harness sends a user message), in each dialect's harness
wording. The session lives on a helper thread (:class:`~hookwire.driver.BlockingDriver`), so
runs on different event loops share it.
"""

from __future__ import annotations

import contextvars
import itertools
from collections.abc import Sequence
from typing import Any

from llama_index.core.llms import ChatMessage
from llama_index.core.memory import ChatMemoryBuffer
from llama_index.core.memory.types import BaseMemory
from llama_index.core.tools import AsyncBaseTool, ToolOutput, adapt_to_async_tool
from llama_index.core.workflow import Context
from pydantic import PrivateAttr

from hookwire.driver import Action, BlockingDriver, HostDriver, HostRun
from hookwire.errors import HookwireError
from hookwire.plugins.llama_index.profile import PROFILE
from hookwire.render import ModelText, Placement

_RUN: contextvars.ContextVar[tuple[Hookwire, HostRun] | None] = contextvars.ContextVar(
    "hookwire_llama_index_run", default=None)


class Hookwire:
    """Runs hookwire's hooks and plugins at a LlamaIndex agent workflow's seams:
    ``await hooks.run(agent, "prompt")`` in place of ``await agent.run("prompt")`` (a
    ``FunctionAgent``, ``ReActAgent`` or ``AgentWorkflow``; the same keyword arguments).
    ``problems``: why configured hooks cannot run here (each also logged)."""

    def __init__(self, kernel: Any, *, max_stop_blocks: int | None = 8, neutral: bool = False,
                 **session_fields: Any) -> None:
        self.driver = HostDriver(kernel, host=PROFILE, max_stop_blocks=max_stop_blocks,
                                 neutral=neutral, **session_fields)
        self._blocking = BlockingDriver(self.driver)
        self._ids = itertools.count(1)

    @property
    def problems(self) -> tuple[Any, ...]:
        return self.driver.problems

    def close(self, reason: str = "other") -> None:
        """``session_end``, and the helper thread stops."""
        self._blocking.close(reason)

    async def __aenter__(self) -> Hookwire:
        return self

    async def __aexit__(self, *exc: object) -> None:
        import anyio.to_thread

        await anyio.to_thread.run_sync(self.close)

    def __enter__(self) -> Hookwire:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def instrument(self, agent: Any) -> Any:
        """Wrap the tools of ``agent`` (of each agent of an ``AgentWorkflow``) in place: they
        run the tool hooks during :meth:`run`, and behave as before outside it."""
        for each in (getattr(agent, "agents", None) or {}).values() or [agent]:
            tools = [t if isinstance(t, _HookedTool) else _HookedTool(self, t)
                     for t in each.tools or []]
            each.tools = tools
            self.driver.declare_tools([t.metadata.get_name() for t in tools])
        return agent

    async def run(self, agent: Any, user_msg: str, *, ctx: Context | None = None,
                  memory: BaseMemory | None = None, **kwargs: Any) -> Any:
        """One user turn of ``agent`` (Stop continuations included): its ``AgentOutput``."""
        self.instrument(agent)
        run = self.driver.begin(user_msg, agent_type=getattr(agent, "name", None) or "agent")
        await self._blocking.acall(run.open)
        if ctx is not None:
            kwargs["ctx"] = ctx
        hooked = HookedMemory(inner=memory or ChatMemoryBuffer.from_defaults())
        token = _RUN.set((self, run))
        try:
            while True:
                try:
                    output = await agent.run(user_msg, memory=hooked, **kwargs)
                except Exception as exc:
                    raise _cause(exc) from None
                text = output.response.content if hasattr(output, "response") else str(output)
                feedback = await self._blocking.acall(run.stop, text)
                if feedback is None:
                    return output
                user_msg = "\n\n".join(t.text for t in feedback)
        finally:
            _RUN.reset(token)
            await self._blocking.acall(run.close)


class HookedMemory(BaseMemory):
    """A workflow memory whose every read is the moment before a model call: the hooks'
    ``prompt_submit`` (the first), ``tool_batch`` and queued texts happen there. Delegates
    storage to ``inner``."""

    inner: Any
    _placed: int = PrivateAttr(default=0)

    @classmethod
    def class_name(cls) -> str:
        return "HookedMemory"

    @classmethod
    def from_defaults(cls, **kwargs: Any) -> HookedMemory:
        return cls(inner=ChatMemoryBuffer.from_defaults(**kwargs))

    async def aget(self, input: str | None = None, **kwargs: Any) -> list[ChatMessage]:
        current = _RUN.get()
        if current is not None:
            hw, run = current
            texts = await hw._blocking.acall(run.before_model)
            if texts:
                await self._place(texts)
        return list(await self.inner.aget(input=input, **kwargs))

    async def _place(self, texts: list[ModelText]) -> None:
        messages = list(await self.inner.aget_all())
        before = [_message(t) for t in texts if t.placement is Placement.BEFORE_PROMPT]
        if before:
            at = next((i for i in range(len(messages) - 1, -1, -1)
                       if messages[i].role == "user"), len(messages))
            messages[at:at] = before
        messages += [_message(t) for t in texts if t.placement is not Placement.BEFORE_PROMPT]
        await self.inner.aset(messages)

    def get(self, input: str | None = None, **kwargs: Any) -> list[ChatMessage]:
        return list(self.inner.get(input=input, **kwargs))

    def get_all(self) -> list[ChatMessage]:
        return list(self.inner.get_all())

    async def aget_all(self) -> list[ChatMessage]:
        return list(await self.inner.aget_all())

    def put(self, message: ChatMessage) -> None:
        self.inner.put(message)

    async def aput(self, message: ChatMessage) -> None:
        await self.inner.aput(message)

    def set(self, messages: list[ChatMessage]) -> None:
        self.inner.set(messages)

    async def aset(self, messages: list[ChatMessage]) -> None:
        await self.inner.aset(messages)

    def reset(self) -> None:
        self.inner.reset()


class _HookedTool(AsyncBaseTool):
    """A tool of the agent that runs the tool hooks around the tool."""

    def __init__(self, hw: Hookwire, tool: Any) -> None:
        self.hw = hw
        self.tool = adapt_to_async_tool(tool)

    @property
    def metadata(self) -> Any:
        return self.tool.metadata

    def call(self, *args: Any, **kwargs: Any) -> ToolOutput:
        return self.tool.call(*args, **kwargs)

    async def acall(self, *args: Any, **kwargs: Any) -> ToolOutput:
        current = _RUN.get()
        if current is None or args:
            return await self.tool.acall(*args, **kwargs)
        hw, run = current
        name, call_id = self.metadata.get_name(), f"llamaindex-{next(hw._ids)}"
        go = await hw._blocking.acall(run.tool_pre, name, kwargs, call_id)
        if go.action in (Action.ASK, Action.DEFER):
            go = await hw._blocking.acall(run.approve, name, go, call_id)
        if go.action is not Action.RUN:
            text = go.text or "denied by a hook"
            return ToolOutput(tool_name=name, content=text, raw_input=kwargs, raw_output=text,
                              is_error=True)
        try:
            with run.tool_running():  # a run started by the tool is nested in this one
                output = await self.tool.acall(**go.input)
        except Exception as exc:
            await hw._blocking.acall(run.tool_failed, name, go.input, call_id,
                                     str(exc) or repr(exc))
            raise
        if output.is_error:
            await hw._blocking.acall(run.tool_failed, name, go.input, call_id, output.content)
            return output
        sent = await hw._blocking.acall(run.tool_done, name, go.input, call_id, output.content)
        if sent is output.content:
            return output
        return ToolOutput(tool_name=name, content=str(sent), raw_input=go.input,
                          raw_output=sent)


def _message(text: ModelText) -> ChatMessage:
    return ChatMessage(role="user" if text.role == "user" else "system", content=text.text)


def _cause(exc: BaseException) -> BaseException:
    """hookwire's own exception if ``exc`` wraps one (a workflow re-raises a step's failure
    inside its own), else ``exc``."""
    seen: Sequence[BaseException] = []
    cause: BaseException | None = exc
    while cause is not None and cause not in seen:
        if isinstance(cause, HookwireError):
            return cause
        seen = [*seen, cause]
        cause = cause.__cause__ or cause.__context__
    return exc


__all__ = ["HookedMemory", "Hookwire"]
