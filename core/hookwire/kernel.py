"""The kernel: plugin manager, dialect registry, configured hooks and the dispatch loop."""

from __future__ import annotations

import inspect
import logging
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

import anyio
import attrs
import pluggy

from hookwire import _entrypoints, hookspecs, runner
from hookwire import events as ev
from hookwire.audit import Invocation, InvocationResult, next_id
from hookwire.dialect import ConfigProblem, ConfigResult, Dialect, HookEntry, Provenance
from hookwire.errors import PluginError, PluginLoadError, UnknownDialectError
from hookwire.events import CONTINUE_SEAMS, POST_SEAMS, Seam, SeamEvent, SessionInfo
from hookwire.fold import fold
from hookwire.hosts import REFERENCE, HostProfile
from hookwire.tools import ToolMap, ToolMapping, check_mapping, parse_mappings
from hookwire.verdicts import (
    KERNEL,
    Answer,
    Decision,
    HookReport,
    Source,
    SourceKind,
    Verdict,
    plain_verdict,
)

if TYPE_CHECKING:
    from hookwire.session import Session
    from hookwire.sync import SyncSession

log = logging.getLogger("hookwire")

#: Seams whose answers carry a tool input that chains from one contributor to the next.
_INPUT_SEAMS = frozenset({Seam.TOOL_PRE, Seam.APPROVE})
#: Seams whose events name a tool (or, for tool_batch, several): what a tool mapping rewrites.
_TOOL_SEAMS = frozenset({Seam.TOOL_PRE, Seam.TOOL_POST, Seam.TOOL_FAILURE, Seam.APPROVE,
                         Seam.TOOL_BATCH})
#: Seams on which a failing plugin with a closed failure policy refuses.
_BLOCKABLE = frozenset({Seam.PROMPT_SUBMIT, Seam.PRE_COMPACT})


@attrs.frozen(kw_only=True)
class DialectInfo:
    """An installed dialect and the distribution that provides it."""

    dialect: Dialect
    dist: str | None
    version: str | None
    entry_point: str | None


@attrs.frozen(kw_only=True)
class _Group:
    """The hooks of one dialect for one native event, in configuration order."""

    dialect: Dialect
    native: str
    entries: tuple[HookEntry, ...]
    #: the dialect has several native events on this seam: ask it which one fires
    ambiguous: bool = False


class Kernel:
    """Loads plugins and dialects, holds the configured hooks and dispatches seams.

    ``Kernel()`` loads every ``hookwire.dialects`` and ``hookwire.plugins`` entry point (each in
    its own error boundary: a broken one is recorded in :attr:`load_errors` and skipped).
    ``plugins`` are registered in-process after them. ``output_cap`` bounds each hook's stdout
    and stderr.
    """

    def __init__(
        self,
        *,
        plugins: Iterable[object] = (),
        load_entry_points: bool = True,
        output_cap: int = runner.DEFAULT_OUTPUT_CAP,
    ) -> None:
        self.pm = pluggy.PluginManager(hookspecs.PROJECT)
        self.pm.add_hookspecs(hookspecs)
        self.output_cap = output_cap
        self.load_errors: list[PluginLoadError] = []
        self.loaded: list[_entrypoints.Loaded] = []
        self._dialects: dict[str, DialectInfo] = {}
        self._hooks: list[HookEntry] = []
        self._active: set[str] = set()  # dialects whose companions are registered
        self._index: dict[Seam, tuple[_Group, ...]] = {}
        self._impls: dict[Seam, tuple[Any, ...]] = {}
        self._audit = False
        #: Runtime tools mapped onto harness tools (:meth:`map_tool`).
        self.tools = ToolMap()
        #: Problems the config readers reported (:meth:`add_config`, :meth:`discover`); every
        #: session logs them when it starts.
        self.config_problems: list[ConfigProblem] = []
        #: Problems already logged by this kernel's sessions (each is logged once).
        self.logged_problems: set[Any] = set()
        #: Called for each hook about to run (the trust tier, :mod:`hookwire.trust`, plugs in
        #: here). ``None``: run it. An Answer: do not run it, use the Answer. A callable: run
        #: it only through that check, which gets the built :class:`~hookwire.Command` and
        #: returns the Command to run (e.g. rewritten to a verified private copy) or an Answer
        #: to use instead; a check that raises runs nothing.
        self.trust_gate: Callable[[HookEntry, Seam], TrustDecision] | None = None
        if load_entry_points:
            self._load_entry_points()
        for plugin in plugins:
            self.register(plugin)
        self.pm.check_pending()

    # -- plugins and dialects ------------------------------------------------------------------

    def _load_entry_points(self) -> None:
        denied = _entrypoints.denied_names()
        for group, ep in _entrypoints.iter_entry_points():
            if ep.name in denied:
                log.info("entry point %s:%s disabled by %s", group, ep.name, _entrypoints.DENY_ENV)
                continue
            try:
                loaded = _entrypoints.load(group, ep)
                self._register(loaded.plugin, name=f"{group}:{ep.name}", origin=loaded)
            except PluginLoadError as exc:
                self.load_errors.append(exc)
                log.warning("%s", exc)
            except Exception as exc:  # registration or register_dialects failed
                dist = getattr(ep, "dist", None)
                err = PluginLoadError(group, ep.name, dist and dist.metadata["Name"],
                                      dist and dist.version, exc)
                self.load_errors.append(err)
                log.warning("%s", err)
            else:
                self.loaded.append(loaded)

    def register(self, plugin: object, name: str | None = None) -> None:
        """Register a native plugin (an object or module with ``@hookimpl`` methods)."""
        self._register(plugin, name=name, origin=None)
        self.pm.check_pending()

    def _register(self, plugin: object, *, name: str | None,
                  origin: _entrypoints.Loaded | None) -> None:
        registered = self.pm.register(plugin, name=name)
        try:
            for impl in self.pm.hook.register_dialects.get_hookimpls():
                if impl.plugin is not plugin:
                    continue
                # pluggy types a hookimpl's result `object`; the hookspec says what it is
                for dialect in cast("list[Dialect] | None", impl.function()) or ():
                    self._add_dialect(dialect, origin)
        except Exception:
            self.pm.unregister(plugin)
            raise
        if registered is not None:
            self._invalidate()

    def _add_dialect(self, dialect: Dialect, origin: _entrypoints.Loaded | None) -> None:
        if not isinstance(dialect, Dialect) or not dialect.name:
            raise TypeError(f"register_dialects returned {dialect!r}, not a named Dialect")
        if dialect.name in self._dialects:
            other = self._dialects[dialect.name]
            raise ValueError(
                f"dialect {dialect.name!r} is provided twice: by {other.dist or 'in-process'} "
                f"and by {origin.dist if origin else 'in-process'}"
            )
        self._dialects[dialect.name] = DialectInfo(
            dialect=dialect,
            dist=origin.dist if origin else None,
            version=origin.version if origin else None,
            entry_point=origin.name if origin else None,
        )

    @property
    def hosts(self) -> Mapping[str, HostProfile]:
        """Declared host profiles by name (the reference host's included)."""
        found: dict[str, HostProfile] = {REFERENCE.name: REFERENCE}
        for impl in self.pm.hook.register_hosts.get_hookimpls():
            try:
                profiles = cast("list[HostProfile] | None", impl.function()) or ()
            except Exception as exc:
                log.warning("plugin %s cannot declare its hosts: %r", impl.plugin_name, exc)
                continue
            for profile in profiles:
                found[profile.name] = profile
        return found

    def add_dialect(self, dialect: Dialect) -> None:
        """Register a dialect in-process (tests, embedded hosts)."""
        self._add_dialect(dialect, None)

    def unregister(self, plugin: object) -> None:
        """Remove a native plugin."""
        self.pm.unregister(plugin)
        self._invalidate()

    @property
    def dialects(self) -> Mapping[str, DialectInfo]:
        """Installed dialects by name."""
        return dict(self._dialects)

    def dialect(self, name: str) -> Dialect:
        """The dialect called ``name``; :class:`UnknownDialectError` lists the installed ones."""
        try:
            return self._dialects[name].dialect
        except KeyError:
            raise UnknownDialectError(name, list(self._dialects)) from None

    # -- configured hooks ------------------------------------------------------------------------

    def add_config(self, dialect: str, path: str | Path, *,
                   provenance: Provenance = Provenance.USER) -> ConfigResult:
        """Read one native config file with ``dialect`` and add its hooks (config order is kept
        across calls). Returns the reader's result, problems included."""
        result = self.dialect(dialect).read_config(Path(path), provenance=provenance)
        self.config_problems.extend(result.problems)
        self.add_hooks(result.entries)
        return result

    def discover(self, project_dir: str | Path = ".", *, dialects: Iterable[str] | None = None,
                 home: str | Path | None = None) -> list[tuple[str, ConfigResult]]:
        """Load every hook the harnesses themselves would load for a session in
        ``project_dir`` (each installed dialect's :meth:`Dialect.discover`, or only those
        named in ``dialects``): Claude Code's user, project, local and plugin layers, Codex's
        layers with its trust state, ... Returns each dialect's result, problems included;
        the problems are also logged when a session starts."""
        from hookwire.discovery import discover

        return discover(self, project_dir, dialects=dialects, home=home)

    # -- tool vocabulary -------------------------------------------------------------------------

    def map_tool(self, runtime: str, harness: str,
                 input: Mapping[str, str] | None = None) -> None:
        """Say once that runtime tool ``runtime`` is harness tool ``harness`` (``"Bash"``,
        ``"Write"``, ``"mcp__server__tool"`` ...), ``input`` mapping each harness field to the
        runtime argument that carries it (``{"command": "cmd"}``). Hooks then see the call in
        their harness's name and shape, and rewrites come back in the runtime's argument names.
        Raises :class:`~hookwire.errors.ConfigError` for a tool or field no dialect knows."""
        mapping = ToolMapping(runtime=runtime, harness=harness, input=dict(input or {}))
        check_mapping(mapping, {n: i.dialect.tools for n, i in self._dialects.items()})
        self.tools.add(mapping)

    def map_tools(self, tools: Mapping[str, Any]) -> None:
        """Several :meth:`map_tool` calls in the hooks file's ``tools:`` shape:
        ``{"run_shell": {"as": "Bash", "input": {"command": "cmd"}}}``."""
        for mapping in parse_mappings(tools):
            self.map_tool(mapping.runtime, mapping.harness, mapping.input)

    def add_hooks(self, entries: Iterable[HookEntry]) -> None:
        """Add configured hooks after those already present."""
        base = len(self._hooks)
        for i, entry in enumerate(entries):
            self.dialect(entry.dialect)  # fail early on an unknown dialect
            self._hooks.append(attrs.evolve(entry, order=base + i))
        self._index = self._build_index()
        for name in {e.dialect for e in self._hooks} - self._active:
            self._active.add(name)
            for companion in self.dialect(name).companions():
                self.register(companion, name=f"{name}:{type(companion).__name__}")

    @property
    def hooks(self) -> Sequence[HookEntry]:
        """Every configured hook, in configuration order."""
        return tuple(self._hooks)

    def _build_index(self) -> dict[Seam, tuple[_Group, ...]]:
        grouped: dict[tuple[str, str], list[HookEntry]] = {}
        for entry in self._hooks:
            grouped.setdefault((entry.dialect, entry.event), []).append(entry)
        index: dict[Seam, list[_Group]] = {}
        for (dname, native), entries in grouped.items():
            dialect = self.dialect(dname)
            spec = dialect.events.get(native)
            if spec is None or spec.seam is None:
                continue  # reported by the config reader / `hookwire check`
            on_seam = sum(1 for s in dialect.events.values() if s.seam is spec.seam)
            index.setdefault(spec.seam, []).append(
                _Group(dialect=dialect, native=native, entries=tuple(entries),
                       ambiguous=on_seam > 1 or type(dialect).native_event
                       is not Dialect.native_event))
        return {seam: tuple(groups) for seam, groups in index.items()}

    def _invalidate(self) -> None:
        self._impls.clear()
        self._audit = any(
            getattr(self.pm.hook, name).get_hookimpls() for name in hookspecs.AUDIT_SPECS)

    def _seam_impls(self, seam: Seam) -> tuple[Any, ...]:
        impls = self._impls.get(seam)
        if impls is None:
            found = getattr(self.pm.hook, seam.value).get_hookimpls()
            # pluggy calls the last-registered implementation first; keep that order.
            impls = tuple(i for i in reversed(found) if not (i.hookwrapper or i.wrapper))
            self._impls[seam] = impls
        return impls

    # -- sessions ----------------------------------------------------------------------------------

    def session(self, info: SessionInfo | None = None, **kwargs: Any) -> Session:
        """A new :class:`~hookwire.Session`; pass a :class:`SessionInfo` or its fields
        (``session_id``, ``cwd``, ``project_dir``, ``transcript_path``, ``permission_mode``,
        ``model``) plus session options (``max_stop_blocks``)."""
        from hookwire.session import Session

        return Session(self, info, **kwargs)

    def sync_session(self, **kwargs: Any) -> SyncSession:
        """A blocking :class:`~hookwire.sync.SyncSession` for synchronous runtimes."""
        from hookwire.sync import SyncSession

        return SyncSession(self, **kwargs)

    # -- dispatch ----------------------------------------------------------------------------------

    async def dispatch(self, event: SeamEvent, session: Session) -> Verdict:
        """Run every contributor of ``event``'s seam and fold their answers into its verdict."""
        seam = event.seam
        selected: list[tuple[_Group, list[HookEntry], SeamEvent]] = []
        mapped = bool(self.tools) and seam in _TOOL_SEAMS
        for group in self._index.get(seam, ()):
            native = group.native
            if group.ambiguous and group.dialect.native_event(event) != native:
                continue
            view = self._view(event, group.dialect) if mapped else event
            chosen = group.dialect.select(group.entries, view, native, session.info)
            if chosen:
                selected.append((group, chosen, view))
        impls = self._impls.get(seam)
        if impls is None:
            impls = self._seam_impls(seam)
        original = getattr(event, "tool_input", None) if seam in _INPUT_SEAMS else None
        if not selected and not impls:
            # the hot path: nothing to run (no hook matched, no plugin implements the seam)
            verdict = plain_verdict(seam, original) if original is not None else _EMPTY[seam]
            if self._audit:
                self._audit_call("seam_verdict", event=event, session=session, verdict=verdict)
            return verdict

        reports: list[HookReport] = []
        if seam in POST_SEAMS:
            answers = await self._run_plugins(impls, event, session)
            answers += await self._run_hooks(selected, event, session, reports)
        else:
            answers = await self._run_hooks(selected, event, session, reports)
            if not any(_stops_chain(seam, a) for a in answers):
                running = event
                if seam in _INPUT_SEAMS:
                    for a in answers:
                        if a.updated_input is not None:
                            running = _with_input(event, a.updated_input)
                answers += await self._run_plugins(impls, running, session)
        verdict = fold(seam, answers, original_input=original, hooks=reports)
        if verdict.halt is not None:
            session._note_halt(verdict.halt)
        if self._audit:
            self._audit_call("seam_verdict", event=event, session=session, verdict=verdict)
        return verdict

    def _view(self, event: SeamEvent, dialect: Dialect) -> SeamEvent:
        """``event`` as ``dialect``'s hooks see it: each mapped tool under the harness's name
        and in its shape (the event itself when no tool of it is mapped)."""
        if isinstance(event, ev.ToolBatch):
            calls: list[Mapping[str, Any]] = []
            for call in event.tool_calls:
                mapping = self.tools.get(str(call.get("tool_name")))
                if mapping is None:
                    calls.append(call)
                    continue
                name, tool_input = dialect.tools.view(
                    mapping.harness, mapping.to_harness(call.get("tool_input") or {}))
                calls.append({**call, "tool_name": name, "tool_input": tool_input})
            return attrs.evolve(event, tool_calls=tuple(calls)) if calls != list(
                event.tool_calls) else event
        runtime = getattr(event, "tool_name", None)
        mapping = self.tools.get(runtime) if isinstance(runtime, str) else None
        if mapping is None:
            return event
        name, tool_input = dialect.tools.view(
            mapping.harness, mapping.to_harness(getattr(event, "tool_input", {})))
        changes: dict[str, Any] = {"tool_name": name, "tool_input": tool_input}
        return attrs.evolve(event, **changes)

    def _unview(self, answer: Answer, event: SeamEvent, view: SeamEvent,
                dialect: Dialect) -> Answer:
        """A hook's answer with its rewrite carried back from the harness's shape to the
        runtime's argument names; a rewrite that cannot be carried back refuses the call
        (the hook asked for a different call than the one that would run)."""
        if answer.updated_input is None or view is event:
            return answer
        mapping = self.tools.get(getattr(event, "tool_name", ""))
        if mapping is None:
            return answer
        viewed = str(getattr(view, "tool_name", ""))
        back = dialect.tools.unview(mapping.harness, viewed, answer.updated_input)
        if back is None:
            why = (f"the hook rewrote the {viewed} call into a form that runtime tool "
                   f"{mapping.runtime!r} (mapped as {mapping.harness}) cannot take")
            return attrs.evolve(answer, decision=Decision.DENY, reason=why, updated_input=None,
                                diagnostics=(*answer.diagnostics, why))
        shape = dialect.tools.shape(mapping.harness) or next(
            (s for i in self._dialects.values() if (s := i.dialect.tools.shape(
                mapping.harness))), None)
        return attrs.evolve(answer, updated_input=mapping.to_runtime(
            back, known=shape.fields if shape else ()))

    async def _run_hooks(self, selected: list[tuple[_Group, list[HookEntry], SeamEvent]],
                         event: SeamEvent, session: Session,
                         reports: list[HookReport]) -> list[Answer]:
        """Run the selected external hooks; answers come back in finish order, as each
        dialect's ``combine`` arranged them."""
        if not selected:
            return []
        done: list[tuple[_Group, HookEntry, Answer, HookReport]] = []

        async def one(group: _Group, entry: HookEntry, view: SeamEvent) -> None:
            answer, report = await self._run_hook(group.dialect, group.native, entry, view,
                                                  session)
            if view is not event:
                answer = self._unview(answer, event, view, group.dialect)
            done.append((group, entry, answer, report))

        async def serial(group: _Group, entries: list[HookEntry], view: SeamEvent) -> None:
            for entry in entries:
                await one(group, entry, view)

        foreground: list[tuple[_Group, list[HookEntry], SeamEvent]] = []
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
            try:
                answers.extend(group.dialect.combine(group.native, view, session.info,
                                                     results))
            except Exception:  # a dialect bug must not crash the host
                log.exception("dialect %s cannot combine answers", group.dialect.name)
                answers.extend(a for _, a in results)
        return answers

    async def _run_background(self, dialect: Dialect, native: str, entry: HookEntry,
                              event: SeamEvent, session: Session) -> None:
        """A background hook: nobody waits for it; only its contexts and system messages may
        count, at the next turn, when the dialect delivers them (``background_delivery``)."""
        answer, _ = await self._run_hook(dialect, native, entry, event, session)
        if dialect.background_delivery == "next_turn" and (answer.contexts
                                                          or answer.system_messages):
            session._defer(Answer(contexts=answer.contexts,
                                  system_messages=answer.system_messages, source=answer.source))

    async def _run_hook(self, dialect: Dialect, native: str, entry: HookEntry,
                        event: SeamEvent, session: Session) -> tuple[Answer, HookReport]:
        source = Source(kind=SourceKind.HOOK, name=entry.display, dialect=dialect.name,
                        event=native)
        gate = self.trust_gate(entry, event.seam) if self.trust_gate is not None else None
        check = None
        if gate is not None and not isinstance(gate, Answer):
            check, gate = gate, None  # a trusted hook: its command is checked once it is built
        if gate is not None:
            report = HookReport(dialect=dialect.name, event=native, command=entry.display,
                                outcome="untrusted", decision=gate.decision,
                                diagnostics=gate.diagnostics, trusted=False)
            return attrs.evolve(gate, source=source), report
        started = time.perf_counter()
        try:
            command = dialect.command(entry, event, native, session.info)
            if command.output_cap != self.output_cap:
                command = attrs.evolve(command, output_cap=self.output_cap)
        except Exception as exc:  # a dialect bug must not crash the host
            log.exception("dialect %s cannot build the command of %s", dialect.name, entry)
            diag = f"cannot build the command: {exc!r}"
            return Answer(diagnostics=(diag,), source=source), HookReport(
                dialect=dialect.name, event=native, command=entry.display,
                outcome="error", diagnostics=(diag,))
        if check is not None:
            try:
                checked = check(command)
            except Exception as exc:  # fail closed: a check that cannot decide runs nothing
                log.exception("trust check of %s failed", entry)
                checked = Answer(diagnostics=(f"trust check failed: {exc!r}",))
            if isinstance(checked, Answer):
                return attrs.evolve(checked, source=source), HookReport(
                    dialect=dialect.name, event=native, command=entry.display,
                    outcome="untrusted", decision=checked.decision,
                    diagnostics=checked.diagnostics, trusted=False)
            command = checked
        invocation = Invocation(id=next_id(), seam=event.seam, source=source,
                                session_id=session.info.session_id, native_event=native,
                                entry=entry, command=command)
        if self._audit:
            self._audit_call("hook_invoked", invocation=invocation)
        outcome = await runner.run(command)
        try:
            answer = dialect.interpret(entry, event, native, outcome)
        except Exception as exc:
            log.exception("dialect %s cannot interpret the outcome of %s", dialect.name, entry)
            answer = Answer(diagnostics=(f"cannot interpret the outcome: {exc!r}",))
        if answer.source is KERNEL:
            answer = attrs.evolve(answer, source=source)
        report = HookReport(
            dialect=dialect.name, event=native, command=entry.display,
            outcome=outcome.kind.value, exit_code=outcome.exit_code, signal=outcome.signal,
            timed_out=outcome.kind is runner.OutcomeKind.TIMED_OUT,
            duration_ms=outcome.duration_ms or (time.perf_counter() - started) * 1000,
            decision=answer.decision, diagnostics=answer.diagnostics,
        )
        if self._audit:
            self._audit_call("hook_result", result=InvocationResult(
                invocation=invocation, answer=answer, outcome=outcome, report=report))
        return answer, report

    async def _run_plugins(self, impls: Sequence[Any], event: SeamEvent,
                           session: Session) -> list[Answer]:
        seam = event.seam
        answers: list[Answer] = []
        for impl in impls:
            source = Source(kind=SourceKind.PLUGIN, name=impl.plugin_name)
            invocation = None
            if self._audit:
                invocation = Invocation(id=next_id(), seam=seam, source=source,
                                        session_id=session.info.session_id)
                self._audit_call("hook_invoked", invocation=invocation)
            args = {"event": event, "session": session}
            error: BaseException | None = None
            try:
                result = impl.function(*[args[name] for name in impl.argnames])
                if inspect.isawaitable(result):
                    result = await result
                if result is not None and not isinstance(result, Answer):
                    raise TypeError(f"returned {type(result).__name__}, not an Answer or None")
            except Exception as exc:
                error = PluginError(impl.plugin_name, seam.value, exc)
                log.warning("%s", error)
                result = _plugin_failure(seam, impl.plugin, error, source)
            if invocation is not None:
                self._audit_call("hook_result", result=InvocationResult(
                    invocation=invocation, answer=result or Answer(source=source), error=error))
            if result is None:
                continue
            if result.source is KERNEL:
                result = attrs.evolve(result, source=source)
            answers.append(result)
            if _stops_chain(seam, result):
                break
            if seam in _INPUT_SEAMS and result.updated_input is not None:
                event = _with_input(event, result.updated_input)
        return answers

    def _audit_call(self, name: str, **kwargs: Any) -> None:
        try:
            getattr(self.pm.hook, name)(**kwargs)
        except Exception:
            log.exception("audit observer failed in %s", name)


_EMPTY = {seam: Verdict(seam=seam) for seam in Seam}

#: What :attr:`Kernel.trust_gate` returns.
TrustDecision = Answer | Callable[[runner.Command], "runner.Command | Answer"] | None


def _with_input(event: SeamEvent, tool_input: Mapping[str, Any]) -> SeamEvent:
    """``event`` with ``tool_input`` replaced. Only called on the ``_INPUT_SEAMS``, whose event
    classes (``ToolPre``, ``ApprovalRequest``) have the field; the base ``SeamEvent`` has not,
    so the change goes by name."""
    changes: dict[str, Any] = {"tool_input": tool_input}
    return attrs.evolve(event, **changes)


def _stops_chain(seam: Seam, answer: Answer) -> bool:
    if answer.decision is Decision.DENY:
        return True
    return answer.decision is Decision.BLOCK and seam not in CONTINUE_SEAMS


def _plugin_failure(seam: Seam, plugin: object, error: PluginError, source: Source) -> Answer:
    """The answer of a plugin that raised: its ``hookwire_failure_policy`` attribute says
    ``open`` (default: no opinion, a diagnostic) or ``closed`` (refuse where the seam can)."""
    policy = getattr(plugin, "hookwire_failure_policy", "open")
    diag = (str(error),)
    if policy == "closed":
        if seam in (Seam.TOOL_PRE, Seam.APPROVE):
            return Answer(decision=Decision.DENY, reason=str(error), diagnostics=diag,
                          source=source)
        if seam in _BLOCKABLE:
            return Answer(decision=Decision.BLOCK, reason=str(error), diagnostics=diag,
                          source=source)
    return Answer(diagnostics=diag, source=source)
