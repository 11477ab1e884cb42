"""``hookwire import claude|codex``: a foreign config → entries of hookwire's own file.

Each foreign handler becomes one report row:

* ``imported`` — written to the project's hooks file with ``source: imported:<dialect>`` (it
  runs only once approved with ``hookwire trust``);
* ``present`` — an identical entry is already there (importing twice adds nothing);
* ``rejected`` — with the reason: no seam maps the event; a shell command that cannot be
  tokenised safely; an unsupported handler type; an empty command; or what the foreign reader
  reported;
* ``warning`` — something that applies to the whole file or a handler the reader left out
  without rejecting it.

Shell text is converted to an argv only when that is exact (:mod:`._shellwords`). Placeholders:
``$CLAUDE_PROJECT_DIR`` / ``${CLAUDE_PROJECT_DIR}`` in a Claude Code command become
``${CLAUDE_PROJECT_DIR}`` in the argv, which the Claude Code dialect substitutes textually at run
time (exec form), so the imported file stays portable across checkouts. Plugin placeholders are
already substituted by the reader. Every other variable is rejected: its value is only known
to the shell at run time.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import attrs

from hookwire.config import _shellwords
from hookwire.dialect import HookEntry, Location, Provenance

#: Variables each dialect substitutes in an argv at run time: name → how to write it.
PLACEHOLDERS: Mapping[str, Mapping[str, str]] = {
    "claude": {"CLAUDE_PROJECT_DIR": "${CLAUDE_PROJECT_DIR}"},
}
#: Where ``hookwire import NAME`` looks when no path is given (relative to the project root).
DEFAULT_PATHS: Mapping[str, str] = {
    "claude": ".claude/settings.json",
    "codex": ".codex/hooks.json",
}
#: Options the reader records about the file itself, meaningless once imported.
_DROPPED_OPTIONS = frozenset({"scope", "onFailure", "source"})
#: Per dialect: the options an imported entry keeps (``None``: all but the dropped ones). Codex
#: entries carry Codex's trust bookkeeping (key, hash, ``trust`` state, ``enabled``): it
#: belongs to the Codex file. Copied into hookwire's file, an ``untrusted`` state would block
#: the hook for good; once imported, hookwire's trust gate decides.
_KEPT_OPTIONS: Mapping[str, frozenset[str]] = {
    "codex": frozenset({"status_message", "context_limit", "env"}),
}


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


def _lookup(data: Any, pointer: str) -> Any:
    import re

    node = data
    for name, index in re.findall(r"\.([^.\[\]]+)|\[(\d+)\]", pointer.removeprefix("$")):
        try:
            node = node[int(index)] if not name else node[name]
        except (KeyError, IndexError, TypeError, ValueError):
            return None
    return node


def translate(kernel: Any, dialect_name: str, path: Path, *, host: Any = None,
              present: set[tuple[Any, ...]] | None = None) -> ImportResult:
    """Read ``path`` with the dialect's own reader and translate every handler."""
    from hookwire.config.writer import entry_key

    dialect = kernel.dialect(dialect_name)
    result = dialect.read_config(path, provenance=Provenance.IMPORTED)
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        raw = None
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
        node = _lookup(raw, ptr)
        kind = node.get("type") if isinstance(node, Mapping) else None
        if isinstance(kind, str) and kind != "command":
            reason = f"unsupported handler type {kind!r} (only `command` handlers can run)"
        elif problem.event is not None and problem.event not in dialect.events:
            reason = (f"no seam maps the event {problem.event!r} "
                      f"({dialect_name} does not know it)")
        elif problem.severity == "error" or "ignored" in problem.message or (
                "skipped" in problem.message):
            reason = problem.message
        else:
            if owner is None and ptr not in handled:
                rows.append(Row(status="warning", location=problem.location,
                                event=problem.event, reason=problem.message))
            continue
        handled.add(ptr)
        rows.append(Row(status="rejected", location=problem.location, event=problem.event,
                        reason=reason))

    for entry in result.entries:
        row, written = _one(dialect, dialect_name, entry, host,
                            tuple(extra.get(entry.location.pointer, ())))
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


def _one(dialect: Any, name: str, entry: HookEntry, host: Any,
         warnings: tuple[str, ...]) -> tuple[Row, dict[str, Any] | None]:
    row = Row(status="imported", location=entry.location, event=entry.event,
              command=entry.display, warnings=warnings)

    def reject(reason: str) -> tuple[Row, None]:
        return attrs.evolve(row, status="rejected", reason=reason, warnings=()), None

    spec = dialect.events.get(entry.event)
    if spec is None or spec.seam is None:
        return reject(f"no seam maps the event {entry.event!r}: hookwire hosts never emit it")
    if isinstance(entry.command, str):
        if not entry.command.strip():
            return reject("empty command")
        try:
            argv = _shellwords.split(entry.command, PLACEHOLDERS.get(name, {}))
        except _shellwords.Unsafe as exc:
            return reject(f"shell command that cannot be tokenised safely: it uses {exc}")
    else:
        argv = list(entry.command)
    if not argv or not all(argv):
        return reject("empty command" if not argv else "empty argument in the command")
    if name == "codex" and entry.options.get("enabled") is False:
        return reject(f"disabled in Codex's [hooks.state.{json.dumps(entry.options.get('key'))}]"
                      " (enabled = false): not imported")
    notes = list(warnings)
    if host is not None and not host.emits(spec.seam):
        why = host.missing.get(spec.seam, "")
        notes.append(f"host {host.name!r} does not emit {spec.seam.value}"
                     + (f" ({why})" if why else "") + ": this hook will not run there")
    written: dict[str, Any] = {"dialect": name, "event": entry.event}
    if entry.matcher is not None:
        written["matcher"] = entry.matcher
    written["type"] = "command"
    written["command"] = argv
    if entry.timeout is not None:
        written["timeout"] = entry.timeout
    failure = entry.options.get("onFailure")
    if failure not in (None, "continue"):
        written["onFailure"] = failure
    if entry.background:
        written["async"] = True
    kept = _KEPT_OPTIONS.get(name)
    options = {k: v for k, v in entry.options.items() if k not in _DROPPED_OPTIONS
               and (kept is None or (k in kept and v not in (None, {})))}
    if name == "codex" and not entry.options.get("context_limit_set"):
        options.pop("context_limit", None)  # the default: nothing to write
    if entry.options.get("scope") == "plugin":
        options["scope"] = "plugin"
    if options:
        written["options"] = options
    written["source"] = f"imported:{name}"
    return attrs.evolve(row, warnings=tuple(notes)), written
