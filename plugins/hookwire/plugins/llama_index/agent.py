"""LlamaIndex agent workflows with hooks: every seam an agent workflow has, applied its way
(the seam-by-seam table is in docs/hosts/llama-index.md). Tool calls meet the hooks in a
wrapper of each tool; the workflow memory's read before each model call
(:class:`HookedMemory`) is the model seam. Hook texts for the model are messages put into that
memory (``system``, or ``user`` where the harness sends a user message), in each dialect's
harness wording. The session lives on a helper thread, so runs on different event loops share
it.
"""

from __future__ import annotations

import itertools
from typing import Any

from llama_index.core.llms import ChatMessage
from llama_index.core.memory import ChatMemoryBuffer
from llama_index.core.memory.types import BaseMemory
from llama_index.core.tools import AsyncBaseTool, ToolOutput, adapt_to_async_tool
from llama_index.core.workflow import Context
from pydantic import PrivateAttr

from hookwire.driver import Action, HostAdapter, place
from hookwire.plugins.llama_index.model import lent
from hookwire.plugins.llama_index.profile import PROFILE
from hookwire.render import ModelText


class Hookwire(HostAdapter):
    """Runs hookwire's hooks and plugins at a LlamaIndex agent workflow's seams:
    ``await hooks.run(agent, "prompt")`` in place of ``await agent.run("prompt")`` (a
    ``FunctionAgent``, ``ReActAgent`` or ``AgentWorkflow``; the same keyword arguments)."""

    def __init__(self, kernel: Any, *, max_stop_blocks: int | None = 8, neutral: bool = False,
                 **session_fields: Any) -> None:
        super().__init__(kernel, host=PROFILE, max_stop_blocks=max_stop_blocks, neutral=neutral,
                         **session_fields)
        self._ids = itertools.count(1)

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
        self.driver.lend(model=lent(agent))  # prompt and agent hooks ask the agent's LLM
        run = self.driver.begin(user_msg, agent_type=getattr(agent, "name", None) or "agent")
        if ctx is not None:
            kwargs["ctx"] = ctx
        hooked = HookedMemory(inner=memory or ChatMemoryBuffer.from_defaults())

        return await self.turn(run, lambda m: agent.run(m, memory=hooked, **kwargs), user_msg,
                               answer=_answer,
                               again=lambda _, texts: "\n\n".join(t.text for t in texts))


def _answer(output: Any) -> str | None:
    """An ``AgentOutput``'s text (``None``: none)."""
    return output.response.content if hasattr(output, "response") else str(output)


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
        current = Hookwire.running_now()
        if current is not None:
            hw, run = current
            texts = await hw.acall(run.before_model)
            if texts:
                await self._place(texts)
        return list(await self.inner.aget(input=input, **kwargs))

    async def _place(self, texts: list[ModelText]) -> None:
        messages = list(await self.inner.aget_all())
        place(messages, texts, _message, lambda m: m.role == "user")
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
        current = Hookwire.running_now()
        if current is None or args:
            return await self.tool.acall(*args, **kwargs)
        hw, run = current
        name, call_id = self.metadata.get_name(), f"llamaindex-{next(hw._ids)}"
        go = await hw.acall(run.gate, name, kwargs, call_id)
        if go.action is not Action.RUN:
            text = go.text or "denied by a hook"
            return ToolOutput(tool_name=name, content=text, raw_input=kwargs, raw_output=text,
                              is_error=True)
        output, sent = await hw.run_tool(
            run, name, go.input, call_id, lambda: self.tool.acall(**go.input),
            failed=lambda o: o.content if o.is_error else None, content=lambda o: o.content)
        if sent is output.content:
            return output
        return ToolOutput(tool_name=name, content=str(sent), raw_input=go.input,
                          raw_output=sent)


def _message(text: ModelText) -> ChatMessage:
    return ChatMessage(role="user" if text.role == "user" else "system", content=text.text)


__all__ = ["HookedMemory", "Hookwire"]
