"""``hookwire import NAME``: a foreign config → entries of hookwire's own file.

Each foreign handler becomes one report row:

* ``imported`` — written to the project's hooks file with ``source: imported:<dialect>`` (it
  runs only once approved with ``hookwire trust``);
* ``present`` — an identical entry is already there (importing twice adds nothing);
* ``rejected`` — with the reason: no seam maps the event; a shell command that cannot be
  tokenised safely; what the dialect's :meth:`~hookwire.Dialect.export` refused; or a problem
  the foreign reader reported with ``severity: error`` or of a kind that leaves a handler out
  (:data:`REJECTING`);
* ``warning`` — any other problem that applies to no single imported handler (an invalid
  matcher or an event without a seam, for instance: the handlers under it, if the reader kept
  them, get their own rows).

Core knows no dialect: the default file comes from :meth:`~hookwire.Dialect.config_paths`,
what an entry keeps from :meth:`~hookwire.Dialect.export`, and problems are told apart by
their ``kind`` and ``severity``. Shell text is converted to an argv only when that is exact
(:mod:`._shellwords`); the only variables it may name are the dialect's placeholders, which the
dialect substitutes textually at run time (exec form), so the imported file stays portable
across checkouts. Every other variable is rejected: its value is only known to the shell at run
time.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import attrs

from hookwire.config import _shellwords
from hookwire.dialect import ConfigProblem, Dialect, HookEntry, Location, ProblemKind, Provenance

#: Problem kinds that leave a handler out of the import (a ``rejected`` row, even for a
#: warning). ``NO_SEAM`` and ``INVALID_MATCHER`` are not among them: a reader may keep the
#: handlers they concern (each then gets its own row) and only note the problem.
REJECTING = frozenset({ProblemKind.INVALID_HANDLER, ProblemKind.UNKNOWN_EVENT,
                       ProblemKind.DISABLED, ProblemKind.UNSUPPORTED})


def default_path(dialect: Dialect, project_dir: Path, home: Path | None = None) -> Path | None:
    """What ``hookwire import NAME`` reads when no path is given: the dialect's first config
    path for the project (``None``: the dialect names none)."""
    paths = dialect.config_paths(project_dir, home)
    return paths[0] if paths else None


@attrs.frozen(kw_only=True)
class Row:
    """One line of the import report."""

    status: str  # imported | present | rejected | warning
    location: Location
    event: str | None = None
    command: str | None = None
    reason: str | None = None
    warnings: tuple[str, ...] = ()

    def render(self) -> str:
        head = f"{self.status:<9} {self.location.file}:{self.location.line or '?'}"
        what = " ".join(b for b in (self.event, self.command and f"`{self.command}`") if b)
        text = f"{head}  {what}" if what else head
        if self.reason:
            text += f" — {self.reason}"
        return text + "".join(f"\n          warning: {w}" for w in self.warnings)


@attrs.frozen(kw_only=True)
class ImportResult:
    rows: tuple[Row, ...]
    entries: tuple[dict[str, Any], ...]  # what to write, in order


def translate(kernel: Any, dialect_name: str, path: Path, *, host: Any = None,
              present: set[tuple[Any, ...]] | None = None) -> ImportResult:
    """Read ``path`` with the dialect's own reader and translate every handler."""
    from hookwire.config.writer import entry_key

    dialect = kernel.dialect(dialect_name)
    result = dialect.read_config(path, provenance=Provenance.IMPORTED)
    seen = set(present or ())
    rows: list[Row] = []
    entries: list[dict[str, Any]] = []
    handled: set[str] = set()
    entry_ptrs: list[str] = [e.location.pointer for e in result.entries]

    def belongs(ptr: str) -> str | None:
        for ep in entry_ptrs:
            if ptr == ep or ptr.startswith(ep + "."):
                return ep
        return None

    extra: dict[str, list[str]] = {}
    for problem in result.problems:
        ptr = problem.location.pointer
        owner = belongs(ptr)
        if owner is not None and problem.severity != "error":
            extra.setdefault(owner, []).append(problem.message)
            continue
        below = [ep for ep in entry_ptrs if ep.startswith(ptr + "[") or ep.startswith(ptr + ".")]
        if below and problem.severity != "error":
            for ep in below:  # an event-level note: it applies to each handler under it
                extra.setdefault(ep, []).append(problem.message)
            continue
        reason = _reason(problem, dialect)
        if reason is None:
            if owner is None and ptr not in handled:
                rows.append(Row(status="warning", location=problem.location,
                                event=problem.event, reason=problem.message))
            continue
        handled.add(ptr)
        rows.append(Row(status="rejected", location=problem.location, event=problem.event,
                        reason=reason))

    for entry in result.entries:
        row, written = _one(dialect, entry, host, tuple(extra.get(entry.location.pointer, ())))
        if written is not None:
            key = entry_key(written)
            if key in seen:
                row = attrs.evolve(row, status="present",
                                   reason="already in the hooks file")
            else:
                seen.add(key)
                entries.append(written)
        rows.append(row)
    rows.sort(key=lambda r: (r.location.line or 0))
    return ImportResult(rows=tuple(rows), entries=tuple(entries))


def _reason(problem: ConfigProblem, dialect: Dialect) -> str | None:
    """Why ``problem`` rejects the handler it points at (``None``: it is only a warning),
    decided by its ``kind`` and ``severity`` alone."""
    if (problem.kind is ProblemKind.UNKNOWN_EVENT and problem.event is not None
            and problem.event not in dialect.events):
        return f"no seam maps the event {problem.event!r} ({dialect.name} does not know it)"
    if problem.severity == "error" or problem.kind in REJECTING:
        return problem.message
    return None


def _one(dialect: Dialect, entry: HookEntry, host: Any,
         warnings: tuple[str, ...]) -> tuple[Row, dict[str, Any] | None]:
    from hookwire.config.writer import document

    row = Row(status="imported", location=entry.location, event=entry.event,
              command=entry.display, warnings=warnings)

    def reject(reason: str) -> tuple[Row, None]:
        return attrs.evolve(row, status="rejected", reason=reason, warnings=()), None

    spec = dialect.events.get(entry.event)
    if spec is None or spec.seam is None:
        return reject(f"no seam maps the event {entry.event!r}: hookwire hosts never emit it")
    exported = dialect.export(entry)
    if exported.rejected is not None:
        return reject(exported.rejected)
    if isinstance(entry.command, str):
        if not entry.command.strip():
            return reject("empty command")
        try:
            argv = _shellwords.split(entry.command, dialect.placeholders)
        except _shellwords.Unsafe as exc:
            return reject(f"shell command that cannot be tokenised safely: it uses {exc}")
    else:
        argv = list(entry.command)
    if not argv or not all(argv):
        return reject("empty command" if not argv else "empty argument in the command")
    notes = [*warnings, *exported.warnings]
    if host is not None and not host.emits(spec.seam):
        why = host.missing.get(spec.seam, "")
        notes.append(f"host {host.name!r} does not emit {spec.seam.value}"
                     + (f" ({why})" if why else "") + ": this hook will not run there")
    written = document(entry, argv, exported.options, source=f"imported:{dialect.name}")
    return attrs.evolve(row, warnings=tuple(notes)), written
