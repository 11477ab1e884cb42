"""The Gemini CLI dialect: run a Gemini CLI user's hooks exactly as Gemini CLI 0.61.0 runs
them. Written on hookwire's public dialect contract alone (``docs/writing-a-dialect.md``).

One module per concern, as in every dialect: :mod:`.events` (events, seams), :mod:`.config`
(settings files, extension ``hooks.json``, the writer), :mod:`.layers` (which files a session
loads), :mod:`.matcher`, :mod:`.payload` (stdin, command, environment), :mod:`.outcome` (exit
codes, outputs, the merge of several hooks), :mod:`.render` (what the model reads),
:mod:`.tools` (the tool vocabulary). The profile with every named divergence is
``docs/dialects/gemini.md``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, ClassVar

from hookwire import events as hev
from hookwire.dialect import (
    NO_HARNESS_TRUST,
    ConfigResult,
    Dialect,
    EventSpec,
    Export,
    HarnessTrust,
    HookEntry,
    ProblemKind,
    Provenance,
)
from hookwire.dialects.gemini import config, layers, matcher, outcome, payload
from hookwire.dialects.gemini import events as ev
from hookwire.dialects.gemini import handler as _handler
from hookwire.dialects.gemini import tools as _tools
from hookwire.dialects.gemini.turns import Prompts
from hookwire.errors import EventDataError, UnknownEventError
from hookwire.events import SeamEvent, SessionInfo
from hookwire.placeholders import substitute_argv
from hookwire.plugin import declare
from hookwire.runner import Command, Environment, Outcome
from hookwire.tools import Vocabulary
from hookwire.verdicts import Answer, Source, SourceKind

__all__ = ["GeminiDialect", "plugin"]

#: What Gemini CLI runs a command hook with on Linux and macOS.
SHELL = ("bash", "-c")


class GeminiDialect(Dialect):
    """Gemini CLI 0.61.0 hooks. ``home`` is the home whose ``.gemini`` folder holds the user
    settings, ``GEMINI_PLANS_DIR`` and the extensions (default: the real one)."""

    name: ClassVar[str] = "gemini"
    harness: ClassVar[str] = ev.HARNESS
    events: ClassVar[Mapping[str, EventSpec]] = ev.EVENTS
    parallel: ClassVar[bool] = True
    tools: ClassVar[Vocabulary] = _tools.VOCABULARY
    handler_type: ClassVar[type | None] = _handler.GeminiHandler
    placeholders: ClassVar[Mapping[str, str]] = {
        name: f"${name}" for name in ("GEMINI_PROJECT_DIR", "GEMINI_CWD", "GEMINI_PLANS_DIR",
                                      "GEMINI_SESSION_ID", "CLAUDE_PROJECT_DIR")}

    def __init__(self, *, home: str | Path | None = None) -> None:
        self.home = Path(home) if home else None
        self._prompts: Prompts | None = None

    def companions(self) -> list[object]:
        """The observer that remembers each session's prompt for AfterAgent hooks."""
        if self._prompts is None:
            self._prompts = Prompts()
        return [self._prompts]

    # -- config --------------------------------------------------------------------------------

    def read_config(self, path: Path, *, provenance: Provenance = Provenance.USER
                    ) -> ConfigResult:
        return config.read_file(Path(path), provenance=provenance)

    def discover(self, project_dir: Path, *, home: Path | None = None) -> ConfigResult:
        """Every hook Gemini CLI would load for a session in ``project_dir``: settings layers,
        then extensions (:mod:`.layers`)."""
        return layers.discover(project_dir, home=Path(home or self.home or Path.home()))

    def config_paths(self, project_dir: Path, home: Path | None = None) -> list[Path]:
        """The workspace settings, then the user settings."""
        user = Path(home or self.home or Path.home())
        return [Path(project_dir) / ".gemini" / "settings.json",
                user / ".gemini" / "settings.json"]

    def write_config(self, entries: Sequence[HookEntry]) -> dict[str, Any]:
        return config.to_settings(entries)

    def handler_from_options(self, options: Mapping[str, Any]) -> _handler.GeminiHandler:
        return _handler.from_options(options)

    def export(self, entry: HookEntry) -> Export:
        return _handler.export(entry)

    def harness_trust(self, entry: HookEntry) -> HarnessTrust:
        """A hook Gemini CLI's own switches turned off (``hooksConfig``) does not run."""
        why = _handler.handler_of(entry).disabled
        if why is not None:
            return HarnessTrust(runs=False, why=why, kind=ProblemKind.DISABLED)
        return NO_HARNESS_TRUST

    def matcher_problem(self, entry: HookEntry) -> str | None:
        return None  # a pattern JavaScript rejects is compared as a literal name: still valid

    # -- dispatch ------------------------------------------------------------------------------

    def native_event(self, event: SeamEvent) -> str | None:
        if isinstance(event, hev.ToolFailure):
            return None if event.is_interrupt else "AfterTool"
        return super().native_event(event)

    def select(self, entries: Sequence[HookEntry], event: SeamEvent, native: str,
               session: SessionInfo) -> list[HookEntry]:
        value = _matcher_value(native, event)
        seen: set[str] = set()
        chosen = []
        for entry in entries:
            h = _handler.handler_of(entry)
            if h.disabled is not None or not matcher.matches(entry.matcher, native, value):
                continue
            key = f"{h.name or ''}:{entry.display}"  # identical hooks run once
            if key in seen:
                continue
            seen.add(key)
            chosen.append(entry)
        return chosen

    def matches_tool(self, entry: HookEntry, native: str, tool_name: str) -> bool:
        return matcher.matches(entry.matcher, native, tool_name)

    def command(self, entry: HookEntry, event: SeamEvent, native: str,
                session: SessionInfo) -> Command:
        home = str(self.home) if self.home else None
        values = payload.variables(session, home)
        env = Environment(payload.environment(session, values, _handler.handler_of(entry).env))
        prompt = self._prompts.last(session.session_id) if self._prompts else ""
        stdin = payload.encode(payload.build(event, native, session, prompt=prompt))
        timeout = entry.timeout if entry.timeout is not None else ev.DEFAULT_TIMEOUT
        if isinstance(entry.command, str):
            return Command(shell=payload.expand(entry.command, values), shell_argv=SHELL,
                           stdin=stdin, env=env, cwd=session.cwd, timeout=timeout)
        argv = substitute_argv(entry.command, values)  # exec form: plain values
        return Command(argv=argv, stdin=stdin, env=env, cwd=session.cwd, timeout=timeout)

    def interpret(self, entry: HookEntry, event: SeamEvent, native: str,
                  outcome_: Outcome) -> Answer:
        source = Source(kind=SourceKind.HOOK, name=entry.display, dialect=self.name,
                        event=native)
        return outcome.interpret(entry, event, native, outcome_, source)

    def combine(self, native: str, event: SeamEvent, session: SessionInfo,
                results: Sequence[tuple[HookEntry, Answer]]) -> list[Answer]:
        return outcome.combine(native, results)

    def render(self, verdict: Any, subject: Any) -> list[Any]:
        from hookwire.dialects.gemini.render import render

        return render(verdict, subject)

    def event_from_wire(self, native: str, data: Mapping[str, Any]) -> SeamEvent:
        from hookwire.dialects.gemini.wire import event_from_wire

        if native not in ev.EVENTS:
            raise UnknownEventError(self.name, native, list(ev.EVENTS))
        if ev.EVENTS[native].seam is None:
            raise EventDataError(f"{native} is a Gemini CLI event no hookwire host emits")
        return event_from_wire(native, data)


def _matcher_value(native: str, event: SeamEvent) -> str | None:
    """What the matcher is tested against (``None``: the event passes none)."""
    if native in ev.TOOL_EVENTS:
        return str(getattr(event, "tool_name", ""))
    field = ev.EVENTS[native].matcher_field
    value = getattr(event, field, None) if field else None
    return value if isinstance(value, str) else None


def _register_dialects() -> list[Dialect]:
    return [GeminiDialect()]


#: The entry-point object: registers :class:`GeminiDialect`.
plugin = declare(register_dialects=_register_dialects)
