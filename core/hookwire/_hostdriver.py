"""The host driver proper (:class:`hookwire.driver.HostDriver`, documented there)."""

from __future__ import annotations

import contextlib
import itertools
import logging
import uuid
from collections.abc import Mapping, Sequence
from typing import Any

from hookwire._hostrun import HostRun, current_run
from hookwire._hosttypes import Renderer, RunHalted, ToolGo, prompt_text
from hookwire.hostparts import HostMcp, HostModel, HostParts
from hookwire.hosts import HostProfile
from hookwire.problems import Problem, ProblemKind
from hookwire.render import ModelText
from hookwire.session import Session
from hookwire.tools import mcp_name

log = logging.getLogger("hookwire.driver")


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

    def declare_tools(self, names: Sequence[str], *,
                      mcp: Mapping[str, tuple[str | None, str]] | None = None,
                      unnamed: str = "a name") -> None:
        """The runtime's tool names, as its model calls them (each once); ``mcp``: those of
        an MCP server, as ``(server, tool on the server)``, which :meth:`map_mcp` maps."""
        for name, (server, tool) in (mcp or {}).items():
            self.map_mcp(name, server, tool, unnamed=unnamed)
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
