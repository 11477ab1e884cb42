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
callbacks are blocking, or hop event loops, drive it through :class:`BlockingDriver`. An
adapter class subclasses :class:`HostAdapter` for the rest: its driver, ``problems``, the
session's ``with`` blocks, and a tool call run between its hooks (:meth:`HostAdapter.run_tool`).
"""

from __future__ import annotations

import contextlib
import functools
import itertools
import logging
import threading
import uuid
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any, TypeVar

from hookwire._hostrun import HostRun, current_run
from hookwire._hosttypes import (
    Action,
    Anchored,
    PromptBlocked,
    Renderer,
    RunHalted,
    ToolBatchBlocked,
    ToolGo,
    error_kind,
    hookwire_error,
    invalid_rewrite,
    output_text,
    place,
    prompt_text,
    status_error_kind,
)
from hookwire.hostparts import HostMcp, HostModel, HostParts
from hookwire.hosts import HostProfile
from hookwire.problems import Problem, ProblemKind
from hookwire.render import ModelText
from hookwire.session import Session
from hookwire.tools import mcp_name

log = logging.getLogger("hookwire.driver")
T = TypeVar("T")


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
        self.parts = HostParts()  # what the runtime lends hooks (lend)
        self._problems: tuple[Any, ...] = ()
        self._stack: contextlib.AsyncExitStack | None = None
        self._ids = itertools.count(1)
        self._mcp: set[str] = set()  # runtime tool names looked at as MCP tools

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

    def lend(self, model: HostModel | None = None, mcp: HostMcp | None = None) -> None:
        """The runtime's own model and MCP client sessions, for hooks that ask a model or call
        an MCP tool (:mod:`hookwire.hostparts`); what the kernel was given wins."""
        self.parts = HostParts(model=model or self.parts.model, mcp=mcp or self.parts.mcp)
        if self.session is not None:
            self.session.parts = self.kernel.parts.over(self.parts)

    def map_mcp(self, runtime_name: str, server: str | None, tool: str, *,
                unnamed: str = "a name") -> None:
        """Hooks see the runtime's MCP tool ``runtime_name`` as ``mcp__server__tool`` (once
        per name; a mapping the user gave wins). A server without a name (``unnamed`` says
        which is missing), or one no harness name can carry, is a problem: hooks see the
        runtime's own name."""
        if runtime_name in self._mcp or self.kernel.tools.get(runtime_name) is not None:
            return
        self._mcp.add(runtime_name)
        host = self.host.name if self.host is not None else "runtime"
        if not server:
            message = (f"{host} tool {runtime_name!r} comes from an MCP server without "
                       f"{unnamed}: hooks see it as {runtime_name!r}, not as mcp__<server>__"
                       f"{tool}; map it with kernel.map_tool({runtime_name!r}, "
                       f"mcp_name(<server>, {tool!r}))")
        else:
            try:
                self.kernel.map_tool(runtime_name, mcp_name(server, tool))
                return
            except Exception as exc:  # a server name no harness name can carry
                message = f"{host} MCP tool {runtime_name!r} keeps its own name: {exc}"
        self.add_problem(Problem(kind=ProblemKind.CONFIG, message=message))

    def new_session(self) -> Session:
        """A session of this driver (not entered)."""
        if not self.session_fields.get("session_id"):
            self.session_fields["session_id"] = str(uuid.uuid4())
        fields = dict(self.session_fields)
        if self.host is not None:
            fields.setdefault("host", self.host)
        if self.tool_names:
            fields.setdefault("tools", list(self.tool_names))
        session: Session = self.kernel.session(max_stop_blocks=self.max_stop_blocks, **fields)
        session.parts = self.kernel.parts.over(self.parts)
        return session

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
        try:
            with run.tool_running():
                result = await invoke()
        except passthrough:
            raise
        except Exception as exc:
            await self.acall(run.tool_failed, name, tool_input, call_id, str(exc) or repr(exc))
            raise
        value = content(result) if content is not None else result
        error = failed(result) if failed is not None else None
        if error is not None:
            await self.acall(run.tool_failed, name, tool_input, call_id, error)
            return result, value
        return result, await self.acall(run.tool_done, name, tool_input, call_id, value)


__all__ = ["Action", "Anchored", "BlockingDriver", "HostAdapter", "HostDriver", "HostRun",
           "PromptBlocked", "Renderer", "RunHalted", "ToolBatchBlocked", "ToolGo", "current_run",
           "error_kind", "hookwire_error", "invalid_rewrite", "output_text", "place",
           "prompt_text", "status_error_kind"]
