"""The dispatch loop of one seam event: select → prepare → run → interpret → combine → native
plugins → fold.

External hooks run before native plugins on pre seams and after them on post seams (design:
"Order on one tool call"). Each hook costs its dialect two calls: :meth:`Dialect.prepare` and
the prepared ``interpret``; ``select`` and ``combine`` are once per group of hooks. The session
the loop is handed owns what outlives the call: background work and deferred answers.
"""

from __future__ import annotations

import inspect
import logging
import time
import weakref
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import anyio
import attrs

from hookwire import _modes, _plans, hostparts, runner
from hookwire import wake as _wake
from hookwire.audit import Invocation, InvocationResult, next_id
from hookwire.dialect import Dialect, HookEntry
from hookwire.errors import PluginError
from hookwire.events import CONTINUE_SEAMS, POST_SEAMS, Seam, SeamEvent
from hookwire.fold import fold
from hookwire.index import Group, Index
from hookwire.registry import Registry
from hookwire.tools import ToolMap, unview_input, view_event
from hookwire.verdicts import (
    KERNEL,
    Answer,
    Decision,
    HookReport,
    PluginReport,
    Source,
    SourceKind,
    Verdict,
    plain_verdict,
)

if TYPE_CHECKING:
    from hookwire.session import Session

log = logging.getLogger("hookwire")

#: Seams whose answers carry a tool input that chains from one contributor to the next.
INPUT_SEAMS = frozenset({Seam.TOOL_PRE, Seam.APPROVE})
#: Seams whose events name a tool (or, for tool_batch, several): what a tool mapping rewrites.
TOOL_SEAMS = frozenset({Seam.TOOL_PRE, Seam.TOOL_POST, Seam.TOOL_FAILURE, Seam.APPROVE,
                        Seam.TOOL_BATCH})

#: What the trust gate returns for a hook (see :attr:`Dispatcher.trust_gate`).
TrustDecision = Answer | Callable[[runner.Command], "runner.Command | Answer"] | None

_EMPTY = {seam: Verdict(seam=seam) for seam in Seam}
_Selected = tuple[Group, list[HookEntry], SeamEvent]


class Dispatcher:
    """Runs one seam event through the configured hooks and the native plugins."""

    def __init__(self, registry: Registry, index: Index, tools: ToolMap,
                 output_cap: int) -> None:
        self.registry = registry
        self.index = index
        self.tools = tools
        self.output_cap = output_cap
        #: Called for each hook about to run (the trust tier, :mod:`hookwire.trust`, plugs in
        #: here). ``None``: run it. An Answer: do not run it, use the Answer. A callable: run
        #: it only through that check, which gets the built :class:`~hookwire.Command` and
        #: returns the Command to run (e.g. rewritten to a verified private copy) or an Answer
        #: to use instead; a check that raises runs nothing.
        self.trust_gate: Callable[[HookEntry, Seam], TrustDecision] | None = None
        #: Shell elision (:func:`hookwire._plans.elide`): the host's choice (``Kernel``), the
        #: hooks file's, and per-session overrides; the first one set wins, in reverse order.
        self.shell_elision: bool | None = None
        self.file_shell_elision: bool | None = None
        self.session_shell_elision: weakref.WeakKeyDictionary[Session, bool] = (
            weakref.WeakKeyDictionary())
        #: The enforcement mode: the host's choice and the hooks file's (:mod:`_modes`).
        self.enforcement: str | None = None
        self.file_enforcement: str | None = None
        self._sources = _plans.PlanCache()  # (entry, dialect, native) -> its Source
        #: per session and dialect: the places of its background hooks (``background_limit``)
        self._background: weakref.WeakKeyDictionary[
            Session, dict[str, anyio.CapacityLimiter]] = weakref.WeakKeyDictionary()

    def set_shell_elision(self, session: Session, elision: bool | None) -> Session:
        """Give ``session`` its own shell elision choice (``None``: none of its own)."""
        if elision is not None:
            self.session_shell_elision[session] = bool(elision)
        return session

    def mode(self) -> str:
        """The enforcement mode in force (``enforce``, ``fail-closed``, ``shadow``)."""
        return _modes.active(self.enforcement, self.file_enforcement)

    def elides(self, session: Session) -> bool:
        """Whether ``session``'s shell hooks run without the shell where they can."""
        chosen = self.session_shell_elision.get(session) if self.session_shell_elision else None
        if chosen is None:
            chosen = self.shell_elision
        return bool(self.file_shell_elision if chosen is None else chosen)

    async def dispatch(self, event: SeamEvent, session: Session) -> Verdict:
        """Every contributor of ``event``'s seam, folded into its verdict."""
        seam = event.seam
        registry = self.registry
        if registry.observed:
            registry.audit_call("seam_started", event=event, session=session)
        selected: list[_Selected] = []
        mapped = self.tools.active and seam in TOOL_SEAMS
        for group in self.index.by_seam.get(seam, ()):
            native = group.native
            if group.ambiguous and group.dialect.native_event(event) != native:
                continue
            view = view_event(event, self.tools, group.dialect.tools) if mapped else event
            chosen = group.dialect.select(group.entries, view, native, session.info)
            if chosen:
                selected.append((group, chosen, view))
        impls = registry.impls.get(seam)
        if impls is None:
            impls = registry.seam_impls(seam)
        original = getattr(event, "tool_input", None) if seam in INPUT_SEAMS else None
        if not selected and not impls:
            # the hot path: nothing to run (no hook matched, no plugin implements the seam)
            verdict = plain_verdict(seam, original) if original is not None else _EMPTY[seam]
            if log.isEnabledFor(logging.DEBUG):
                log.debug("seam %s fired: no hook matched, no plugin implements it", seam)
            if registry.observed:
                registry.audit_call("seam_verdict", event=event, session=session,
                                    verdict=verdict)
            return verdict

        if log.isEnabledFor(logging.DEBUG):
            log.debug("seam %s fired: hooks selected %s; plugins %s", seam,
                      [f"{g.dialect.name}:{g.native} {e.display}" for g, es, _ in selected
                       for e in es] or "none", [i.plugin_name for i in impls] or "none")
        reports: list[HookReport] = []
        rows: list[PluginReport] = []
        if seam in POST_SEAMS:
            answers = await self._run_plugins(impls, event, session, rows)
            answers += await self._run_hooks(selected, event, session, reports)
        else:
            answers = await self._run_hooks(selected, event, session, reports)
            if not any(_stops_chain(seam, a) for a in answers):
                running = event
                if seam in INPUT_SEAMS:
                    for a in answers:
                        if a.updated_input is not None:
                            running = _with_input(event, a.updated_input)
                answers += await self._run_plugins(impls, running, session, rows)
        verdict = fold(seam, answers, original_input=original, hooks=reports, plugins=rows)
        if self.mode() == _modes.SHADOW:
            verdict = _modes.shadowed(verdict)
        if log.isEnabledFor(logging.DEBUG):
            log.debug("seam %s verdict: %s%s%s", seam, verdict.decision.value,
                      f" ({verdict.reason})" if verdict.reason else "",
                      "; input rewritten" if verdict.input_rewritten else "")
        if registry.observed:
            registry.audit_call("seam_verdict", event=event, session=session, verdict=verdict)
        return verdict

    # -- external hooks ------------------------------------------------------------------------

    async def _run_hooks(self, selected: list[_Selected], event: SeamEvent, session: Session,
                         reports: list[HookReport]) -> list[Answer]:
        """Run the selected external hooks; answers come back in finish order, as each
        dialect's ``combine`` arranged them."""
        if not selected:
            return []
        if len(selected) == 1 and len(selected[0][1]) == 1 and not selected[0][1][0].background:
            # the usual case, one hook: no task group, no reordering
            group, (entry,), view = selected[0]
            answer, report = await self._run_hook(group.dialect, group.native, entry, view,
                                                  session)
            if view is not event and answer.updated_input is not None:
                answer = self._carry_back(answer, event, view, group.dialect)
            reports.append(report)
            return _combine(group, view, session, [(entry, answer)])
        done: list[tuple[Group, HookEntry, Answer, HookReport]] = []

        async def one(group: Group, entry: HookEntry, view: SeamEvent) -> None:
            answer, report = await self._run_hook(group.dialect, group.native, entry, view,
                                                  session)
            if view is not event and answer.updated_input is not None:
                answer = self._carry_back(answer, event, view, group.dialect)
            done.append((group, entry, answer, report))

        async def serial(group: Group, entries: list[HookEntry], view: SeamEvent) -> None:
            for entry in entries:
                await one(group, entry, view)

        foreground: list[_Selected] = []
        for group, entries, view in selected:
            fg = [e for e in entries if not e.background]
            for entry in entries:
                if entry.background:
                    session.spawn_background(self._run_background, group.dialect, group.native,
                                             entry, view, session)
            if fg:
                foreground.append((group, fg, view))
        if len(foreground) == 1 and len(foreground[0][1]) == 1:
            group, entries, view = foreground[0]
            await one(group, entries[0], view)
        else:
            async with anyio.create_task_group() as tg:
                for group, entries, view in foreground:
                    if group.dialect.parallel:
                        for entry in entries:
                            tg.start_soon(one, group, entry, view)
                    else:
                        tg.start_soon(serial, group, entries, view)
        reports.extend(r for *_, r in done)
        # Each dialect combines its own answers (Dialect.combine); groups keep finish order.
        last = {id(g): i for i, (g, *_) in enumerate(done)}
        answers: list[Answer] = []
        for group, _, view in sorted(selected, key=lambda s: last.get(id(s[0]), -1)):
            results = [(e, a) for g, e, a, _ in done if g is group]
            if not results:
                continue
            answers.extend(_combine(group, view, session, results))
        return answers

    def _carry_back(self, answer: Answer, event: SeamEvent, view: SeamEvent,
                    dialect: Dialect) -> Answer:
        """The rewrite of a hook that saw a mapped tool, in the runtime's argument names; one
        that cannot be carried back refuses the call (the hook asked for another call than
        the one that would run)."""
        assert answer.updated_input is not None
        back = unview_input(answer.updated_input, event, view, self.tools, dialect.tools,
                            self.registry.vocabularies().values())
        if isinstance(back, str):
            return attrs.evolve(answer, decision=Decision.DENY, reason=back, updated_input=None,
                                diagnostics=(*answer.diagnostics, back))
        return attrs.evolve(answer, updated_input=back)

    async def _run_background(self, dialect: Dialect, native: str, entry: HookEntry,
                              event: SeamEvent, session: Session) -> None:
        """A background hook: nobody waits for it; only its contexts and system messages may
        count, at the next turn, when the dialect delivers them (``background_delivery``)."""
        if dialect.background_limit is None:
            answer, _ = await self._run_hook(dialect, native, entry, event, session)
        else:  # a hook past the limit waits for a place, as in Codex
            places = self._background.setdefault(session, {})
            limiter = places.get(dialect.name)
            if limiter is None:
                limiter = places[dialect.name] = anyio.CapacityLimiter(dialect.background_limit)
            async with limiter:
                answer, _ = await self._run_hook(dialect, native, entry, event, session)
        if answer.wake is not None:
            await _wake.deliver(session, answer)
        if dialect.background_delivery == "next_turn" and (answer.contexts
                                                          or answer.system_messages):
            session.defer(Answer(contexts=answer.contexts,
                                 system_messages=answer.system_messages, source=answer.source))

    def _source(self, entry: HookEntry, dialect: Dialect, native: str) -> Source:
        """The :class:`Source` naming ``entry``'s answers (one per entry and native event)."""
        return self._sources.get(entry, dialect, native, lambda: Source(
            kind=SourceKind.HOOK, name=entry.display, dialect=dialect.name, event=native))

    async def _run_hook(self, dialect: Dialect, native: str, entry: HookEntry,
                        event: SeamEvent, session: Session) -> tuple[Answer, HookReport]:
        source = self._source(entry, dialect, native)
        gate = self.trust_gate(entry, event.seam) if self.trust_gate is not None else None
        check = None
        if gate is not None and not isinstance(gate, Answer):
            check, gate = gate, None  # a trusted hook: its command is checked once it is built
        if gate is not None:
            return _refused(gate, source, dialect, native, entry)
        started = time.perf_counter()
        try:
            prepared = dialect.prepare(entry, event, native, session.info)
            command = prepared.command
            if command.output_cap != self.output_cap:
                command = attrs.evolve(command, output_cap=self.output_cap)
        except Exception as exc:  # a dialect bug must not crash the host
            log.exception("dialect %s cannot build the command of %s", dialect.name, entry)
            diag = f"cannot build the command: {exc!r}"
            return Answer(diagnostics=(diag,), source=source), HookReport(
                dialect=dialect.name, event=native, command=entry.display,
                outcome="error", diagnostics=(diag,))
        if check is not None and prepared.run is None:  # in process: its text is pinned
            try:
                checked = check(command)
            except Exception as exc:  # fail closed: a check that cannot decide runs nothing
                log.exception("trust check of %s failed", entry)
                checked = Answer(diagnostics=(f"trust check failed: {exc!r}",))
            if isinstance(checked, Answer):
                return _refused(checked, source, dialect, native, entry)
            command = checked
        if command.shell is not None and prepared.run is None and self.elides(session):
            command = _plans.elide(command)
        audit = self.registry.observed
        if audit:
            invocation = Invocation(id=next_id(), seam=event.seam, source=source,
                                    session_id=session.info.session_id, native_event=native,
                                    entry=entry, command=command)
            self.registry.audit_call("hook_invoked", invocation=invocation)
        outcome = await (runner.run(command) if prepared.run is None else hostparts.run(
            prepared.run, session.parts, command.timeout, output_cap=command.output_cap))
        try:
            answer = prepared.interpret(outcome)
        except Exception as exc:
            log.exception("dialect %s cannot interpret the outcome of %s", dialect.name, entry)
            answer = Answer(diagnostics=(f"cannot interpret the outcome: {exc!r}",))
        if answer.source is KERNEL:
            answer = attrs.evolve(answer, source=source)
        answer = _modes.after_run(self.mode(), dialect, native, entry, event.seam, command,
                                  outcome, answer)
        report = HookReport(
            dialect=dialect.name, event=native, command=source.name,
            outcome=outcome.kind.value, exit_code=outcome.exit_code, signal=outcome.signal,
            timed_out=outcome.kind is runner.OutcomeKind.TIMED_OUT,
            duration_ms=outcome.duration_ms or (time.perf_counter() - started) * 1000,
            decision=answer.decision, diagnostics=answer.diagnostics, escaped=outcome.escaped,
        )
        if audit:
            self.registry.audit_call("hook_result", result=InvocationResult(
                invocation=invocation, answer=answer, outcome=outcome, report=report))
        if log.isEnabledFor(logging.DEBUG):
            log.debug("hook %s:%s %s: %s (exit %s) in %.1f ms, decision %s", dialect.name,
                      native, entry.display, report.outcome, report.exit_code,
                      report.duration_ms, answer.decision.value)
        return answer, report

    # -- native plugins ------------------------------------------------------------------------

    async def _run_plugins(self, impls: Sequence[Any], event: SeamEvent, session: Session,
                           rows: list[PluginReport]) -> list[Answer]:
        seam = event.seam
        registry = self.registry
        answers: list[Answer] = []
        for impl in impls:
            source = Source(kind=SourceKind.PLUGIN, name=impl.plugin_name)
            invocation = None
            if registry.observed:
                invocation = Invocation(id=next_id(), seam=seam, source=source,
                                        session_id=session.info.session_id)
                registry.audit_call("hook_invoked", invocation=invocation)
            args = {"event": event, "session": session}
            error: BaseException | None = None
            started = time.perf_counter()
            try:
                result = impl.function(*[args[name] for name in impl.argnames])
                if inspect.isawaitable(result):
                    result = await result
                if result is not None and not isinstance(result, Answer):
                    raise TypeError(f"returned {type(result).__name__}, not an Answer or None")
            except Exception as exc:
                error = PluginError(impl.plugin_name, seam.value, exc)
                log.warning("%s", error)
                result = _modes.plugin_failure(self.mode(), seam, impl.plugin, error, source)
            if log.isEnabledFor(logging.DEBUG):
                log.debug("plugin %s on %s: %s", impl.plugin_name, seam,
                          "raised" if error else result.decision.value if result else
                          "no opinion")
            rows.append(PluginReport(
                name=impl.plugin_name, decision=result.decision if result else Decision.NONE,
                outcome="raised" if error else "answered" if result else "no opinion",
                duration_ms=(time.perf_counter() - started) * 1000,
                diagnostics=result.diagnostics if result else ()))
            if invocation is not None:
                registry.audit_call("hook_result", result=InvocationResult(
                    invocation=invocation, answer=result or Answer(source=source), error=error))
            if result is None:
                continue
            if result.source is KERNEL:
                result = attrs.evolve(result, source=source)
            answers.append(result)
            if _stops_chain(seam, result):
                break
            if seam in INPUT_SEAMS and result.updated_input is not None:
                event = _with_input(event, result.updated_input)
        return answers


def _combine(group: Group, view: SeamEvent, session: Session,
             results: list[tuple[HookEntry, Answer]]) -> list[Answer]:
    """``group.dialect.combine`` of one group's results; a dialect bug must not crash the
    host (the answers are then taken as they are)."""
    try:
        return list(group.dialect.combine(group.native, view, session.info, results))
    except Exception:
        log.exception("dialect %s cannot combine answers", group.dialect.name)
        return [a for _, a in results]


def _refused(answer: Answer, source: Source, dialect: Dialect, native: str,
             entry: HookEntry) -> tuple[Answer, HookReport]:
    """The answer and report of a hook the trust gate did not let run."""
    return attrs.evolve(answer, source=source), HookReport(
        dialect=dialect.name, event=native, command=entry.display, outcome="untrusted",
        decision=answer.decision, diagnostics=answer.diagnostics, trusted=False)


def _with_input(event: SeamEvent, tool_input: Mapping[str, Any]) -> SeamEvent:
    """``event`` with ``tool_input`` replaced. Only called on the ``INPUT_SEAMS``, whose event
    classes (``ToolPre``, ``ApprovalRequest``) have the field; the base ``SeamEvent`` has not,
    so the change goes by name."""
    changes: dict[str, Any] = {"tool_input": tool_input}
    return attrs.evolve(event, **changes)


def _stops_chain(seam: Seam, answer: Answer) -> bool:
    if answer.decision is Decision.DENY:
        return True
    return answer.decision is Decision.BLOCK and seam not in CONTINUE_SEAMS
