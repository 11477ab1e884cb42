"""What a dialect is: the contract between the kernel and one wire format.

A dialect turns configured hooks of its harness (Claude Code, Codex, the portable profile, ...)
into processes and their outcomes into :class:`~hookwire.Answer` objects. The kernel does the
rest: which seam fires, the order, concurrency across dialects, folding, audit.

Third parties subclass :class:`Dialect` in their own distribution and return an instance from a
``register_dialects`` hook implementation exposed through the ``hookwire.dialects`` entry point.
"""

from __future__ import annotations

import enum
import functools
from collections.abc import Awaitable, Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, ClassVar

import attrs

from hookwire.events import SeamEvent, SessionInfo
from hookwire.runner import Command, Outcome
from hookwire.tools import EMPTY, Vocabulary
from hookwire.verdicts import Answer


class Provenance(enum.StrEnum):
    """Where a hook entry came from; trust attaches to this, never to the file."""

    USER = "user"          #: written by the user, or a file the user named explicitly
    PROJECT = "project"    #: written in the project's own hookwire file
    MANAGED = "managed"    #: a managed (administrator) settings file
    IMPORTED = "imported"  #: translated from a foreign config by ``hookwire import``
    LIVE = "live"          #: a foreign config read live (discovered, not named)
    PLUGIN = "plugin"      #: bundled with a plugin

    def __str__(self) -> str:
        return self.value


@attrs.frozen(kw_only=True)
class Location:
    """Where an entry is written: ``file``, 1-based ``line`` and a JSON-path ``pointer``."""

    file: str | None = None
    line: int | None = None
    pointer: str = "$"

    def __str__(self) -> str:
        where = self.file or "<memory>"
        if self.line:
            where += f":{self.line}"
        return f"{where} @ {self.pointer}"


@attrs.frozen(kw_only=True)
class EventSpec:
    """One native event of a dialect.

    ``seam`` is the kernel seam it rides on (``None``: known, but hookwire has no seam for it, so
    it is reported as not emitted). ``matcher_field`` names what the matcher is tested against
    (``None``: the event takes no matcher). ``can_block`` says whether a hook can stop anything.
    ``also`` names further seams the event may fire on; there the kernel asks
    :meth:`Dialect.native_event` whether it does (Codex's PostToolUse after a shell command
    that exited non-zero, which a host reports on ``tool_failure``).
    """

    name: str
    seam: Any  # hookwire.events.Seam | None
    matcher_field: str | None = None
    can_block: bool = False
    also: tuple[Any, ...] = ()


@attrs.frozen(kw_only=True)
class HookEntry:
    """One configured external hook, as its dialect's config reader understood it.

    ``command`` is shell text (``str``) or an argv (``tuple``); ``timeout`` is in seconds
    (``None``: the dialect's default). ``background`` hooks run without being awaited and their
    answers are ignored (Claude Code's ``async``). ``handler`` is the dialect's own typed
    handler (an attrs instance of the dialect's ``handler_type``: Claude Code's ``if``,
    ``onFailure``, ``statusMessage``, ...; ``None``: the dialect's defaults). ``source`` records
    the provenance hookwire's own file gave it (``imported:claude``, ``plugin:NAME``).
    ``order`` is the position in configuration order across every source. ``project`` is the
    folder of the repository whose files brought the hook (a project's settings, hooks file or
    the plugins they enable): such a hook runs only in a trusted folder or once approved
    (docs/trust.md). ``None``: a user-level or host-given source.
    """

    dialect: str
    event: str
    command: str | tuple[str, ...]
    matcher: str | None = None
    timeout: float | None = None
    background: bool = False
    provenance: Provenance = Provenance.USER
    location: Location = attrs.field(factory=Location)
    handler: Any = None
    source: str | None = None
    order: int = 0
    project: str | None = None

    @property
    def display(self) -> str:
        """The command as a person would write it."""
        if isinstance(self.command, str):
            return self.command
        import shlex

        return shlex.join(self.command)


class ProblemKind(enum.StrEnum):
    """What is wrong with a configured hook or its config (core decides by kind, never by the
    wording of a message)."""

    CONFIG = "config"                    #: a file (or a part of it) could not be read
    INVALID_HANDLER = "invalid handler"  #: a handler is malformed and was left out
    UNKNOWN_EVENT = "unknown event"      #: the dialect has no such event
    NO_SEAM = "no seam"                  #: hookwire has no seam for the hook's event
    INVALID_MATCHER = "invalid matcher"  #: the matcher can never be evaluated
    DISABLED = "disabled"                #: the harness's own config turned the hook off
    UNTRUSTED = "untrusted"              #: the harness's own trust record does not run it
    UNSUPPORTED = "unsupported"          #: a field or handler type hookwire cannot honour
    NOT_EMITTED = "not emitted"          #: the host never fires the hook's event
    NO_TOOL_MATCHES = "no tool matches"  #: the matcher can match none of the host's tools
    PROMPT_OUTSIDE_TURN = "prompt outside turn"  #: prompt hooks skipped: no turn was open
    PENDING = "pending"                  #: waits for approval (``hookwire trust``)

    def __str__(self) -> str:
        return self.value


@attrs.frozen(kw_only=True)
class ConfigProblem:
    """Something wrong in a config file that did not stop the rest of it from loading;
    ``kind`` says what, for code (``hookwire import`` and ``check`` decide by it)."""

    message: str
    location: Location
    event: str | None = None
    severity: str = "warning"  # "warning" or "error"
    kind: ProblemKind = ProblemKind.CONFIG

    def __str__(self) -> str:
        ev = f" [{self.event}]" if self.event else ""
        return f"{self.location}{ev}: {self.message}"


@attrs.frozen(kw_only=True)
class ConfigResult:
    """What a config reader found: the ``entries`` that load, the ``problems`` it reported, and
    dialect ``settings`` that apply to the whole source (Claude Code's ``disableAllHooks``)."""

    entries: tuple[HookEntry, ...] = ()
    problems: tuple[ConfigProblem, ...] = ()
    settings: Mapping[str, Any] = attrs.field(factory=dict)


@attrs.frozen(kw_only=True)
class Export:
    """How an entry of a foreign config is written into hookwire's own hooks file:
    ``options`` (the dialect-specific fields of the entry, as :meth:`Dialect.handler_from_options`
    reads them back), or ``rejected`` (why it cannot be), plus ``warnings`` for the report."""

    options: Mapping[str, Any] = attrs.field(factory=dict)
    rejected: str | None = None
    warnings: tuple[str, ...] = ()


@attrs.frozen(kw_only=True)
class HarnessTrust:
    """The harness's own trust state of an entry (:meth:`Dialect.harness_trust`).

    ``runs``: ``None`` when the harness keeps no record that applies (hookwire's trust gate
    decides), ``True`` when the harness trusts the hook (hookwire honours that), ``False`` when
    the harness will not run it; then ``kind`` says what, for code: :attr:`ProblemKind.DISABLED`
    (the harness switched it off) or :attr:`ProblemKind.UNTRUSTED` (not trusted yet). ``why``
    says it for a person (what ``hookwire check`` prints).
    """

    runs: bool | None = None
    why: str = ""
    kind: ProblemKind | None = None


#: No trust record of the harness applies: hookwire's trust gate decides.
NO_HARNESS_TRUST = HarnessTrust()


@attrs.frozen(kw_only=True)
class Prepared:
    """One hook made ready to run: the ``command`` (process, stdin, environment, timeout) and
    ``interpret``, which turns its :class:`~hookwire.Outcome` into the hook's
    :class:`~hookwire.Answer` by the harness's rules (it never raises for a bad hook).

    ``run``: a hook that is not a process (a model's judgement, an MCP tool call) runs in
    process: the kernel awaits ``run(parts)`` with the session's
    :class:`~hookwire.hostparts.HostParts` instead of spawning ``command``, which then only
    describes it (its text, stdin and timeout); see :func:`hookwire.hostparts.run`."""

    command: Command
    interpret: Callable[[Outcome], Answer]
    run: Callable[[Any], Awaitable[Outcome]] | None = None


class Dialect:
    """Base class of every dialect. Subclasses set the class attributes and override the methods.

    Class attributes: ``name`` (what users type: ``claude``), ``harness`` (the program and
    version it is faithful to), ``events`` (native name → :class:`EventSpec`), ``parallel``
    (whether the hooks of one event run concurrently, as the harness does),
    ``background_delivery`` (what becomes of a background hook's answer: ``"drop"``, or
    ``"next_turn"``: its contexts and system messages join the next ``prompt_submit`` verdict,
    as Codex delivers async hooks' output at the next turn boundary), ``background_limit``
    (how many of its background hooks may run at once in one session, the rest waiting for a
    place, as Codex allows 8; ``None``: no limit), ``tools`` (the harness's
    tool :class:`~hookwire.tools.Vocabulary`: names, input fields, aliases, and how a tool mapped
    by a host reaches this harness's hooks).
    """

    name: ClassVar[str] = ""
    harness: ClassVar[str] = ""
    events: ClassVar[Mapping[str, EventSpec]] = {}
    parallel: ClassVar[bool] = True
    background_delivery: ClassVar[str] = "drop"
    background_limit: ClassVar[int | None] = None
    tools: ClassVar[Vocabulary] = EMPTY

    def read_config(self, path: Path, *, provenance: Provenance = Provenance.USER) -> ConfigResult:
        """Read the hooks of one native config file. Malformed parts become ``problems``; a file
        that cannot be read at all raises :class:`~hookwire.errors.ConfigError`."""
        raise NotImplementedError(f"dialect {self.name!r} has no config reader")

    def discover(self, project_dir: Path, *, home: Path | None = None) -> ConfigResult:
        """Read every hook the harness itself would load for a session launched in
        ``project_dir``: its user, project and plugin layers, in the harness's order, with the
        harness's own switches (disabling, trust) applied as it applies them. ``home`` is the
        user's home directory (``None``: the real one); the harness's own environment variables
        for its config folder still apply. Files that are absent are skipped; a file that cannot
        be read becomes an ``error`` problem instead of stopping the rest. The default finds
        nothing (a dialect whose hooks are only ever named, or installed per client)."""
        return ConfigResult()

    # -- what core asks of a dialect (import, trust, check) -------------------------------------

    #: The attrs class of this dialect's typed handlers (``HookEntry.handler``), if any.
    handler_type: ClassVar[type | None] = None
    #: How the harness spells its placeholders in a command (variable name → the spelling
    #: ``hookwire import`` writes into an argv, which the dialect substitutes at run time).
    placeholders: ClassVar[Mapping[str, str]] = {}

    def config_paths(self, project_dir: Path, home: Path | None = None) -> list[Path]:
        """The native config files of this harness for a project, most specific first: the
        first is what ``hookwire import`` reads by default; ``hookwire check`` names any that
        exist but are not read. Default: none."""
        return []

    def handler_from_options(self, options: Mapping[str, Any]) -> Any:
        """The typed handler of an entry of hookwire's own file from its ``options`` mapping
        (and ``onFailure``, passed in as ``"onFailure"``). Raises
        :class:`~hookwire.errors.ConfigError` for a field the dialect does not take.
        Default: ``None`` (the dialect's defaults), any option rejected."""
        if options:
            from hookwire.errors import ConfigError

            raise ConfigError(f"dialect {self.name!r} takes no options "
                              f"(got {', '.join(sorted(options))})")
        return None

    def export(self, entry: HookEntry) -> Export:
        """How ``entry`` (read from a native config) is written into hookwire's own file."""
        return Export()

    def runs_on(self, entry: HookEntry) -> str | None:
        """What ``entry`` runs on when it is not a process (its :class:`Prepared` has a
        ``run``): ``"model"`` (the host's model) or ``"mcp"`` (its MCP sessions), as host
        profiles name what they lend, or ``"hookwire"`` (hookwire itself, as for an HTTP
        request: nothing lent, nothing to start). Default ``None``: a process."""
        return None

    def harness_trust(self, entry: HookEntry) -> HarnessTrust:
        """The harness's own trust state of ``entry`` (see :class:`HarnessTrust`). Default:
        none applies (``runs`` is ``None``): hookwire's trust gate alone decides."""
        return NO_HARNESS_TRUST

    def sample_command(self, entry: HookEntry, project_dir: str) -> Command:
        """The command ``entry`` runs in a session launched in ``project_dir`` (placeholders
        substituted), for pinning it at approval time. Default: :meth:`command` with an empty
        event of the entry's seam."""
        from hookwire.events import EVENT_TYPES

        spec = self.events.get(entry.event)
        if spec is None or spec.seam is None:
            raise ValueError(f"{self.name} event {entry.event} has no seam")
        cls = EVENT_TYPES[spec.seam]
        required: dict[str, Any] = {a.name: ("" if a.type in ("str", str) else {})
                                    for a in attrs.fields(cls) if a.default is attrs.NOTHING}
        event = cls(**required)
        info = SessionInfo(session_id="hookwire-trust", cwd=project_dir,
                           project_dir=project_dir)
        return self.command(entry, event, entry.event, info)

    def write_config(self, entries: Sequence[HookEntry]) -> dict[str, Any]:
        """This harness's own config document holding ``entries`` (for installers and
        exports). Default: not supported."""
        raise NotImplementedError(f"dialect {self.name!r} cannot write its config format")

    # -- events --------------------------------------------------------------------------------

    def native_event(self, event: SeamEvent) -> str | None:
        """The native event name a seam event fires as (``None``: this dialect has none).

        The default picks the only event mapped to the event's seam; dialects with several
        events on one seam override it.
        """
        for spec in self.events.values():
            if spec.seam is event.seam:
                return spec.name
        return None

    def select(self, entries: Sequence[HookEntry], event: SeamEvent, native: str,
               session: SessionInfo) -> list[HookEntry]:
        """The entries (all configured for ``native``) that must run for ``event`` in
        ``session``: matcher and filters tested (paths relative to ``session.cwd``), duplicates
        removed as the harness removes them. Must not spawn anything: it runs on every
        dispatch, so keep it cheap."""
        raise NotImplementedError

    def matches_tool(self, entry: HookEntry, native: str, tool_name: str) -> bool:
        """Whether ``entry`` (configured for tool event ``native``) would select a call of the
        tool this harness calls ``tool_name``, by its matcher alone (filters on the input, such
        as Claude Code's ``if``, are not considered). The kernel skips a tool call's dispatch
        when this says no for every hook, and a session warns about hooks it rules out for all
        of the host's tools, so it must agree with :meth:`select`. The default, for a dialect
        that does not say, is ``True`` ("may match"): nothing is skipped or warned about on a
        guess about its matcher syntax."""
        return True

    def prepare(self, entry: HookEntry, event: SeamEvent, native: str,
                session: SessionInfo) -> Prepared:
        """The one call the kernel makes per hook before running it: the command and the
        interpreter of its outcome. The default pairs :meth:`command` with :meth:`interpret`,
        and refuses an argv that still holds one of :attr:`placeholders` as a variable
        (:func:`hookwire.placeholders.unfilled`: the kernel reports the hook as an error
        instead of running it); a dialect may override it to share work between the two."""
        command = self.command(entry, event, native, session)
        if self.placeholders and command.argv is not None:
            from hookwire.placeholders import unfilled

            name = unfilled(command.argv, list(self.placeholders))
            if name is not None:  # it would run literally: a guard that never starts
                raise ValueError(f"placeholder {name} is not filled in {command.display!r}; "
                                 "fill it with hookwire.placeholders.substitute")
        return Prepared(command=command,
                        interpret=functools.partial(self.interpret, entry, event, native))

    def command(self, entry: HookEntry, event: SeamEvent, native: str,
                session: SessionInfo) -> Command:
        """The process to run for ``entry``: argv or shell text, stdin bytes, environment, cwd
        and timeout exactly as the harness would."""
        raise NotImplementedError

    def interpret(self, entry: HookEntry, event: SeamEvent, native: str,
                  outcome: Outcome) -> Answer:
        """Map one hook's outcome to its :class:`~hookwire.Answer` by the harness's exit-code
        and output rules and the entry's failure policy. Never raises for a bad hook."""
        raise NotImplementedError

    def wakes(self, entry: HookEntry) -> bool:
        """Whether background hook ``entry`` may wake the agent (its answer then carries
        ``Answer.wake``; :mod:`hookwire.wake`). Default: ``False``."""
        return False

    def combine(self, native: str, event: SeamEvent, session: SessionInfo,
                results: Sequence[tuple[HookEntry, Answer]]) -> list[Answer]:
        """Apply the harness's own rules for combining the answers of several hooks of one
        event before the kernel folds them. ``results`` pairs each entry that ran with its
        answer, in finish order; the answers returned are folded in the order given. The
        default returns the answers unchanged (the generic fold decides)."""
        return [answer for _, answer in results]

    def matcher_problem(self, entry: HookEntry) -> str | None:
        """Why ``entry``'s matcher is invalid for this harness (a regular expression its
        harness would reject, so the hook never runs), or ``None`` when it is valid or the
        event takes no matcher. ``hookwire check`` reports such a hook as ``invalid``. The
        default knows no matcher syntax: ``None``."""
        return None

    def render(self, verdict: Any, subject: Any) -> list[Any]:
        """What this harness gives the model for ``verdict`` (the share of a folded verdict its
        own hooks produced; :func:`hookwire.render.render` splits it): a list of
        :class:`~hookwire.render.ModelText` with the harness's exact wording and placement.
        ``subject`` (:class:`~hookwire.render.Subject`) names the tool call or prompt. Default:
        hookwire's neutral labelled form."""
        from hookwire.render import neutral

        return neutral(verdict, subject)

    def companions(self) -> Sequence[object]:
        """Native plugins this dialect needs beside its hooks (e.g. an observer that pairs
        events). The kernel registers them when the first hook of this dialect is added, so a
        dialect that is installed but unused costs nothing on dispatch. Default: none."""
        return ()

    def event_from_wire(self, native: str, data: Mapping[str, Any]) -> SeamEvent:
        """Build the seam event for ``native`` from fields spelled as this dialect spells them
        (what ``hookwire fire --data`` receives). Raises
        :class:`~hookwire.errors.UnknownEventError` or :class:`~hookwire.errors.EventDataError`.
        Default: not supported (``hookwire fire`` then fails for this dialect)."""
        raise NotImplementedError(f"dialect {self.name!r} cannot build an event from wire "
                                  "data (it does not implement event_from_wire)")

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name!r} ({self.harness})>"
