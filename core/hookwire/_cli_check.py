"""``hookwire check``: for every hook a host would load here, whether it runs, and why not.

It lists what :meth:`hookwire.Kernel.discover` loads, in the same order: hookwire's own hooks
files (global, then the project's), then every hook the installed dialects' harness files
declare (Claude Code's user, project and local settings and their plugins, Codex's layers),
an imported copy counted once. What ``check`` says runs is what a host runs.
"""

from __future__ import annotations

import argparse
import json
import os
from pathlib import Path
from typing import Any

from hookwire._cli_common import (
    _PARTS,
    EXIT_OK,
    EXIT_PROBLEMS,
    EXIT_USAGE,
    _host,
    _kernel,
    _load,
    _print_file_errors,
    _what,
    _where,
)


def _foreign_configs(kernel: Any, start: Path, read: set[str]) -> list[tuple[str, Path]]:
    """The native configs of every installed dialect (:meth:`~hookwire.Dialect.config_paths`)
    that exist for the project but that no loaded hook comes from (a dialect without
    ``discover``), when there is no hooks file. Paths inside the project are shown relative
    to it."""
    found: list[tuple[str, Path]] = []
    for name, info in kernel.dialects.items():
        try:
            paths = info.dialect.config_paths(start, None)
        except Exception:  # a third party's bug must not break `check`
            continue
        for path in paths:
            if path.is_file() and str(path) not in read and str(path.resolve()) not in read:
                shown = path.relative_to(start) if path.is_relative_to(start) else path
                found.append((name, shown))
    return found


#: Every status ``check`` gives a hook; only ``runs`` runs.
STATUSES = ("runs", "untrusted", "not emitted", "invalid", "missing", "not executable",
            "disabled", "not lent")
def gather(kernel: Any, config: Any, start: Path) -> tuple[list[Any], list[Any]]:
    """Every item a host would load in ``start`` (hookwire's files, then the harnesses'),
    and the warnings: :func:`hookwire.discovery.discover`'s order and de-duplication."""
    from hookwire.config import Item, collect
    from hookwire.discovery import _key, discover

    found = collect(kernel, config) if config.files else None
    items = list(found.items) if found is not None else []
    warnings = list(found.warnings) if found is not None else []
    held = {_key(e) for e in (found.entries if found is not None else ())}
    for _, result in discover(kernel, start, own=False):
        for entry in result.entries:
            if _key(entry) not in held:
                items.append(Item(entry=entry, file=entry.location.file,
                                  line=entry.location.line, event=entry.event,
                                  dialect=entry.dialect))
        warnings += result.problems
    return items, warnings


def _status(kernel: Any, host: Any, entry: Any, store: Any, root: str,
            strict: bool = False) -> tuple[str, str]:
    """``(status, detail)`` of one loaded entry for ``host`` (``strict``: a hooks file says
    ``trust: {strict: true}``)."""
    from hookwire import _policy, trust
    from hookwire.dialect import NO_HARNESS_TRUST, ProblemKind

    dialect = kernel.dialect(entry.dialect)
    spec = dialect.events.get(entry.event)
    provenance = entry.provenance.value
    if spec is None or spec.seam is None:
        return "not emitted", f"hookwire has no seam for {entry.dialect} event {entry.event}"
    if not host.emits(spec.seam):
        why = host.missing.get(spec.seam)
        return "not emitted", (f"host {host.name} does not emit {spec.seam.value}"
                               + (f": {why}" if why else ""))
    problem = dialect.matcher_problem(entry)
    if problem is not None:
        return "invalid", problem
    part = dialect.runs_on(entry)  # not a process: it runs on what the host lends
    if part is not None and part != "hookwire" and part not in host.lends:
        return "not lent", (f"it runs on the host's {_PARTS.get(part, part)}, and host "
                            f"{host.name} lends none (kernel.parts can)")
    on = (", in process" if part == "hookwire" else
          f", on the host's {_PARTS.get(part, part)}" if part else "")
    gated = trust.needs_trust(entry)
    # the harness's settings may turn any hook off (Claude Code's disableAllHooks, Codex's
    # enabled = false); its trust records weigh only on gated hooks
    harness = trust.dialect_trust(kernel, entry)
    if harness.runs is not False and not gated:
        harness = NO_HARNESS_TRUST
    if harness.runs is False:
        status = "disabled" if harness.kind is ProblemKind.DISABLED else "untrusted"
        return status, f"{provenance}, {entry.dialect}'s own trust record: {harness.why}"
    command = trust.sample_command(entry, dialect, project_dir=entry.project or root)
    broken = trust.cannot_run(command) if part is None else None
    if broken is not None:
        return broken
    if harness.runs is True:
        return "runs", f"{provenance}{on}, {entry.dialect}'s own trust record: {harness.why}"
    if not gated:
        if entry.project is None:
            return "runs", provenance + on
        gate = trust.TrustGate(kernel, store)
        folder = _policy.covering(entry.project, gate.folders())
        if folder is not None:
            return "runs", f"{provenance} ({entry.project}){on}, trusted folder {folder}"
    pin = trust.resolve(command)[0]
    state = trust.state_of(entry, store, pin)
    rid = trust.hook_id(entry)
    if state == trust.TrustState.TRUSTED:
        if part is not None:  # in process: its text is all there is, and the gate checks no file
            return "runs", f"{provenance}{on}, trusted, id {rid}, pinned by its text"
        if pin.loose and (strict or trust.strict_setting()):
            return "untrusted", f"{provenance}, {pin.pinned}: refused, trust is strict"
        return "runs", f"{provenance}{on}, trusted, id {rid}, {pin.pinned}"
    if state == trust.TrustState.CHANGED:
        record = store.get(rid)
        assert record is not None
        return "untrusted", (f"{provenance}, {trust.difference(record.pin, pin)}; "
                             f"re-approve with `hookwire trust {rid}`")
    how = f"`hookwire trust {rid}`"
    if not gated:
        how += f" or `hookwire trust --folder {entry.project}`"
    return "untrusted", f"{provenance}, pending approval: {how}"


def _row(status: str, item: Any, detail: str) -> dict[str, Any]:
    from hookwire import trust

    entry = item.entry
    command: Any = None
    if entry is not None:
        command = entry.command if isinstance(entry.command, str) else list(entry.command)
    return {
        "status": status, "file": item.file, "line": item.line,
        "dialect": entry.dialect if entry is not None else item.dialect,
        "event": entry.event if entry is not None else item.event,
        "matcher": entry.matcher if entry is not None else None,
        "command": command, "detail": detail,
        "provenance": entry.provenance.value if entry is not None else None,
        "project": entry.project if entry is not None else None,
        "id": trust.hook_id(entry) if entry is not None else None,
    }


def cmd_check(args: argparse.Namespace) -> int:
    from hookwire import _modes, trust
    from hookwire.config import ConfigFileError

    kernel = _kernel()
    host = _host(kernel, args.host)
    try:
        config = _load()
    except ConfigFileError as exc:
        if args.json:
            print(json.dumps({"host": host.name, "error": "a hooks file is invalid", "errors": [
                {"file": e.file, "line": e.line, "event": e.event, "entry": e.entry,
                 "message": e.message} for e in getattr(exc, "errors", (exc,))]}, indent=2))
            return EXIT_USAGE
        return _print_file_errors(exc)
    mode = _modes.active(None, config.enforcement)
    items, found_warnings = gather(kernel, config, Path.cwd())
    counts = dict.fromkeys(STATUSES, 0)
    rows: list[dict[str, Any]] = []
    warnings: list[dict[str, Any]] = []
    read = {str(i.file) for i in items if i.file} | {
        str(Path(i.file).resolve()) for i in items if i.file}
    foreign = [] if config.files else _foreign_configs(kernel, Path.cwd(), read)
    if not args.json:
        if not items and not found_warnings:
            print("no hooks: no hookwire hooks file (global or project .hookwire/hooks.yaml) "
                  "and no hooks in any installed harness's files here")
        for dialect, path in foreign:
            print(f"found {path}: nothing runs from it until it is listed under `sources:` "
                  f"in .hookwire/hooks.yaml or imported with `hookwire import {dialect}`")
        if not items and not found_warnings:
            return EXIT_OK
    store = trust.TrustStore()
    root = config.project_root or os.getcwd()
    for item in items:
        if item.entry is None:
            status, detail = "invalid", str(item.problem)
        else:
            status, detail = _status(kernel, host, item.entry, store, root,
                                     config.strict_trust)
        counts[status] += 1
        rows.append(_row(status, item, detail))
        if args.json:
            continue
        where = _where(item.file, item.line)
        if item.entry is None:
            ev = f"{item.dialect}:{item.event}  " if item.event else ""
            print(f"{status:<11} {where}  {ev}— {detail}")
        else:
            print(f"{status:<11} {where}  {_what(item.entry)}  ({detail})")
    for problem in found_warnings:
        warnings.append({"file": problem.location.file, "line": problem.location.line,
                         "kind": str(problem.kind), "message": problem.message})
        if not args.json:
            print(f"warning     {_where(problem.location.file, problem.location.line)}  "
                  f"{problem.message}")
    not_running = sum(n for k, n in counts.items() if k != "runs")
    if args.json:
        print(json.dumps({
            "host": host.name, "enforcement": mode, "hooks": rows, "warnings": warnings,
            "summary": {"total": len(rows), "not running": not_running, **counts},
            "unread": [{"dialect": d, "path": str(p)} for d, p in foreign],
        }, indent=2, ensure_ascii=False))
    else:
        # only the statuses that occur: a script grepping for "untrusted" must not match
        # "0 untrusted" (scripts should read --json)
        total = sum(counts.values())
        shown = ", ".join(f"{n} {k}" for k, n in counts.items() if n)
        print(f"enforcement {mode}")
        print(f"{total} hook{'s' * (total != 1)} for host {host.name}"
              + (f": {shown}" if shown else ""))
    if counts["invalid"] or (args.strict and not_running):
        return EXIT_PROBLEMS
    return EXIT_OK
