"""A toy dialect: one event, ``BeforeTool``, riding on the ``tool_pre`` seam.

Its wire format: the hook gets ``{"event": ..., "tool": ..., "input": ...}`` on stdin and its
handler's label in ``$TOY_LABEL``; exit 2 denies with stderr as the reason, anything else is no
opinion. The matcher is an exact tool name or ``*``.

Its native config is ``.toy/toys.json`` in a project (and ``~/.toy/toys.json``)::

    {"toys": [{"on": "BeforeTool", "tool": "Bash", "run": "./guard.sh --strict",
               "label": "guard", "off": false, "blessed": false}]}

``run`` is shell text or an argv; ``label`` travels with the hook; ``off: true`` switches a
toy off (it is not imported); ``blessed: true`` is the toy harness's own trust, honoured for
toys read live from its file. It implements everything core asks a dialect for ``hookwire
import``, ``trust`` and ``check`` — and nothing in hookwire names it.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import attrs

from hookwire import (
    Answer,
    Command,
    ConfigError,
    ConfigProblem,
    ConfigResult,
    Decision,
    Dialect,
    EventSpec,
    HookEntry,
    Location,
    Outcome,
    Provenance,
    Seam,
    SeamEvent,
    SessionInfo,
    declare,
)
from hookwire.dialect import Export, HarnessTrust, ProblemKind


@attrs.frozen(kw_only=True)
class ToyHandler:
    """What a toy carries besides its command: ``label``, and the toy harness's own switches
    (``off``, ``blessed``), which belong to its file and are never exported."""

    label: str = ""
    off: bool = False
    blessed: bool = False


DEFAULT = ToyHandler()


class ToyDialect(Dialect):
    """The toy wire contract."""

    name = "toy"
    harness = "toy 1.0"
    events = {
        "BeforeTool": EventSpec(name="BeforeTool", seam=Seam.TOOL_PRE,
                                matcher_field="tool_name", can_block=True),
    }
    handler_type = ToyHandler

    # -- config: read, locate, export, trust ---------------------------------------------------

    def read_config(self, path: Path, *, provenance: Provenance = Provenance.USER) -> ConfigResult:
        try:
            data = json.loads(Path(path).read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise ConfigError(f"cannot read toys: {exc}", file=str(path)) from None
        toys = data.get("toys") if isinstance(data, dict) else None
        if not isinstance(toys, list):
            raise ConfigError("`toys` must be a list", file=str(path), line=1)
        entries: list[HookEntry] = []
        problems: list[ConfigProblem] = []
        for i, toy in enumerate(toys):
            where = Location(file=str(path), line=i + 2, pointer=f"$.toys[{i}]")
            if not isinstance(toy, dict) or not toy.get("run"):
                problems.append(ConfigProblem(message="a toy needs `run`: ignored",
                                              location=where, severity="error",
                                              kind=ProblemKind.INVALID_HANDLER))
                continue
            event = toy.get("on", "BeforeTool")
            if event not in self.events:
                problems.append(ConfigProblem(message=f"toys cannot play on {event!r}",
                                              location=where, event=event,
                                              kind=ProblemKind.UNKNOWN_EVENT))
                continue
            run = toy["run"]
            entries.append(HookEntry(
                dialect=self.name, event=event,
                command=run if isinstance(run, str) else tuple(run),
                matcher=toy.get("tool"), provenance=provenance, location=where,
                handler=ToyHandler(label=str(toy.get("label", "")), off=bool(toy.get("off")),
                                   blessed=bool(toy.get("blessed")))))
        return ConfigResult(entries=tuple(entries), problems=tuple(problems))

    def config_paths(self, project_dir: Path, home: Path | None = None) -> list[Path]:
        return [Path(project_dir) / ".toy" / "toys.json",
                (home or Path.home()) / ".toy" / "toys.json"]

    def handler_from_options(self, options: Mapping[str, Any]) -> ToyHandler:
        unknown = sorted(set(options) - {"label"})
        if unknown:
            raise ConfigError(f"toys take only a label (got {', '.join(unknown)})")
        return ToyHandler(label=str(options.get("label", "")))

    def export(self, entry: HookEntry) -> Export:
        handler = entry.handler or DEFAULT
        if handler.off:
            return Export(rejected="switched off in the toy file (off: true)")
        return Export(options={"label": handler.label} if handler.label else {})

    def harness_trust(self, entry: HookEntry) -> HarnessTrust:
        handler = entry.handler or DEFAULT
        if entry.provenance is not Provenance.LIVE:
            return HarnessTrust()  # not read from the toy file: hookwire's trust decides
        if handler.off:
            return HarnessTrust(runs=False, why="switched off in the toy file (off: true)",
                                kind=ProblemKind.DISABLED)
        return HarnessTrust(runs=True, why="blessed") if handler.blessed else HarnessTrust()

    # -- dispatch ------------------------------------------------------------------------------

    def select(self, entries: Sequence[HookEntry], event: SeamEvent, native: str,
               session: SessionInfo) -> list[HookEntry]:
        tool = getattr(event, "tool_name", "")
        return [e for e in entries if e.matcher in (None, "*", tool)
                and not (e.handler or DEFAULT).off]

    def command(self, entry: HookEntry, event: SeamEvent, native: str,
                session: SessionInfo) -> Command:
        payload = {"event": native, "tool": getattr(event, "tool_name", None),
                   "input": dict(getattr(event, "tool_input", {}))}
        stdin = json.dumps(payload).encode()
        env = {**os.environ, "TOY_LABEL": (entry.handler or DEFAULT).label}
        if isinstance(entry.command, str):
            return Command(shell=entry.command, stdin=stdin, cwd=session.cwd,
                           timeout=entry.timeout, env=env)
        return Command(argv=entry.command, stdin=stdin, cwd=session.cwd, timeout=entry.timeout,
                       env=env)

    def interpret(self, entry: HookEntry, event: SeamEvent, native: str,
                  outcome: Outcome) -> Answer:
        if outcome.exit_code == 2:
            return Answer(decision=Decision.DENY,
                          reason=(outcome.stderr_text or "").strip() or "denied by toy hook")
        return Answer()


def register_dialects() -> list[Dialect]:
    return [ToyDialect()]


#: The object the entry point names: it declares the toy dialect.
plugin = declare(register_dialects=register_dialects)
