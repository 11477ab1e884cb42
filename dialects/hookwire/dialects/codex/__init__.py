"""The Codex dialect: run a Codex user's hooks exactly as Codex CLI 0.171.0 runs them.

One module per concern, as in every dialect: :mod:`.events` (event table, seams),
:mod:`.config` (``hooks.json``, ``config.toml``, layers, plugins), :mod:`.matcher`,
:mod:`.payload` (stdin, shell, environment), :mod:`.outcome` (exit codes, outputs,
combination), :mod:`.trust` (Codex's own per-hook trust). The profile with every named
divergence is ``docs/dialects/codex.md``.
"""

from __future__ import annotations

import logging
import os
import tempfile
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, ClassVar

import attrs

from hookwire import events as hev
from hookwire.dialect import (
    NO_HARNESS_TRUST,
    ConfigResult,
    Dialect,
    EventSpec,
    Export,
    HarnessTrust,
    HookEntry,
    Prepared,
    ProblemKind,
    Provenance,
)
from hookwire.dialects.codex import config, matcher, outcome, payload, trust
from hookwire.dialects.codex import events as ev
from hookwire.dialects.codex import handler as _handler
from hookwire.dialects.codex import tools as _tools
from hookwire.dialects.codex.handler import CodexHandler
from hookwire.errors import EventDataError, UnknownEventError
from hookwire.events import SeamEvent, SessionInfo
from hookwire.plugin import declare
from hookwire.runner import Command, Outcome
from hookwire.tools import Vocabulary
from hookwire.verdicts import Answer

log = logging.getLogger("hookwire")

#: Provenances whose hooks were found, not named: Codex's trust gate applies to them when
#: they were read from a Codex file (they carry its ``key``/``hash``). Imported entries are not
#: among them: once written into hookwire's own file, hookwire's trust decides (a Codex state
#: copied by an older import is ignored).
DISCOVERED = frozenset({Provenance.LIVE, Provenance.PLUGIN})


class CodexDialect(Dialect):
    """Codex CLI 0.171.0 hooks.

    ``codex_home`` is where the user's ``config.toml`` (and its ``[hooks.state]`` trust
    records) live (default ``$CODEX_HOME``, else ``~/.codex``). ``shell`` overrides the user
    shell argv prefix (default: the account's shell with ``-c``). ``spill_dir`` receives
    oversized hook output (default ``<tmp>/hook_outputs``). ``halt_scope``: ``continue: false``
    ends the turn, as in Codex (``"turn"``, default), or the whole session (``"session"``,
    hookwire's behaviour before 0.2).
    """

    name: ClassVar[str] = "codex"
    harness: ClassVar[str] = ev.HARNESS
    events: ClassVar[Mapping[str, EventSpec]] = ev.EVENTS
    parallel: ClassVar[bool] = True
    background_delivery: ClassVar[str] = "next_turn"  # async hooks: context at the next turn
    background_limit: ClassVar[int | None] = 8  # async hooks in flight per session (0.171.0)
    tools: ClassVar[Vocabulary] = _tools.VOCABULARY
    handler_type: ClassVar[type | None] = CodexHandler

    def __init__(self, *, codex_home: str | Path | None = None,
                 shell: Sequence[str] | None = None,
                 spill_dir: str | Path | None = None, halt_scope: str = "turn") -> None:
        self.codex_home = Path(codex_home) if codex_home else None
        self.halt_scope = halt_scope
        self.shell = tuple(shell) if shell else None
        self.spill_dir = Path(spill_dir) if spill_dir else \
            Path(tempfile.gettempdir()) / "hook_outputs"

    @property
    def home(self) -> Path:
        return self.codex_home or trust.codex_home()

    # -- config --------------------------------------------------------------------------------

    def read_config(self, path: Path, *, provenance: Provenance = Provenance.USER) -> ConfigResult:
        states = trust.load_states(self.home / "config.toml")
        return config.read_file(path, provenance=provenance, states=states,
                                managed=provenance is Provenance.MANAGED)

    def write_config(self, entries: Sequence[HookEntry]) -> dict[str, Any]:
        from hookwire.dialects.codex.writer import write_config

        return write_config(entries)

    def discover(self, project_dir: str | Path, *, home: Path | None = None,
                 plugins: Iterable[tuple[str, Path]] = (),
                 system_dir: Path | None = Path("/etc/codex")) -> ConfigResult:
        """Every hook Codex would load in ``project_dir``, in Codex's order: system
        ``/etc/codex`` (managed), user ``$CODEX_HOME``, project ``.codex/`` folders from the
        repository root down (trusted projects only), then ``plugins``
        (``(plugin_id, root)`` pairs). Each hook carries its trust state from the user
        ``config.toml``; untrusted and disabled ones load but do not run. The Codex home is the
        one given to the dialect, else ``$CODEX_HOME``, else ``<home>/.codex`` (``home``: the
        user's home directory, default the real one)."""
        codex_home = self.codex_home
        if codex_home is None:
            codex_home = trust.codex_home() if home is None or os.environ.get("CODEX_HOME") \
                else Path(home) / ".codex"
        return config.discover(project_dir, codex_home=codex_home, system_dir=system_dir,
                               plugins=plugins)

    def config_paths(self, project_dir: Path, home: Path | None = None) -> list[Path]:
        """The project layer: ``.codex/hooks.json``, then the ``[hooks]`` of
        ``.codex/config.toml``."""
        folder = Path(project_dir) / ".codex"
        return [folder / "hooks.json", folder / "config.toml"]

    def handler_from_options(self, options: Mapping[str, Any]) -> CodexHandler:
        return _handler.from_options(options)

    def export(self, entry: HookEntry) -> Export:
        return _handler.export(entry)

    def trust_status(self, entry: HookEntry) -> trust.TrustStatus:
        """Codex's status of ``entry``: managed, trusted, modified or untrusted."""
        return _handler.handler_of(entry).trust

    def harness_trust(self, entry: HookEntry) -> HarnessTrust:
        """Codex's own verdict on a hook read live from a Codex file: ``runs`` when Codex
        trusts it (trusted or managed); not, when Codex will not run it (``kind``:
        ``DISABLED`` for a hook switched off in ``[hooks.state]``, else ``UNTRUSTED``); else
        none applies and hookwire's trust gate decides (every other provenance, and hooks
        Codex would run as user-authored)."""
        if entry.provenance is not Provenance.LIVE:
            return NO_HARNESS_TRUST
        runs, why = self.will_run(entry)
        if not runs:
            disabled = not _handler.handler_of(entry).enabled
            return HarnessTrust(runs=False, why=why, kind=ProblemKind.DISABLED if disabled
                                else ProblemKind.UNTRUSTED)
        if why in (trust.TrustStatus.TRUSTED, trust.TrustStatus.MANAGED):
            return HarnessTrust(runs=True, why=why)
        return NO_HARNESS_TRUST

    def will_run(self, entry: HookEntry) -> tuple[bool, str]:
        """Whether ``entry`` runs, and why not (for ``hookwire check``): disabled hooks never
        run; discovered non-managed hooks run only when trusted, as in Codex; a file the user
        named runs as user-authored. Entries not read from a Codex file (hookwire's own file,
        imported ones included) carry no Codex state: hookwire's trust gate decides."""
        h = _handler.handler_of(entry)
        if entry.provenance is Provenance.IMPORTED or h.key is None or h.hash is None:
            return True, "not read from a Codex file: hookwire's trust applies"
        if not h.enabled:
            return False, f"disabled in [hooks.state.{h.key!r}]"
        status = h.trust
        if entry.provenance in DISCOVERED and status not in (trust.TrustStatus.TRUSTED,
                                                            trust.TrustStatus.MANAGED):
            command = trust.trust_command(h.key, h.hash, self.home)
            return False, f"{status.value}: trust it with `{command}`"
        return True, status.value

    def matcher_problem(self, entry: HookEntry) -> str | None:
        """Why Codex would skip ``entry`` for its matcher: not a valid Rust regex (events
        without a matcher ignore it)."""
        if entry.event in ev.MATCHERLESS:
            return None
        try:
            matcher.validate(entry.matcher)
        except matcher.MatcherError as exc:
            return f"matcher {entry.matcher!r} is not a valid Rust regex ({exc}); Codex skips it"
        return None

    # -- dispatch ------------------------------------------------------------------------------

    def native_event(self, event: SeamEvent) -> str | None:
        if event.seam is hev.Seam.TOOL_FAILURE:  # Codex has no failure event
            return "PostToolUse" if ev.post_tool_use_on_failure(event) else None
        return super().native_event(event)

    def select(self, entries: Sequence[HookEntry], event: SeamEvent, native: str,
               session: SessionInfo) -> list[HookEntry]:
        inputs = _matcher_inputs(native, event)
        chosen = []
        for entry in entries:
            runs, why = self.will_run(entry)
            if not runs:
                log.info("codex hook %s skipped: %s", entry.location, why)
                continue
            if native in ev.MATCHERLESS or matcher.matches(entry.matcher, inputs):
                chosen.append(entry)
        return chosen  # identical handlers are not de-duplicated

    def runs_on(self, entry: HookEntry) -> str | None:
        """``"mcp"`` for an mcp_tool hook (it calls a tool on the host's MCP sessions)."""
        return "mcp" if _handler.handler_of(entry).type == "mcp_tool" else None

    def prepare(self, entry: HookEntry, event: SeamEvent, native: str,
                session: SessionInfo) -> Prepared:
        """An mcp_tool hook runs in process on the host's MCP sessions (:mod:`._mcphook`);
        a command hook as a process."""
        if _handler.handler_of(entry).type == "mcp_tool":
            from hookwire.dialects.codex import _mcphook

            return _mcphook.prepare(entry, event, native, session)
        return super().prepare(entry, event, native, session)

    def command(self, entry: HookEntry, event: SeamEvent, native: str,
                session: SessionInfo) -> Command:
        if _handler.handler_of(entry).type == "mcp_tool":  # what it describes: see prepare
            return self.prepare(entry, event, native, session).command
        stdin = payload.encode(payload.build(event, native, session))
        timeout = entry.timeout if entry.timeout is not None else float(ev.DEFAULT_TIMEOUT)
        env = payload.environment(entry, session)
        if not isinstance(entry.command, str):  # an argv (hookwire's own file): exec form
            return Command(argv=tuple(entry.command), stdin=stdin, env=env, cwd=session.cwd,
                           timeout=timeout)
        return Command(shell=entry.command, shell_argv=self.shell or payload.user_shell(),
                       stdin=stdin, env=env, cwd=session.cwd, timeout=timeout)

    def matches_tool(self, entry: HookEntry, native: str, tool_name: str) -> bool:
        return _matches_tool(entry.matcher, tool_name)

    def interpret(self, entry: HookEntry, event: SeamEvent, native: str,
                  outcome_: Outcome) -> Answer:
        return outcome.interpret(entry, event, native, outcome_)

    def combine(self, native: str, event: SeamEvent, session: SessionInfo,
                results: Sequence[tuple[HookEntry, Answer]]) -> list[Answer]:
        answers = outcome.combine(native, results, session_id=session.session_id,
                                  spill_dir=self.spill_dir)
        if self.halt_scope == "turn":
            return answers
        return [a if a.halt is None else attrs.evolve(a, halt=attrs.evolve(
            a.halt, scope=self.halt_scope)) for a in answers]

    def render(self, verdict: Any, subject: Any) -> list[Any]:
        """What Codex gives the model for ``verdict`` (see :mod:`.render`)."""
        from hookwire.dialects.codex.render import render

        return render(verdict, subject)

    def event_from_wire(self, native: str, data: Mapping[str, Any]) -> SeamEvent:
        from hookwire.dialects.codex.events import wire_event

        if native not in ev.EVENTS:
            raise UnknownEventError(self.name, native, list(ev.EVENTS))
        if ev.EVENTS[native].seam is None:
            raise EventDataError(f"{native} is a Codex event no hookwire host emits",
                                 path="$")
        return wire_event(native, data)


def _matches_tool(matcher_: str | None, tool_name: str) -> bool:
    return matcher.matches(matcher_, ev.matcher_inputs(tool_name))


def _matcher_inputs(native: str, event: SeamEvent) -> tuple[str, ...]:
    if isinstance(event, hev.ToolPre | hev.ToolPost | hev.ToolFailure | hev.ApprovalRequest):
        return ev.matcher_inputs(event.tool_name)
    if native == "SessionEnd":
        return ("other",)
    field = ev.EVENTS[native].matcher_field
    value = getattr(event, field, None) if field else None
    return (value,) if isinstance(value, str) else ()


def _register_dialects() -> list[Dialect]:
    return [CodexDialect()]


#: The entry-point object: registers :class:`CodexDialect`.
plugin = declare(register_dialects=_register_dialects)

__all__ = ["CodexDialect", "plugin"]
