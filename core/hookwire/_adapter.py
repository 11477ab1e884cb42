"""The adapter side of the host driver: :class:`BlockingDriver` and :class:`HostAdapter`
(re-exported and documented by :mod:`hookwire.driver`)."""

from __future__ import annotations

import contextlib
import functools
import threading
from collections.abc import Awaitable, Callable, Coroutine, Iterator, Mapping
from contextvars import ContextVar
from typing import TYPE_CHECKING, Any, TypeVar

from hookwire._hostdriver import HostDriver
from hookwire._hostrun import HostRun
from hookwire._hosttypes import Anchored, output_text, raise_own
from hookwire.render import ModelText

if TYPE_CHECKING:
    from hookwire.hosts import HostProfile

T = TypeVar("T")
R = TypeVar("R")
A = TypeVar("A", bound="HostAdapter")

#: Adapter runs going on in this context: ``(adapter, run)`` pairs, innermost last.
_CURRENT: ContextVar[tuple[tuple[HostAdapter, HostRun], ...]] = ContextVar(
    "hookwire_adapter_runs", default=())


class BlockingDriver:
    """A :class:`HostDriver` for blocking runtimes, or runtimes whose callbacks run on
    several event loops or threads: its session lives on an event loop in a helper thread,
    started on first use and stopped by :meth:`close` (a later use starts a new session).
    :meth:`call` runs a driver coroutine function there (blocking); :meth:`acall` does the
    same from async code on any loop."""

    def __init__(self, driver: HostDriver, backend: str = "asyncio") -> None:
        self.driver = driver
        self.backend = backend
        self._lock = threading.RLock()
        self._portal_cm: Any = None
        self._portal: Any = None
        self._session_cm: Any = None

    def call(self, fn: Callable[..., Awaitable[T]], *args: Any, **kwargs: Any) -> T:
        self.open()
        result: T = self._portal.call(functools.partial(fn, *args, **kwargs))
        return result

    async def acall(self, fn: Callable[..., Awaitable[T]], *args: Any, **kwargs: Any) -> T:
        import anyio.to_thread

        return await anyio.to_thread.run_sync(functools.partial(self.call, fn, *args, **kwargs))

    def open(self) -> None:
        """Open the session (entered in one task of the helper loop) and start it."""
        with self._lock:
            if self._session_cm is not None:
                return
            if self._portal_cm is None:
                from anyio.from_thread import start_blocking_portal

                self._portal_cm = start_blocking_portal(backend=self.backend)
                self._portal = self._portal_cm.__enter__()
            session = self.driver.new_session()
            self._session_cm = self._portal.wrap_async_context_manager(session)
            self._session_cm.__enter__()
        self._portal.call(self.driver.start, session)

    def close(self, reason: str = "other") -> None:
        """``session_end``, then stop the helper thread."""
        with self._lock:
            portal_cm, self._portal_cm = self._portal_cm, None
            session_cm, self._session_cm = self._session_cm, None
            if portal_cm is None:
                return
            try:
                if session_cm is not None:
                    try:
                        self._portal.call(self.driver.close, reason)
                    finally:
                        session_cm.__exit__(None, None, None)
            finally:
                portal_cm.__exit__(None, None, None)


class HostAdapter:
    """What an adapter holds besides its translation: ``driver`` (a
    :class:`~hookwire.driver.HostDriver` for the ``host`` profile; the other keywords are the
    driver's), and with ``blocking=True`` a :class:`~hookwire.driver.BlockingDriver` over it
    (the session lives on a helper thread). :meth:`acall` and :meth:`call` run a driver
    coroutine function the way this adapter drives it; :meth:`run_tool` runs a tool call
    between its hooks. ``async with`` shares one session across the runs inside it."""

    def __init__(self, kernel: Any, *, host: HostProfile | None, max_stop_blocks: int | None = 8,
                 neutral: bool = False, blocking: bool = True, **session_fields: Any) -> None:
        self.kernel = kernel
        self.driver = HostDriver(kernel, host=host, max_stop_blocks=max_stop_blocks,
                                 neutral=neutral, **session_fields)
        self._blocking = BlockingDriver(self.driver) if blocking else None
        self.runs: dict[Any, HostRun] = {}  # the runtime's runs (by its key) → driver runs

    @property
    def problems(self) -> tuple[Any, ...]:
        """Why configured hooks cannot run here (``hookwire.problems.Problem``s: config
        problems, events this runtime never emits, tool matchers that match none of its tools,
        the adapter's own); each is also logged once as a warning on the ``hookwire`` logger."""
        return self.driver.problems

    async def acall(self, fn: Callable[..., Awaitable[T]], *args: Any, **kwargs: Any) -> T:
        """``await fn(...)``, on the session's helper thread if the adapter has one."""
        if self._blocking is not None:
            return await self._blocking.acall(fn, *args, **kwargs)
        return await fn(*args, **kwargs)

    def call(self, fn: Callable[..., Awaitable[T]], *args: Any, **kwargs: Any) -> T:
        """``fn(...)`` from blocking code, on the session's helper thread."""
        return self._sync().call(fn, *args, **kwargs)

    def close(self, reason: str = "other") -> None:
        """``session_end``, and the helper thread stops (a later run starts a new session)."""
        self._sync().close(reason)

    def __enter__(self) -> Any:
        """One session across every run inside this block (it opens on first use)."""
        self._sync()
        return self

    def _sync(self) -> BlockingDriver:
        if self._blocking is None:
            raise TypeError(f"{type(self).__name__}'s session ends with its `async with` block")
        return self._blocking

    def __exit__(self, *exc: object) -> None:
        self.close()

    async def __aenter__(self) -> Any:
        """The ``with`` block's, from async code (``blocking=False``: the session starts)."""
        if self._blocking is None:
            await self.driver.start()
            return self
        import anyio.to_thread

        return await anyio.to_thread.run_sync(self.__enter__)

    async def __aexit__(self, *exc: object) -> None:
        if self._blocking is None:
            await self.driver.close()
        else:
            import anyio.to_thread

            await anyio.to_thread.run_sync(self.__exit__, None, None, None)

    async def run_tool(self, run: HostRun, name: str, tool_input: Mapping[str, Any],
                       call_id: str, invoke: Callable[[], Awaitable[T]], *,
                       failed: Callable[[T], str | None] | None = None,
                       content: Callable[[T], Any] | None = None,
                       passthrough: tuple[type[BaseException], ...] = ()) -> tuple[T, Any]:
        """Run a tool call the hooks let run: ``invoke()`` inside :meth:`HostRun.tool_running`
        (an agent run it starts is nested). An exception (but ``passthrough``, the runtime's
        control flow) is ``tool_failure`` and raised again; a result that ``failed`` says is
        the runtime's own error report (its text) is ``tool_failure`` too. Returns the result
        and what the model gets: ``content(result)`` (default: the result), or what a
        ``tool_post`` hook replaced it with."""
        result = await self.tool_call(run, name, tool_input, call_id, invoke,
                                      passthrough=passthrough)
        value = content(result) if content is not None else result
        error = failed(result) if failed is not None else None
        if error is not None:
            await self.acall(run.tool_failed, name, tool_input, call_id, error)
            return result, value
        return result, await self.acall(run.tool_done, name, tool_input, call_id, value)

    async def guarded(self, key: Any) -> HostRun:
        """The run :attr:`runs` holds for ``key``; for a tool call whose run's start went
        unseen (a run resumed in a new process), a run begun now, resumed (no user turn): its
        calls are still guarded."""
        run = self.runs.get(key)
        if run is None:
            run = self.runs[key] = self.driver.begin("", resumed=True)
            await self.acall(run.open)
        return run

    def guarded_sync(self, key: Any) -> HostRun:
        """:meth:`guarded` from blocking code."""
        run = self.runs.get(key)
        if run is None:
            run = self.runs[key] = self.driver.begin("", resumed=True)
            self.call(run.open)
        return run

    async def tool_call(self, run: HostRun, name: str, tool_input: Mapping[str, Any],
                        call_id: str, invoke: Callable[[], Awaitable[T]], *,
                        passthrough: tuple[type[BaseException], ...] = ()) -> T:
        """The tool's own call in :meth:`run_tool`, for an adapter that reads its result
        itself: an exception (but ``passthrough``) is ``tool_failure``, raised again."""
        try:
            with run.tool_running():
                return await invoke()
        except passthrough:
            raise
        except Exception as exc:
            run.tool_error = exc  # an inner agent's failed model request: not this run's
            await self.acall(run.tool_failed, name, tool_input, call_id, str(exc) or repr(exc))
            raise

    def tool_call_sync(self, run: HostRun, name: str, tool_input: Mapping[str, Any],
                       call_id: str, invoke: Callable[[], T], *,
                       passthrough: tuple[type[BaseException], ...] = ()) -> T:
        """:meth:`tool_call` for a blocking tool call."""
        try:
            with run.tool_running():
                return invoke()
        except passthrough:
            raise
        except Exception as exc:
            run.tool_error = exc
            self.call(run.tool_failed, name, tool_input, call_id, str(exc) or repr(exc))
            raise

    @contextlib.contextmanager
    def running(self, run: HostRun) -> Iterator[HostRun]:
        """Around one call of the runtime for ``run``, whose callbacks carry no run of their
        own (a tool wrapper, a memory read): in this context :meth:`current` is ``run``. Its
        :attr:`~HostRun.anchored` texts start afresh (the runtime rebuilds its requests)."""
        run.anchored = Anchored()
        token = _CURRENT.set((*_CURRENT.get(), (self, run)))
        try:
            yield run
        finally:
            _CURRENT.reset(token)

    async def before_request(self, run: HostRun, items: list[Any],
                             make: Callable[[ModelText], Any], is_prompt: Callable[[Any], bool],
                             prompt: str | None = None) -> None:
        """:meth:`HostRun.before_model` for a runtime that rebuilds each request from its own
        history (which drops hook texts): the request's ``items`` get, in place, the texts
        (each made into an item by ``make``) where they arose in this run, these included;
        ``is_prompt`` finds the user's prompt (texts go before it where the harness puts
        them there)."""
        run.anchored.add(await self.acall(run.before_model, prompt), items, make, is_prompt)
        items[:] = run.anchored.apply(items)

    def current(self) -> HostRun | None:
        """The run this adapter is :meth:`running` in this context, if any."""
        return next((run for owner, run in reversed(_CURRENT.get()) if owner is self), None)

    @classmethod
    def running_now(cls: type[A]) -> tuple[A, HostRun] | None:
        """The innermost run an adapter of this class is :meth:`running` in this context, and
        the adapter (for a runtime's part that no adapter is given to: its memory)."""
        return next(((a, r) for a, r in reversed(_CURRENT.get()) if isinstance(a, cls)), None)

    async def model_call(self, run: HostRun, invoke: Callable[[], Awaitable[T]], *,
                         failures: tuple[type[BaseException], ...] = (Exception,),
                         passthrough: tuple[type[BaseException], ...] = ()) -> T:
        """``await invoke()``, the runtime's model request (after its own retries): an
        exception in ``failures`` (but ``passthrough``, the runtime's control flow) is a failed
        request (``stop_failure``), raised again."""
        try:
            return await invoke()
        except passthrough:
            raise
        except failures as exc:
            await self.acall(run.model_failed, exc)
            raise

    def model_call_sync(self, run: HostRun, invoke: Callable[[], T], *,
                        failures: tuple[type[BaseException], ...] = (Exception,),
                        passthrough: tuple[type[BaseException], ...] = ()) -> T:
        """:meth:`model_call` for a blocking model request."""
        try:
            return invoke()
        except passthrough:
            raise
        except failures as exc:
            self.call(run.model_failed, exc)
            raise

    # -- turns the adapter drives ---------------------------------------------------------------

    async def turn(self, run: HostRun, once: Callable[[Any], Awaitable[R]], input: Any, *,
                   answer: Callable[[R], str | None],
                   again: Callable[[R, list[ModelText]], Any],
                   paused: Callable[[R], bool] | None = None,
                   failures: tuple[type[BaseException], ...] = ()) -> R:
        """One user turn of a runtime whose own loop cannot send the model back: ``run``
        opens, ``once(input)`` runs the runtime (:meth:`running` ``run``), then ``stop`` on
        ``answer(result)`` (not when ``paused(result)``: it waits for approvals). While a Stop
        hook continues the turn, ``once`` runs again on ``again(result, feedback)``. An
        exception in ``failures`` is a failed model request (``stop_failure``). A hookwire
        exception the runtime wrapped in one of its own is raised as it is. The run closes at
        the end."""
        await self.acall(run.open)
        try:
            while True:
                try:
                    with self.running(run):
                        result = await self.model_call(run, functools.partial(once, input),
                                                       failures=failures)
                except Exception as exc:
                    raise_own(exc)
                    raise
                input = await self.acall(_next, run, result, answer, again, paused)
                if input is None:
                    return result
        finally:
            await self.acall(run.close)

    def turn_sync(self, run: HostRun, once: Callable[[Any], R], input: Any, *,
                  answer: Callable[[R], str | None],
                  again: Callable[[R, list[ModelText]], Any],
                  paused: Callable[[R], bool] | None = None,
                  failures: tuple[type[BaseException], ...] = ()) -> R:
        """:meth:`turn` for a runtime's blocking entry point (``once`` blocks)."""
        self.call(run.open)
        try:
            while True:
                try:
                    with self.running(run):
                        result = self.model_call_sync(run, functools.partial(once, input),
                                                      failures=failures)
                except Exception as exc:
                    raise_own(exc)
                    raise
                input = self.call(_next, run, result, answer, again, paused)
                if input is None:
                    return result
        finally:
            self.call(run.close)

    async def nested(self, invoke: Callable[[HostRun], Awaitable[T]], prompt: object = None, *,
                     agent_type: str = "agent",
                     answer: Callable[[T], str | None] = output_text) -> T:
        """A sub-agent the runtime runs itself in a guarded tool (an agent as a tool): a
        nested run (``subagent_start``; ``subagent_stop`` on ``answer(result)``) around
        ``invoke(run)``, which reports its tool calls to that run."""
        sub = self.driver.begin(prompt, agent_type=agent_type)
        await self.acall(sub.open)
        try:
            result = await invoke(sub)
            await self.acall(sub.stop, answer(result))
        finally:
            await self.acall(sub.close)
        return result


async def _next(run: HostRun, result: R, answer: Callable[[R], str | None],
                again: Callable[[R, list[ModelText]], Any],
                paused: Callable[[R], bool] | None) -> Any:
    """After one runtime call of a turn: the next call's input, or ``None`` (it ended)."""
    run.check_halt()
    if paused is not None and paused(result):
        return None
    feedback = await run.stop(answer(result))
    return None if feedback is None else again(result, feedback)


def in_thread(callback: Callable[..., T], *,
              around: bool = False) -> Callable[..., Coroutine[Any, Any, T]]:
    """The async twin of a blocking callback method (a runtime that calls either): it runs
    the callback in a worker thread, so the runtime's event loop is never blocked by hooks.
    ``around``: a callback wrapped around the runtime's own step, ``callback(self, request,
    handler)``; the twin's async ``handler`` runs back on the event loop, in the callback's
    context (a run nested in a tool is seen there). Attributes the runtime set on the
    callback (its decorators') are kept."""

    @functools.wraps(callback)
    async def twin(self: Any, *args: Any, **kwargs: Any) -> T:
        import anyio.from_thread
        import anyio.to_thread

        if around:
            request, handler = args
            args = (request, lambda r: anyio.from_thread.run(handler, r))
        return await anyio.to_thread.run_sync(functools.partial(callback, self, *args, **kwargs))

    return twin
