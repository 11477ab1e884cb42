"""One agent run of a host driver (:class:`hookwire.driver.HostRun`, documented there)."""

from __future__ import annotations

import contextlib
import itertools
import logging
from collections.abc import Iterator, Mapping, Sequence
from contextvars import ContextVar
from typing import TYPE_CHECKING, Any

import attrs

from hookwire._hostask import Approvals
from hookwire._hosttypes import (
    Action,
    Anchored,
    PromptBlocked,
    RunHalted,
    ToolBatchBlocked,
    ToolGo,
    error_kind,
    json_value,
)
from hookwire.render import (
    ModelText,
    Placement,
    first_text,
    no_approval_surface,
    texts_but,
    tool_result,
)
from hookwire.session import Session
from hookwire.verdicts import Decision, Verdict

if TYPE_CHECKING:
    from hookwire._hostdriver import HostDriver

log = logging.getLogger("hookwire.driver")


#: Tool calls running in this context: ``(driver, run)`` pairs, innermost last. A ContextVar
#: follows ``await``, child tasks and the context copies runtimes make for worker threads, so
#: an agent run started from inside a tool can tell that it is nested.
_RUNNING: ContextVar[tuple[tuple[HostDriver, HostRun], ...]] = ContextVar(
    "hookwire_running_tools", default=())


def current_run(driver: HostDriver | None = None) -> HostRun | None:
    """The run whose tool call is executing in this context (of ``driver``; ``None``: of any
    driver): a runtime-wide adapter guards an agent started there with that run's hooks."""
    for owner, run in reversed(_RUNNING.get()):
        if driver is None or owner is driver:
            return run
    return None


class HostRun(Approvals):
    """One agent run of a :class:`HostDriver` (a stop continuation stays in the same run)."""

    def __init__(self, driver: HostDriver, prompt: str, *, outer: HostRun | None,
                 resumed: bool, agent_type: str, agent_id: str) -> None:
        self.driver = driver
        self.prompt = prompt
        self.outer = outer
        self.nested = outer is not None
        self.resumed = resumed
        self.agent_type, self.agent_id = agent_type, agent_id
        self.pending: list[ModelText] = []  # for the next model request, in order
        self.last_text: str | None = None  # the latest model response's text
        self.tool_error: BaseException | None = None  # what a guarded tool raised last
        self.ended = False  # a tool_batch hook ended it (ToolBatchBlocked): no stop
        self.anchored = Anchored()  # its texts in a runtime's rebuilt requests (running())
        self.session: Session | None = outer.session if outer is not None else None
        self.origin: Any = outer.origin if outer is not None else None
        self._own_session = False
        self._stack: contextlib.AsyncExitStack | None = None
        self._pre_texts: dict[str, list[ModelText]] = {}
        self._batch: list[tuple[int, dict[str, Any]]] = []
        self._order: dict[str, int] = {}
        self._calls = itertools.count()
        self._inputs: dict[str, tuple[str, dict[str, Any]]] = {}  # call id → name, input
        self._running: dict[str, contextlib.AbstractContextManager[None]] = {}

    # -- lifecycle -----------------------------------------------------------------------------

    async def open(self) -> None:
        """Start the run: the session (and ``session_start``) if none is open, the turn, or,
        nested, ``subagent_start`` (its contexts go to this run's first request)."""
        driver = self.driver
        if self.nested:
            assert self.session is not None
            verdict = await self.session.subagent_start(self.agent_id, self.agent_type)
            self._raise_halt(verdict)
            self.pending += texts_but(driver.render(verdict), Placement.RESULT)
            return
        if driver.session is None:
            if driver.session_per_run:
                self._stack = contextlib.AsyncExitStack()
                session = await self._stack.enter_async_context(driver.new_session())
                self._own_session = True
                try:
                    await driver.start(session)
                except BaseException:
                    await self.close()
                    raise
            else:
                await driver.start()
        self.session = driver.session
        assert self.session is not None
        if not self.resumed:
            with self.session.turn() as origin:  # the token outlives the block: we hold it
                self.origin = origin

    async def close(self, reason: str = "other") -> None:
        """End the run: a session it opened ends here."""
        if self._own_session:
            self._own_session = False
            try:
                await self.driver.close(reason)
            finally:
                if self._stack is not None:
                    await self._stack.aclose()

    def _session(self) -> Session:
        if self.session is None:
            raise RuntimeError("hookwire run used before open() or after close()")
        return self.session

    @staticmethod
    def _raise_halt(verdict: Verdict) -> None:
        if verdict.halt is not None:
            raise RunHalted(verdict.halt)

    def check_halt(self) -> None:
        """Raise :class:`RunHalted` if a hook halted the session (sticky until it ends)."""
        session = self._session()
        if session.halted is not None:
            raise RunHalted(session.halted)

    # -- model requests ------------------------------------------------------------------------

    async def before_model(self, prompt: str | None = None) -> list[ModelText]:
        """Before each model request: the texts to add to it, in order (``BEFORE_PROMPT``
        ones go before the user's prompt). The turn's first request fires ``prompt_submit``
        (blocked: :class:`PromptBlocked`); one after tool calls fires ``tool_batch``."""
        session = self._session()
        self.check_halt()
        texts: list[ModelText] = []
        origin = self.origin
        if not self.nested and origin is not None and not origin.consumed:
            text = self.prompt if prompt is None else prompt
            verdict = await session.prompt_submit(text, origin=origin)
            self._raise_halt(verdict)
            rendered = self.driver.render(verdict, prompt=text)
            if verdict.denied:
                raise PromptBlocked(verdict.reason, verdict,
                                    first_text(rendered, Placement.RESULT))
            texts += [*self.driver.carry, *texts_but(rendered, Placement.RESULT)]
            self.driver.carry.clear()
        texts += self.take()
        if self._batch:
            texts += await self._tool_batch()
        return texts

    def take(self) -> list[ModelText]:
        """The texts queued for the model so far (an adapter that can place them right away,
        after a tool's result, takes them there); the queue is emptied."""
        texts, self.pending = self.pending, []
        return texts

    def model_answered(self, text: str | None, calls: Sequence[str] = ()) -> None:
        """The latest model response: its text (for ``stop`` and ``stop_failure``) and the ids
        of the tool calls it made, in order (``tool_batch`` lists them so, however the
        runtime schedules them)."""
        if text:
            self.last_text = text
        for call_id in calls:
            self._order[call_id] = next(self._calls)

    async def model_failed(self, error: str | BaseException, details: str | None = None) -> None:
        """A model request failed for good (after the runtime's retries): ``stop_failure``
        with Claude Code's error kind (:func:`status_error_kind`), or the exception it raised
        (its kind by :func:`error_kind`, its text the details)."""
        if self.nested or self.session is None or error is self.tool_error:
            return  # a tool's exception (an inner agent's failed request) is not this run's
        if isinstance(error, BaseException):
            error, details = error_kind(error), details or str(error) or repr(error)
        await self.session.stop_failure(error, error_details=details,
                                        last_assistant_message=self.last_text)

    async def _tool_batch(self) -> list[ModelText]:
        rows = [row for _, row in sorted(self._batch, key=lambda r: r[0])]
        self._batch = []
        verdict = await self._session().tool_batch(rows)
        self._raise_halt(verdict)
        rendered = self.driver.render(verdict)
        if verdict.denied:
            self.ended = True
            raise ToolBatchBlocked(verdict, rendered)
        return texts_but(rendered, Placement.RESULT)

    # -- tools ---------------------------------------------------------------------------------

    async def tool_pre(self, name: str, tool_input: Mapping[str, Any], call_id: str, *,
                       approved: bool = False) -> ToolGo:
        """Before a tool call: run it (with this input), refuse it (with this text), ask, or
        defer. ``approved``: the runtime's approval surface approved this call: the earlier
        answer stands, the ``ask`` resolved. A halt lets the call be handled as decided; the
        run stops at the next seam."""
        self._order.setdefault(call_id, next(self._calls))
        self._inputs[call_id] = (name, dict(tool_input))
        earlier = self.driver.pre.get(call_id)
        if earlier is not None and approved:
            return attrs.evolve(earlier, action=Action.RUN)
        verdict = await self._session().tool_pre(name, tool_input, call_id)
        go = self._answer(name, tool_input, call_id, verdict)
        self.driver.pre[call_id] = go
        return go

    def _answer(self, name: str, tool_input: Mapping[str, Any], call_id: str,
                verdict: Verdict) -> ToolGo:
        texts = self.driver.render(verdict, tool_name=name, tool_input=tool_input)
        effective = dict(verdict.effective_input if verdict.input_rewritten
                         and verdict.effective_input is not None else tool_input)
        rewritten = verdict.input_rewritten and verdict.effective_input is not None
        extra = texts_but(texts, Placement.TOOL_RESULT)
        if verdict.decision is Decision.DEFER:
            return ToolGo(action=Action.DEFER, input=effective, verdict=verdict,
                          reason=verdict.reason, rewritten=rewritten)
        if verdict.decision is Decision.ASK:
            self._pre_texts[call_id] = extra
            return ToolGo(action=Action.ASK, input=effective, verdict=verdict,
                          reason=verdict.reason, rewritten=rewritten,
                          text=no_approval_surface(verdict.reason))
        if verdict.denied:
            self.pending += extra
            text = first_text(texts, Placement.TOOL_RESULT) or verdict.reason or "denied by a hook"
            self._refused(call_id, text)
            return ToolGo(action=Action.REFUSE, input=effective, verdict=verdict,
                          reason=verdict.reason, text=text)
        self._pre_texts[call_id] = extra
        return ToolGo(action=Action.RUN, input=effective, verdict=verdict,
                      reason=verdict.reason, rewritten=rewritten)

    def refuse(self, call_id: str, text: str) -> None:
        """The adapter refused a call after all (its rewritten input was invalid: see
        :func:`invalid_rewrite`; ``text`` is what the model reads): its queued hook texts are
        sent, and ``tool_batch`` lists it with that text."""
        self.pending += self._pre_texts.pop(call_id, [])
        self._refused(call_id, text)

    def _refused(self, call_id: str, text: str) -> None:
        """A refused call is in the batch with its refusal as its response (the model reads
        it as the tool's result)."""
        name, tool_input = self._inputs.pop(call_id, ("", {}))
        self._batch.append((self._order.pop(call_id, next(self._calls)), {
            "tool_name": name, "tool_input": tool_input, "tool_use_id": call_id,
            "tool_response": text}))

    @contextlib.contextmanager
    def tool_running(self) -> Iterator[None]:
        """Around the tool's own call: an agent run started inside it is nested in this run."""
        token = _RUNNING.set((*_RUNNING.get(), (self.driver, self)))
        try:
            yield
        finally:
            _RUNNING.reset(token)

    def tool_started(self, call_id: str) -> None:
        """:meth:`tool_running` for a runtime with callbacks before and after a tool, not around
        it: from here, in this context, until :meth:`tool_ended`."""
        manager = self.tool_running()
        manager.__enter__()
        self._running[call_id] = manager

    def tool_ended(self, call_id: str) -> bool:
        """The tool :meth:`tool_started` marks returned; ``False``: none was running."""
        manager = self._running.pop(call_id, None)
        if manager is not None:
            manager.__exit__(None, None, None)
        return manager is not None

    async def tool_done(self, name: str, tool_input: Mapping[str, Any], call_id: str,
                        result: Any) -> Any:
        """After a tool succeeded: what the model gets as its result (a hook may replace it);
        the hooks' other texts are queued for the next request, right after the result."""
        self.driver.pre.pop(call_id, None)
        self._inputs.pop(call_id, None)
        post = await self._session().tool_post(name, tool_input, result, call_id)
        texts = self.driver.render(post, tool_name=name, tool_input=tool_input)
        self.pending += [*self._pre_texts.pop(call_id, []),
                         *texts_but(texts, Placement.TOOL_RESULT)]
        sent = tool_result(texts, post, result)
        order = self._order.pop(call_id, next(self._calls))
        self._batch.append((order, {"tool_name": name, "tool_input": dict(tool_input),
                                    "tool_use_id": call_id, "tool_response": json_value(sent)}))
        return sent

    async def tool_failed(self, name: str, tool_input: Mapping[str, Any], call_id: str,
                          error: str) -> None:
        """After a tool failed (raised, or the runtime's error result): ``tool_failure``."""
        self.driver.pre.pop(call_id, None)
        self._order.pop(call_id, None)
        self._inputs.pop(call_id, None)
        failure = await self._session().tool_failure(name, tool_input, error, call_id)
        texts = self.driver.render(failure, tool_name=name, tool_input=tool_input)
        self.pending += [*self._pre_texts.pop(call_id, []),
                         *texts_but(texts, Placement.TOOL_RESULT)]

    # -- stop ----------------------------------------------------------------------------------

    async def stop(self, last_text: str | None = None, *,
                   cannot: str | None = None) -> list[ModelText] | None:
        """The run answered: ``stop`` (nested: ``subagent_stop``). ``None``: it ends (the
        hooks' contexts wait for the next turn); else the texts to send to the model before
        calling it again (the feedback included). ``cannot``: why this run cannot call the
        model again (a stream that ended): a hook's continuation is logged as a warning. A run
        a ``tool_batch`` hook ended has no stop (``None``)."""
        if self.ended:
            return None
        session = self._session()
        self.check_halt()
        last = last_text if last_text is not None else self.last_text
        if self.nested:
            verdict = await session.subagent_stop(self.agent_id, self.agent_type,
                                                  last_assistant_message=last)
        else:
            verdict = await session.stop(last_assistant_message=last)
        self._raise_halt(verdict)
        texts = [*self.pending, *texts_but(self.driver.render(verdict), Placement.RESULT)]
        self.pending = []
        if not verdict.continue_turn:
            self.driver.carry.extend(texts)
            return None
        if cannot is not None:
            log.warning("a stop hook asked to continue, but %s", cannot)
            return None
        return texts

