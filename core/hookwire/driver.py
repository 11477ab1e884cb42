"""The host driver: the protocol every runtime adapter shares, written once, runtime-neutral.

An adapter turns its runtime's callbacks into driver calls and the driver's answers back into
the runtime's idiom::

    driver = HostDriver(kernel, host=PROFILE, cwd=project)
    run = driver.begin(prompt)            # in the runtime's context: a nested run is seen here
    await run.open()                      # session start (first run), sub-agent start (nested)
    texts = await run.before_model()      # prompt_submit once per turn, tool_batch, queued texts
    go = await run.tool_pre(name, args, call_id)
    if go.action is Action.RUN:
        with run.tool_running():          # an agent run started by the tool is nested
            result = tool(**go.input)
        result = await run.tool_done(name, go.input, call_id, result)
    feedback = await run.stop(last_text)  # None: the turn ends; else send it, call the model
    await run.close()

The driver owns: the session (one per driver, or one per top-level run), ``session_start``
gating the first prompt, one turn and one ``prompt_submit`` per user turn, halts at the next
seam, the Stop continuation loop (the cap is the session's), ``ask`` answered by the kernel's
``approve`` seam or refused, nested runs (the same session and turn, with the sub-agent
seams), ``tool_batch`` over the calls since the last model request, and every text the model
reads (:mod:`hookwire.render`: each dialect's wording, or the neutral form). Runtimes whose
callbacks are blocking, or hop event loops, drive it through :class:`BlockingDriver`.
"""

from __future__ import annotations

import contextlib
import enum
import functools
import itertools
import json
import logging
import uuid
from collections.abc import Awaitable, Callable, Iterable, Iterator, Mapping, Sequence
from contextvars import ContextVar
from typing import Any, TypeVar

import attrs

from hookwire.errors import HookwireError
from hookwire.hosts import HostProfile
from hookwire.render import (
    ModelText,
    Placement,
    Subject,
    first_text,
    no_approval_surface,
    render,
    texts_but,
    tool_result,
)
from hookwire.session import Session
from hookwire.verdicts import KERNEL, Decision, Halt, Verdict

log = logging.getLogger("hookwire.driver")
T = TypeVar("T")


class RunHalted(HookwireError, RuntimeError):
    """A hook answered ``continue: false``: the adapter ended the run. ``halt`` says who and why."""

    def __init__(self, halt: Halt) -> None:
        self.halt = halt
        self.reason = halt.reason
        super().__init__(f"run halted by {halt.source.label()}: {halt.reason or '(no reason)'}")


class PromptBlocked(HookwireError, RuntimeError):
    """A ``prompt_submit`` hook blocked the prompt: the model was never called."""

    def __init__(self, reason: str | None, verdict: Verdict, text: str | None = None) -> None:
        self.reason = reason
        self.verdict = verdict
        #: What the harness shows the user instead of a model reply (Claude Code's
        #: ``UserPromptSubmit operation blocked by hook: …``; the reason in the neutral form).
        self.text = text if text is not None else reason
        super().__init__(f"prompt blocked by a hook: {reason or '(no reason given)'}")


class ToolBatchBlocked(RunHalted):
    """A ``tool_batch`` hook blocked: the run ended after the tool calls, before the next model
    request. ``reason`` says why; the session is not halted, the next run goes on as usual."""

    def __init__(self, verdict: Verdict) -> None:
        source = verdict.reasons[0].source if verdict.reasons else KERNEL
        super().__init__(Halt(reason=verdict.reason, source=source))
        self.verdict = verdict


class Renderer:
    """Verdicts into what the model reads: each dialect's own wording and placement, or the
    neutral labelled form (``neutral=True``). A mapped runtime tool is named as the hooks saw
    it (its harness name and fields)."""

    def __init__(self, kernel: Any, *, neutral: bool = False) -> None:
        self.kernel = kernel
        self.neutral = neutral

    def __call__(self, verdict: Verdict, *, tool_name: str | None = None,
                 tool_input: Mapping[str, Any] | None = None,
                 prompt: str | None = None) -> list[ModelText]:
        name, args = tool_name or "", dict(tool_input or {})
        tools = getattr(self.kernel, "tools", None)
        mapping = tools.get(name) if tools is not None and name else None
        if mapping is not None:
            name, args = mapping.harness, mapping.to_harness(args)
        subject = Subject(tool_name=name, tool_input=args, prompt=prompt or "")
        return render(verdict, self.kernel.dialect, subject, neutral_form=self.neutral)


class Action(enum.StrEnum):
    """What the adapter does with a tool call."""

    RUN = "run"        #: run the tool with :attr:`ToolGo.input`
    REFUSE = "refuse"  #: do not run it; the model reads :attr:`ToolGo.text` as its result
    ASK = "ask"        #: ask the runtime's approval surface (or :meth:`HostRun.approve`)
    DEFER = "defer"    #: the runtime's deferred-call path (a hook answered ``defer``)


@attrs.frozen(kw_only=True)
class ToolGo:
    """The driver's answer to a tool call: ``action``, the ``input`` to run it with (a hook
    may have rewritten it: ``rewritten``), the ``text`` the model reads when refused, the
    ``reason`` an approval surface shows, and the ``verdict`` behind it."""

    action: Action
    input: dict[str, Any]
    verdict: Verdict
    text: str | None = None
    reason: str | None = None
    rewritten: bool = False


def invalid_rewrite(tool_name: str, error: object) -> str:
    """What the model reads when a hook rewrote a tool's input into one its schema refuses."""
    return f"A hook rewrote the input of {tool_name} into an invalid one: {error}"


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


class HostDriver:
    """The host protocol for one adapter instance. ``host`` is the adapter's profile;
    ``session_per_run``: each top-level run opens its own session (one ``session_id``,
    ``source="resume"`` after the first) unless one is open (``async with driver``).
    ``max_stop_blocks`` caps stop continuations per turn (Claude Code's 8); ``neutral`` picks
    the neutral labelled wording; other keywords go to :meth:`Kernel.session`."""

    def __init__(self, kernel: Any, *, host: HostProfile | None = None,
                 max_stop_blocks: int | None = 8, neutral: bool = False,
                 session_per_run: bool = False, **session_fields: Any) -> None:
        self.kernel = kernel
        self.host = host
        self.max_stop_blocks = max_stop_blocks
        self.render = Renderer(kernel, neutral=neutral)
        self.session_per_run = session_per_run
        self.session_fields = session_fields
        self.session: Session | None = None
        self.tool_names: list[str] = []
        self.extra_problems: list[Any] = []
        self.carry: list[ModelText] = []  # for the next user turn's first model request
        self.pre: dict[str, ToolGo] = {}  # call id → the answer, kept across runs (approvals)
        self.runs = 0  # sessions started
        self._problems: tuple[Any, ...] = ()
        self._stack: contextlib.AsyncExitStack | None = None
        self._ids = itertools.count(1)

    # -- session -------------------------------------------------------------------------------

    @property
    def problems(self) -> tuple[Any, ...]:
        """Why configured hooks cannot run here (config problems, events the host never emits,
        matchers that match none of its tools, and the adapter's own); each logged once."""
        if self.session is not None:
            self._problems = tuple(self.session.problems)
        return (*self._problems, *self.extra_problems)

    def add_problem(self, problem: Any) -> None:
        """An adapter's own problem (an MCP tool it cannot name): kept and logged once."""
        if problem not in self.extra_problems:
            self.extra_problems.append(problem)
            log.warning("%s", problem)

    def declare_tools(self, names: Sequence[str]) -> None:
        """The runtime's tool names, as its model calls them (each once)."""
        new = [n for n in names if n not in self.tool_names]
        if not new:
            return
        self.tool_names.extend(new)
        if self.session is not None:
            self.session.declare_tools(self.tool_names)
            self._problems = tuple(self.session.problems)

    def map_mcp(self, runtime_name: str, server: str, tool: str) -> None:
        """Hooks see the runtime's MCP tool ``runtime_name`` as ``mcp__server__tool``."""
        from hookwire.tools import mcp_name

        try:
            self.kernel.map_tool(runtime_name, mcp_name(server, tool))
        except Exception as exc:  # a mapping the user gave first, or a name no dialect takes
            log.debug("MCP tool %s not mapped: %s", runtime_name, exc)

    def new_session(self) -> Session:
        """A session of this driver (not entered)."""
        if not self.session_fields.get("session_id"):
            self.session_fields["session_id"] = str(uuid.uuid4())
        fields = dict(self.session_fields)
        if self.host is not None:
            fields.setdefault("host", self.host)
        if self.tool_names:
            fields.setdefault("tools", list(self.tool_names))
        return self.kernel.session(max_stop_blocks=self.max_stop_blocks, **fields)  # type: ignore[no-any-return]

    async def start(self, session: Session | None = None) -> None:
        """Fire ``session_start`` on ``session`` (entered by the caller) or a session this
        driver opens and keeps until :meth:`close`. Its texts wait for the first request."""
        if self.session is not None:
            return
        if session is None:
            stack = contextlib.AsyncExitStack()
            session = await stack.enter_async_context(self.new_session())
            self._stack = stack
        self.session = session
        verdict = await session.session_start("startup" if self.runs == 0 else "resume")
        self.runs += 1
        self._problems = tuple(session.problems)
        self.carry.extend(self.render(verdict))
        if verdict.halt is not None:
            raise RunHalted(verdict.halt)

    async def close(self, reason: str = "other") -> None:
        """Fire ``session_end`` (if a session started) and close the session this opened."""
        session, self.session = self.session, None
        stack, self._stack = self._stack, None
        try:
            if session is not None:
                self._problems = tuple(session.problems)
                await session.session_end(reason)
        finally:
            if stack is not None:
                await stack.aclose()

    async def __aenter__(self) -> HostDriver:
        """One session across every run inside this block."""
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    # -- runs ----------------------------------------------------------------------------------

    def begin(self, prompt: object = None, *, resumed: bool = False,
              agent_type: str = "agent", agent_id: str | None = None) -> HostRun:
        """A run of an agent, for ``prompt`` (text, or a runtime's list of parts). Call it in
        the runtime's own context: a run started inside one of this driver's tools (or, for
        ``nested_any``, any driver's) is nested in that tool's run. ``resumed``: the run
        resumes paused tool calls, not a user turn."""
        outer = current_run(self)
        return HostRun(self, prompt_text(prompt), outer=outer, resumed=resumed,
                       agent_type=agent_type,
                       agent_id=agent_id or f"{agent_type}-{next(self._ids)}")


class HostRun:
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
        self.session: Session | None = outer.session if outer is not None else None
        self.origin: Any = outer.origin if outer is not None else None
        self._own_session = False
        self._stack: contextlib.AsyncExitStack | None = None
        self._pre_texts: dict[str, list[ModelText]] = {}
        self._batch: list[tuple[int, dict[str, Any]]] = []
        self._order: dict[str, int] = {}
        self._calls = itertools.count()

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
        if self._batch:
            texts += await self._tool_batch()
        texts += self.pending
        self.pending = []
        return texts

    def model_answered(self, text: str | None) -> None:
        """The text of the latest model response (for ``stop`` and ``stop_failure``)."""
        if text:
            self.last_text = text

    async def model_failed(self, error: str, details: str | None = None) -> None:
        """A model request failed for good (after the runtime's retries): ``stop_failure``
        with Claude Code's error kind (:func:`status_error_kind`)."""
        if self.nested or self.session is None:
            return
        await self.session.stop_failure(error, error_details=details,
                                        last_assistant_message=self.last_text)

    async def _tool_batch(self) -> list[ModelText]:
        rows = [row for _, row in sorted(self._batch, key=lambda r: r[0])]
        self._batch = []
        verdict = await self._session().tool_batch(rows)
        self._raise_halt(verdict)
        if verdict.denied:
            raise ToolBatchBlocked(verdict)
        return texts_but(self.driver.render(verdict), Placement.RESULT)

    # -- tools ---------------------------------------------------------------------------------

    async def tool_pre(self, name: str, tool_input: Mapping[str, Any], call_id: str, *,
                       approved: bool = False) -> ToolGo:
        """Before a tool call: run it (with this input), refuse it (with this text), ask, or
        defer. ``approved``: the runtime's approval surface approved this call: the earlier
        answer stands, the ``ask`` resolved. A halt lets the call be handled as decided; the
        run stops at the next seam."""
        self._order.setdefault(call_id, next(self._calls))
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
            return ToolGo(action=Action.REFUSE, input=effective, verdict=verdict,
                          reason=verdict.reason,
                          text=first_text(texts, Placement.TOOL_RESULT) or verdict.reason
                          or "denied by a hook")
        self._pre_texts[call_id] = extra
        return ToolGo(action=Action.RUN, input=effective, verdict=verdict,
                      reason=verdict.reason, rewritten=rewritten)

    async def approve(self, name: str, go: ToolGo, call_id: str) -> ToolGo:
        """The kernel's ``approve`` seam answers an ``ask`` (no approval surface): allow runs
        it, deny refuses it with the reason, no answer refuses it as Claude Code does."""
        answer = await self._session().approve(name, go.input, call_id, reason=go.reason)
        if answer.decision is Decision.ALLOW:
            tool_input = dict(answer.effective_input or go.input)
            go = attrs.evolve(go, action=Action.RUN, input=tool_input)
        elif answer.decision is Decision.DENY:
            go = attrs.evolve(go, action=Action.REFUSE,
                              text=answer.reason or "denied by the approval hook")
        else:
            go = attrs.evolve(go, action=Action.REFUSE, text=no_approval_surface(go.reason))
        if go.action is Action.REFUSE:
            self.pending += self._pre_texts.pop(call_id, [])
        self.driver.pre[call_id] = go
        return go

    def refuse(self, call_id: str, text: str) -> None:
        """The adapter refused a call after all (its rewritten input was invalid: see
        :func:`invalid_rewrite`): its queued hook texts are sent."""
        self.pending += self._pre_texts.pop(call_id, [])

    @contextlib.contextmanager
    def tool_running(self) -> Iterator[None]:
        """Around the tool's own call: an agent run started inside it is nested in this run."""
        token = _RUNNING.set((*_RUNNING.get(), (self.driver, self)))
        try:
            yield
        finally:
            _RUNNING.reset(token)

    async def tool_done(self, name: str, tool_input: Mapping[str, Any], call_id: str,
                        result: Any) -> Any:
        """After a tool succeeded: what the model gets as its result (a hook may replace it);
        the hooks' other texts are queued for the next request, right after the result."""
        self.driver.pre.pop(call_id, None)
        post = await self._session().tool_post(name, tool_input, result, call_id)
        texts = self.driver.render(post, tool_name=name, tool_input=tool_input)
        self.pending += [*self._pre_texts.pop(call_id, []),
                         *texts_but(texts, Placement.TOOL_RESULT)]
        sent = tool_result(texts, post, result)
        order = self._order.pop(call_id, next(self._calls))
        self._batch.append((order, {"tool_name": name, "tool_input": dict(tool_input),
                                    "tool_use_id": call_id, "tool_response": _response(sent)}))
        return sent

    async def tool_failed(self, name: str, tool_input: Mapping[str, Any], call_id: str,
                          error: str) -> None:
        """After a tool failed (raised, or the runtime's error result): ``tool_failure``."""
        self.driver.pre.pop(call_id, None)
        self._order.pop(call_id, None)
        failure = await self._session().tool_failure(name, tool_input, error, call_id)
        texts = self.driver.render(failure, tool_name=name, tool_input=tool_input)
        self.pending += [*self._pre_texts.pop(call_id, []),
                         *texts_but(texts, Placement.TOOL_RESULT)]

    # -- stop ----------------------------------------------------------------------------------

    async def stop(self, last_text: str | None = None) -> list[ModelText] | None:
        """The run answered: ``stop`` (nested: ``subagent_stop``). ``None``: it ends (the
        hooks' contexts wait for the next turn); else the texts to send to the model before
        calling it again (the feedback included)."""
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
        return texts


class BlockingDriver:
    """A :class:`HostDriver` for blocking runtimes, or runtimes whose callbacks run on
    several event loops or threads: its session lives on an event loop in a helper thread.
    :meth:`call` runs a driver coroutine function there (blocking); :meth:`acall` does the
    same from async code on any loop."""

    def __init__(self, driver: HostDriver, backend: str = "asyncio") -> None:
        from anyio.from_thread import start_blocking_portal

        self.driver = driver
        self._portal_cm: Any = start_blocking_portal(backend=backend)
        self._portal = self._portal_cm.__enter__()
        self._session_cm: Any = None

    def call(self, fn: Callable[..., Awaitable[T]], *args: Any, **kwargs: Any) -> T:
        self.open()
        return self._portal.call(functools.partial(fn, *args, **kwargs))

    async def acall(self, fn: Callable[..., Awaitable[T]], *args: Any, **kwargs: Any) -> T:
        import anyio.to_thread

        return await anyio.to_thread.run_sync(functools.partial(self.call, fn, *args, **kwargs))

    def open(self) -> None:
        """Open the session (entered in one task of the helper loop) and start it."""
        if self._session_cm is not None or self._portal_cm is None:
            return
        session = self.driver.new_session()
        self._session_cm = self._portal.wrap_async_context_manager(session)
        self._session_cm.__enter__()
        self._portal.call(self.driver.start, session)

    def close(self, reason: str = "other") -> None:
        """``session_end``, then stop the helper thread."""
        if self._portal_cm is None:
            return
        try:
            if self._session_cm is not None:
                try:
                    self._portal.call(self.driver.close, reason)
                finally:
                    cm, self._session_cm = self._session_cm, None
                    cm.__exit__(None, None, None)
        finally:
            cm, self._portal_cm = self._portal_cm, None
            cm.__exit__(None, None, None)


def prompt_text(prompt: object) -> str:
    """The user's prompt as text (multimodal prompts keep only their text parts)."""
    if prompt is None:
        return ""
    if isinstance(prompt, str):
        return prompt
    if isinstance(prompt, Iterable):
        return "\n".join(_part_text(p) for p in prompt).strip()
    return str(prompt)


def _part_text(part: object) -> str:
    if isinstance(part, str):
        return part
    if isinstance(part, Mapping):
        return str(part.get("text") or "")
    return str(getattr(part, "text", "") or "")


def _response(result: Any) -> Any:
    if result is None or isinstance(result, str | int | float | bool):
        return result
    try:
        return json.loads(json.dumps(result))
    except (TypeError, ValueError):
        return str(result)


def status_error_kind(status: int) -> str:
    """Claude Code's short error kind (``StopFailure.error``) for an HTTP status of a failed
    model request."""
    if status == 429:
        return "rate_limit"
    if status in (503, 529):
        return "overloaded"
    if status >= 500:
        return "server_error"
    if status in (401, 403):
        return "authentication_failed"
    if status == 400:
        return "invalid_request"
    return "unknown"
