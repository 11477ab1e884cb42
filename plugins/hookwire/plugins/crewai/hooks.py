"""CrewAI interception hooks: every seam CrewAI has, applied the way CrewAI applies it (the
seam-by-seam table is in docs/hosts/crewai.md). Registered globally, they guard every agent and
crew of the process; a CrewAI execution ends with its final answer, so a Stop hook cannot send
the model back.

Hook texts for the model are messages appended to the executor's conversation before the next
model call (``system``, or ``user`` where the harness sends a user message), in each dialect's
harness wording. CrewAI's hooks are synchronous; the session lives on a helper thread.
"""

from __future__ import annotations

import itertools
import logging
import re
from typing import Any

from crewai.hooks.dispatch import HookAborted, InterceptionPoint, register, unregister
from crewai.llms.base_llm import BaseLLM

from hookwire.driver import (
    Action,
    HostAdapter,
    HostRun,
    PromptBlocked,
    RunHalted,
    ToolBatchBlocked,
    current_run,
)
from hookwire.errors import HookwireError
from hookwire.plugins.crewai.model import CrewAiModel
from hookwire.plugins.crewai.profile import PROFILE

log = logging.getLogger("hookwire.crewai")
#: How CrewAI reports a tool that raised (the model reads it as the tool's result).
_TOOL_ERROR = re.compile(r"I encountered an error while trying to use the tool\. "
                         r"This was the error: (?P<error>.*?)\.?\n", re.S)


class HookwireHooks(HostAdapter):
    """Runs hookwire's hooks and plugins at the seams of every CrewAI agent and crew in the
    process: ``with HookwireHooks(kernel, cwd=project): crew.kickoff()``."""

    def __init__(self, kernel: Any, *, max_stop_blocks: int | None = 8, neutral: bool = False,
                 **session_fields: Any) -> None:
        super().__init__(kernel, host=PROFILE, max_stop_blocks=max_stop_blocks, neutral=neutral,
                         **session_fields)
        self._runs: dict[int, HostRun] = {}  # id(crew or agent) → its run
        # id(tool input) → (call id, its run, the refusal)
        self._calls: dict[int, tuple[str, HostRun | None, str | None]] = {}
        self._ids = itertools.count(1)
        self._inner: dict[int, list[int]] = {}  # id(run) → owners of runs begun in its tools
        self._hooks = {
            InterceptionPoint.EXECUTION_START: self._start,
            InterceptionPoint.PRE_MODEL_CALL: self._before_model,
            InterceptionPoint.POST_MODEL_CALL: self._after_model,
            InterceptionPoint.PRE_TOOL_CALL: self._before_tool,
            InterceptionPoint.POST_TOOL_CALL: self._after_tool,
            InterceptionPoint.EXECUTION_END: self._end,
        }
        self.installed = False

    def install(self) -> HookwireHooks:
        """Register the hooks for every agent and crew of the process."""
        if not self.installed:
            for point, hook in self._hooks.items():
                register(point, hook)
            self.installed = True
        return self

    def close(self, reason: str = "other") -> None:
        """Unregister the hooks; ``session_end``."""
        if self.installed:
            for point, hook in self._hooks.items():
                unregister(point, hook)
            self.installed = False
        super().close(reason)

    def __enter__(self) -> HookwireHooks:
        return self.install()

    def _call(self, fn: Any, *args: Any, **kwargs: Any) -> Any:
        """A driver call; hookwire's stops become ``HookAborted``, which CrewAI propagates."""
        try:
            return self.call(fn, *args, **kwargs)
        except HookwireError as exc:
            raise _aborting(exc) from None

    # -- executions ----------------------------------------------------------------------------

    def _start(self, ctx: Any) -> None:
        owner = _owner(ctx)
        if owner is None:
            return
        agent = getattr(owner, "role", None) or "crew"
        self.driver.declare_tools([t.name for t in getattr(owner, "tools", None) or []])
        run = self.driver.begin("", agent_type=str(agent))
        self._runs[id(owner)] = run
        self._call(run.open)

    def _run(self, ctx: Any) -> HostRun | None:
        for owner in (ctx.crew, ctx.agent):
            if owner is not None and id(owner) in self._runs:
                return self._runs[id(owner)]
        outer, owner = current_run(self.driver), ctx.crew or ctx.agent
        if owner is None:
            return None
        # CrewAI fires no execution_start for an agent kicked off inside a tool (nor, in some
        # paths, for others): this is its start, so that its calls are still guarded
        run = self.driver.begin("", agent_type=str(getattr(owner, "role", None) or "crew"))
        self._runs[id(owner)] = run
        if outer is not None:
            self._inner.setdefault(id(outer), []).append(id(owner))
        self._call(run.open)
        return run

    def _end_inner(self, outer: HostRun) -> None:
        """The guarded tool that started inner executions returned: they are over."""
        for owner in self._inner.pop(id(outer), []):
            run = self._runs.pop(owner, None)
            if run is not None:
                try:
                    self._call(run.stop)
                finally:
                    self.call(run.close)

    def _before_model(self, ctx: Any) -> None:
        run = self._run(ctx)
        if run is None:
            return
        if isinstance(llm := getattr(ctx, "llm", None), BaseLLM):  # for prompt, agent hooks
            self.driver.lend(model=CrewAiModel(llm))
        prompt = next((m.get("content") for m in reversed(ctx.messages)
                       if m.get("role") == "user"), "")
        for text in self._call(run.before_model, str(prompt or "")):
            ctx.messages.append({"role": "user" if text.role == "user" else "system",
                                 "content": text.text})

    def _after_model(self, ctx: Any) -> None:
        run = self._run(ctx)
        if run is not None and isinstance(ctx.response, str):
            run.model_answered(ctx.response.split("Final Answer:")[-1].strip())

    def _end(self, ctx: Any) -> None:
        owner = _owner(ctx)
        run = self._runs.pop(id(owner), None) if owner is not None else None
        if run is None:
            return
        try:
            if ctx.status == "failed" and ctx.error is not None and not isinstance(
                    ctx.error, HookAborted):
                self.call(run.model_failed, ctx.error)
            elif ctx.status == "completed":
                self._call(run.stop, cannot="a CrewAI execution ends with its final answer")
        finally:
            self.call(run.close)

    # -- tools ---------------------------------------------------------------------------------

    def _before_tool(self, ctx: Any) -> None:
        try:
            self._check_tool(ctx)
        except HookAborted:
            raise
        except Exception as exc:  # CrewAI would swallow it and run the tool: refuse instead
            log.exception("hookwire could not check the CrewAI tool call %s", ctx.tool_name)
            text = f"hookwire could not check this tool call: {exc!r}"
            self._calls[id(ctx.tool_input)] = ("unchecked", None, text)
            raise HookAborted(text, source="hookwire") from exc

    def _check_tool(self, ctx: Any) -> None:
        run = self._run(ctx)
        if run is None:
            return
        call_id = f"crewai-{next(self._ids)}"
        name, args = ctx.tool_name, dict(ctx.tool_input)
        go = self._call(run.gate, name, args, call_id)
        if go.action is not Action.RUN:
            self._calls[id(ctx.tool_input)] = (call_id, None, go.text or "denied by a hook")
            raise HookAborted(go.text or "denied by a hook", source="hookwire")
        if go.rewritten:
            ctx.tool_input.clear()
            ctx.tool_input.update(go.input)
        run.tool_started(call_id)  # the tool runs next, in this context: nested runs
        self._calls[id(ctx.tool_input)] = (call_id, run, None)

    def _after_tool(self, ctx: Any) -> str | None:
        call_id, started, refusal = self._calls.pop(id(ctx.tool_input), (None, None, None))
        if started is not None and call_id is not None:
            started.tool_ended(call_id)
        if refusal is not None:
            return refusal  # in place of "Tool execution blocked by hook"
        run = self._run(ctx)
        if run is None or call_id is None:
            return None
        self._end_inner(run)
        name, args, result = ctx.tool_name, dict(ctx.tool_input), ctx.tool_result
        failed = _TOOL_ERROR.search(str(result or ""))
        if failed is not None:
            self._call(run.tool_failed, name, args, call_id, failed.group("error"))
            return None
        sent = self._call(run.tool_done, name, args, call_id, result)
        return None if sent is result else str(sent)


def _owner(ctx: Any) -> Any:
    """The crew or agent an execution is of (an agent's own ``kickoff`` runs in a flow that
    holds it)."""
    return ctx.crew or ctx.agent or getattr(ctx.flow, "agent", None)


class _PromptBlocked(PromptBlocked, HookAborted):  # type: ignore[misc]  # reason: str | None
    """:class:`PromptBlocked`, raised as CrewAI's ``HookAborted`` so that CrewAI lets it out."""


class _RunHalted(RunHalted, HookAborted):  # type: ignore[misc]  # reason: str | None
    """:class:`RunHalted`, raised as CrewAI's ``HookAborted``."""


class _ToolBatchBlocked(ToolBatchBlocked, HookAborted):  # type: ignore[misc]  # reason: str | None
    """:class:`ToolBatchBlocked`, raised as CrewAI's ``HookAborted``."""


def _aborting(exc: HookwireError) -> BaseException:
    for base, cls in ((ToolBatchBlocked, _ToolBatchBlocked), (PromptBlocked, _PromptBlocked),
                      (RunHalted, _RunHalted)):
        if isinstance(exc, base):
            aborted: Any = cls.__new__(cls)
            aborted.__dict__.update(exc.__dict__)
            aborted.args = exc.args
            aborted.source = "hookwire"
            aborted.reason = aborted.reason or str(exc)  # CrewAI reads a text
            return aborted  # type: ignore[no-any-return]
    return exc


__all__ = ["HookwireHooks"]
