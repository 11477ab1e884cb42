"""The host-facing API: one session of an agent, with one method per seam.

Use it as an async context manager so hooks that run in the background (Claude Code's
``async: true``) have a task group to live in and are ended with the session::

    async with kernel.session(cwd=project) as session:
        await session.session_start()
        with session.turn():                      # at the runtime's public entry point
            verdict = await session.prompt_submit(prompt)   # at the model boundary

``prompt_submit`` fires exactly once per user turn: :meth:`Session.turn` mints a turn-origin
token at the runtime's ingress (nested public calls reuse it), the first ``prompt_submit`` that
sees it consumes it, and calls with a consumed token or none (internal retries, stop
continuations) return the turn's verdict without firing again.
"""

from __future__ import annotations

import contextlib
import contextvars
import logging
import os
import uuid
from collections.abc import Callable, Coroutine, Iterable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import anyio
import anyio.lowlevel
import attrs

from hookwire import events as ev
from hookwire import problems as _problems
from hookwire.events import Seam, SeamEvent, SessionInfo
from hookwire.hosts import HostProfile
from hookwire.verdicts import Answer, Decision, Halt, Verdict, stop_capped
from hookwire.wake import WakeCallback
from hookwire.wake import problems as wake_problems

if TYPE_CHECKING:
    from anyio.abc import TaskGroup

    from hookwire.kernel import Kernel

log = logging.getLogger("hookwire")


@attrs.define(eq=False)
class TurnOrigin:
    """The token of one user turn: minted at ingress, consumed by the first ``prompt_submit``."""

    session: Session
    prompt_id: str
    consumed: bool = False
    verdict: Verdict | None = None
    done: anyio.Event | None = None


_ORIGIN: contextvars.ContextVar[TurnOrigin | None] = contextvars.ContextVar(
    "hookwire_turn_origin", default=None)


def current_origin() -> TurnOrigin | None:
    """The turn-origin token active in this context, if any."""
    return _ORIGIN.get()


class Session:
    """One agent session. Create it with :meth:`Kernel.session`.

    ``max_stop_blocks`` caps how many times in a row stop hooks may keep one turn going
    (``None``: no cap, as Codex; a host may set Claude Code's documented cap). ``host`` (a
    :class:`~hookwire.hosts.HostProfile` or a declared host's name) and ``tools`` (the names of
    the runtime's tools, also given later with :meth:`declare_tools`) let the session say which
    configured hooks can never run here: see :attr:`problems`.
    """

    def __init__(self, kernel: Kernel, info: SessionInfo | None = None, *,
                 max_stop_blocks: int | None = None, host: HostProfile | str | None = None,
                 tools: Iterable[str] | None = None, on_wake: WakeCallback | None = None,
                 **fields: Any) -> None:
        if info is None:
            cwd = str(fields.pop("cwd", None) or os.getcwd())
            info = SessionInfo(
                session_id=fields.pop("session_id", None) or str(uuid.uuid4()),
                cwd=cwd,
                project_dir=str(fields.pop("project_dir", None) or cwd),
                **fields,
            )
        elif fields:
            info = attrs.evolve(info, **fields)
        self.kernel = kernel
        self.info = info
        if isinstance(host, str):
            hosts = kernel.hosts
            if host not in hosts:
                raise ValueError(f"unknown host {host!r} (declared: {', '.join(sorted(hosts))})")
            host = hosts[host]
        self.host: HostProfile | None = host
        self.tool_names: tuple[str, ...] | None = tuple(tools) if tools is not None else None
        self.on_wake = on_wake  #: called when a background hook wakes the agent (.wake)
        #: Why configured hooks cannot run in this session (config problems, events the host
        #: never emits, matchers that match none of its tools, prompts outside a turn); each is
        #: logged once as a warning on the ``hookwire`` logger. Filled when the session starts.
        self.problems: tuple[_problems.Problem, ...] = ()
        self._turns_seen = False
        self.max_stop_blocks = max_stop_blocks
        self.halted: Halt | None = None
        #: A halt that ends the current turn only (``Halt.scope == "turn"``, Codex's).
        self.turn_halt: Halt | None = None
        self._start_halt: Halt | None = None
        self.prompt_id: str | None = None
        self._stop_blocks, self._stop_active = 0, False
        self.parts = kernel.parts  #: what its in-process hooks run on (:mod:`.hostparts`)
        self._subagent_blocks: dict[str, int] = {}
        self._start_done: anyio.Event | None = None
        self._deferred: list[Answer] = []
        self._tg: TaskGroup | None = None
        self._tg_cm: Any = None

    # -- lifecycle ---------------------------------------------------------------------------

    async def __aenter__(self) -> Session:
        self._tg_cm = anyio.create_task_group()
        self._tg = await self._tg_cm.__aenter__()
        self.check()
        return self

    def check(self) -> tuple[_problems.Problem, ...]:
        """Find (again) every reason a configured hook cannot run in this session, log the
        ones not logged before, and return them (also kept in :attr:`problems`)."""
        kernel = self.kernel
        found = [_problems.from_config(p) for p in kernel.config_problems]
        # an event with no seam is already one config problem per file: not once per hook
        said = {(p.location.file, p.event) for p in kernel.config_problems}
        found += [p for p in _problems.hook_problems(
            kernel.hooks, {n: i.dialect for n, i in kernel.dialects.items()}, self.host,
            self.tool_names, kernel.tools, kernel.trust_gate)
            if not (p.kind is _problems.ProblemKind.NO_SEAM and p.entry is not None
                    and (p.entry.location.file, p.entry.event) in said)]
        found += [p for p in self.problems if p.kind is _problems.ProblemKind.PROMPT_OUTSIDE_TURN]
        if self.on_wake is None:
            found += wake_problems(kernel.hooks, {n: i.dialect for n, i in kernel.dialects.items()})
        self.problems = tuple(found)
        _problems.log_new(self.problems, kernel.logged_problems)
        return self.problems

    def declare_tools(self, names: Iterable[str]) -> tuple[_problems.Problem, ...]:
        """The runtime's tools (by the names it calls them), once the host knows them: hooks
        whose matcher can match none of them are reported (:attr:`problems`, logged)."""
        names = tuple(dict.fromkeys([*(self.tool_names or ()), *names]))
        if names == self.tool_names:
            return self.problems
        self.tool_names = names
        return self.check()

    async def __aexit__(self, *exc: object) -> None:
        tg, cm = self._tg, self._tg_cm
        self._tg = self._tg_cm = None
        if tg is not None:
            tg.cancel_scope.cancel()  # ends background hooks (the runner kills their groups)
            await cm.__aexit__(*exc)

    def spawn_background(self, fn: Callable[..., Coroutine[Any, Any, Any]], *args: Any) -> None:
        """Run ``fn(*args)`` in the session's task group without awaiting it: background
        hooks, and work a plugin starts from a synchronous observer (the audit plane). It is
        cancelled when the session closes (shield what must finish). Without ``async with``
        there is no task group: the work is skipped with a warning."""
        if self._tg is None:
            log.warning("background work skipped: use the session as `async with` to run it")
            return
        self._tg.start_soon(fn, *args)

    def defer(self, answer: Answer) -> None:
        """Keep a background hook's contexts and system messages for the next user turn's
        verdict (a dialect whose ``background_delivery`` is ``"next_turn"``)."""
        self._deferred.append(answer)

    def set_cwd(self, cwd: str) -> None:
        """The session's current directory changed (a tool ran ``cd``)."""
        self.info = attrs.evolve(self.info, cwd=str(cwd))

    async def dispatch(self, event: SeamEvent) -> Verdict:
        """Dispatch any seam event (the per-seam methods below build it for you)."""
        verdict = await self.kernel.dispatch(event, self)
        halt = verdict.halt
        if halt is not None and halt.scope == "turn":
            self.turn_halt = self.turn_halt or halt  # ends this turn, not the session
        elif halt is not None and self.halted is None:
            self.halted = halt  # sticky: the first halt stands
        return verdict

    # -- turn origin ---------------------------------------------------------------------------

    @contextlib.contextmanager
    def turn(self, prompt_id: str | None = None) -> Iterator[TurnOrigin]:
        """Mark a user turn's ingress. Nested calls inside it reuse the outer token."""
        current = _ORIGIN.get()
        if current is not None and current.session is self:
            yield current
            return
        self._turns_seen = True
        origin = TurnOrigin(session=self, prompt_id=prompt_id or str(uuid.uuid4()))
        token = _ORIGIN.set(origin)
        try:
            yield origin
        finally:
            _ORIGIN.reset(token)

    # -- seams ---------------------------------------------------------------------------------

    async def session_start(self, source: str = "startup", **fields: Any) -> Verdict:
        """Fire ``session_start``. Any ``prompt_submit`` waits until it has finished."""
        done = self._start_done
        if done is None or done.is_set():
            done = self._start_done = anyio.Event()
        return await self._session_start(done, source, fields)

    def session_start_soon(self, source: str = "startup", **fields: Any) -> None:
        """Fire ``session_start`` in the session's task group without waiting for it (a host
        that starts its session hooks in the background). The first ``prompt_submit`` still
        waits until they have finished."""
        done = self._start_done = anyio.Event()
        if self._tg is None:
            done.set()
            log.warning("session_start skipped: use the session as `async with` to start it "
                        "in the background")
            return
        self._tg.start_soon(self._session_start, done, source, fields)

    async def _session_start(self, done: anyio.Event, source: str,
                             fields: dict[str, Any]) -> Verdict:
        self.check()
        try:
            verdict = await self.dispatch(ev.SessionStart(source=source, **fields))
            self._start_halt = verdict.halt  # stops the next turn before any model request
            return verdict
        finally:
            done.set()

    async def prompt_submit(self, prompt: str, *, origin: TurnOrigin | None = None,
                            **fields: Any) -> Verdict:
        """Fire ``prompt_submit`` if this is the first submission of a user turn.

        ``origin`` defaults to the token of the enclosing :meth:`turn`. Without one (an
        internal turn) nothing fires and an empty verdict is returned; with a consumed one the
        turn's verdict is returned again.
        """
        origin = origin or _ORIGIN.get()
        if origin is None or origin.session is not self:
            if not self._turns_seen:
                self._outside_turn()
            return Verdict(seam=Seam.PROMPT_SUBMIT,
                           diagnostics=("internal turn: prompt_submit not fired",))
        if origin.consumed:
            if origin.done is not None:
                await origin.done.wait()
            assert origin.verdict is not None
            return origin.verdict
        origin.consumed = True
        origin.done = anyio.Event()
        try:
            if self._start_done is None:
                # a session_start the host started in the background (`start_soon`) may not
                # have begun yet: let it begin, so it gates this prompt as it must
                await anyio.lowlevel.checkpoint()
            if self._start_done is not None:
                await self._start_done.wait()
            self.prompt_id = origin.prompt_id
            self._stop_blocks = 0
            self._stop_active = False
            self.turn_halt, start_halt, self._start_halt = self._start_halt, self._start_halt, None
            if start_halt is not None:  # a session_start hook answered continue: false
                origin.verdict = Verdict(seam=Seam.PROMPT_SUBMIT, halt=start_halt, diagnostics=(
                    "session_start halted: this turn stops before any model request",))
                return origin.verdict
            fields.setdefault("prompt_id", origin.prompt_id)
            verdict = await self.dispatch(ev.PromptSubmit(prompt=prompt, **fields))
            if self._deferred:
                # background hooks' output from the previous turn arrives first
                late, self._deferred = self._deferred, []
                verdict = attrs.evolve(
                    verdict,
                    contexts=tuple(c for a in late for c in a.contexts) + verdict.contexts,
                    system_messages=(tuple(m for a in late for m in a.system_messages)
                                     + verdict.system_messages))
            origin.verdict = verdict
        except BaseException:
            origin.verdict = Verdict(seam=Seam.PROMPT_SUBMIT, decision=Decision.BLOCK,
                                     reason="prompt_submit was interrupted")
            raise
        finally:
            origin.done.set()
        return origin.verdict

    def _outside_turn(self) -> None:
        """``prompt_submit`` was called with no turn ever opened: say so once."""
        problem = _problems.outside_turn(self.kernel.hooks, {
            n: i.dialect for n, i in self.kernel.dialects.items()}, self.problems)
        if problem is not None:
            self.problems = (*self.problems, problem)
            _problems.log_new((problem,), self.kernel.logged_problems)

    async def user_prompt(self, prompt: str, **fields: Any) -> Verdict:
        """A turn's ingress and its submission at once, for hosts with a single entry point."""
        with self.turn():
            return await self.prompt_submit(prompt, **fields)

    def _turn_fields(self, fields: dict[str, Any]) -> dict[str, Any]:
        if self.prompt_id is not None:
            fields.setdefault("prompt_id", self.prompt_id)
        return fields

    async def tool_pre(self, tool_name: str, tool_input: Mapping[str, Any],
                       tool_use_id: str | None = None, **fields: Any) -> Verdict:
        """Fire ``tool_pre``; run the tool with ``verdict.effective_input`` unless
        ``verdict.denied`` (ASK: resolve it with :meth:`approve` or the host's own path)."""
        if not fields and (v := self.kernel.match_check.plain(tool_name, tool_input)):
            return v  # nothing can match: answered without building an event
        return await self.dispatch(ev.ToolPre(
            tool_name=tool_name, tool_input=dict(tool_input),
            tool_use_id=tool_use_id or "toolu_" + uuid.uuid4().hex[:24],
            **self._turn_fields(fields)))

    async def tool_post(self, tool_name: str, tool_input: Mapping[str, Any], tool_response: Any,
                        tool_use_id: str = "", **fields: Any) -> Verdict:
        """Fire ``tool_post`` after a tool succeeded (``tool_input``: what actually ran)."""
        return await self.dispatch(ev.ToolPost(
            tool_name=tool_name, tool_input=dict(tool_input), tool_response=tool_response,
            tool_use_id=tool_use_id, **self._turn_fields(fields)))

    async def tool_failure(self, tool_name: str, tool_input: Mapping[str, Any], error: str,
                           tool_use_id: str = "", **fields: Any) -> Verdict:
        """Fire ``tool_failure`` after a tool failed with ``error``."""
        return await self.dispatch(ev.ToolFailure(
            tool_name=tool_name, tool_input=dict(tool_input), error=error,
            tool_use_id=tool_use_id, **self._turn_fields(fields)))

    async def tool_batch(self, tool_calls: Sequence[Mapping[str, Any]], **fields: Any) -> Verdict:
        """Fire ``tool_batch`` once the tool calls of one model response have finished;
        ``denied`` ends the agent loop before the next model request."""
        return await self.dispatch(ev.ToolBatch(tool_calls=tuple(dict(c) for c in tool_calls),
                                                **self._turn_fields(fields)))

    async def stop_failure(self, error: str, error_details: str | None = None,
                           last_assistant_message: str | None = None,
                           **fields: Any) -> Verdict:
        """Fire ``stop_failure``: the turn ended because the model request failed."""
        return await self.dispatch(ev.StopFailure(
            error=error, error_details=error_details,
            last_assistant_message=last_assistant_message, **self._turn_fields(fields)))

    async def approve(self, tool_name: str, tool_input: Mapping[str, Any],
                      tool_use_id: str = "", *, reason: str | None = None,
                      **fields: Any) -> Verdict:
        """Ask the approval surface about a tool call answered ``ask``. ALLOW runs it (with
        ``effective_input``); DENY or no decision refuses it."""
        return await self.dispatch(ev.ApprovalRequest(
            tool_name=tool_name, tool_input=dict(tool_input), tool_use_id=tool_use_id,
            reason=reason, **self._turn_fields(fields)))

    async def stop(self, last_assistant_message: str | None = None, **fields: Any) -> Verdict:
        """Fire ``stop``. ``verdict.continue_turn``: run the model again with ``verdict.reason``
        as feedback. ``stop_hook_active`` and the block cap are handled here."""
        event = ev.Stop(stop_hook_active=self._stop_active,
                        last_assistant_message=last_assistant_message,
                        **self._turn_fields(fields))
        verdict = await self.dispatch(event)
        if verdict.continue_turn:
            self._stop_blocks += 1
            if self.max_stop_blocks is not None and self._stop_blocks > self.max_stop_blocks:
                return stop_capped(verdict, self.max_stop_blocks)
            self._stop_active = True
        return verdict

    async def subagent_start(self, agent_id: str, agent_type: str, **fields: Any) -> Verdict:
        """Fire ``subagent_start``; its contexts go to the sub-agent."""
        return await self.dispatch(ev.SubagentStart(agent_id=agent_id, agent_type=agent_type,
                                                    **self._turn_fields(fields)))

    async def subagent_stop(self, agent_id: str, agent_type: str,
                            last_assistant_message: str | None = None, **fields: Any) -> Verdict:
        """Fire ``subagent_stop``; ``continue_turn`` keeps the sub-agent going."""
        blocks = self._subagent_blocks.get(agent_id, 0)
        event = ev.SubagentStop(agent_id=agent_id, agent_type=agent_type,
                                stop_hook_active=blocks > 0,
                                last_assistant_message=last_assistant_message,
                                **self._turn_fields(fields))
        verdict = await self.dispatch(event)
        if verdict.continue_turn:
            self._subagent_blocks[agent_id] = blocks + 1
            if self.max_stop_blocks is not None and blocks + 1 > self.max_stop_blocks:
                return stop_capped(verdict, self.max_stop_blocks)
        return verdict

    async def pre_compact(self, trigger: str = "manual", custom_instructions: str | None = None,
                          **fields: Any) -> Verdict:
        """Fire ``pre_compact``; ``denied`` means do not compact."""
        return await self.dispatch(ev.PreCompact(trigger=trigger,
                                                 custom_instructions=custom_instructions,
                                                 **self._turn_fields(fields)))

    async def post_compact(self, trigger: str = "manual", compact_summary: str | None = None,
                           **fields: Any) -> Verdict:
        """Fire ``post_compact``."""
        return await self.dispatch(ev.PostCompact(trigger=trigger,
                                                  compact_summary=compact_summary,
                                                  **self._turn_fields(fields)))

    async def notification(self, message: str, notification_type: str | None = None,
                           **fields: Any) -> Verdict:
        """Fire ``notification``."""
        return await self.dispatch(ev.Notification(message=message,
                                                   notification_type=notification_type,
                                                   **self._turn_fields(fields)))

    async def session_end(self, reason: str = "other", **fields: Any) -> Verdict:
        """Fire ``session_end``."""
        return await self.dispatch(ev.SessionEnd(reason=reason, **self._turn_fields(fields)))

