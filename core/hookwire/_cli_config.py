"""The ``import``, ``trust`` and ``check`` subcommands (hooks files, import and trust)."""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any

EXIT_OK, EXIT_PROBLEMS, EXIT_USAGE = 0, 1, 2


def _foreign_configs(kernel: Any, start: Path) -> list[tuple[str, Path]]:
    """The native configs of every installed dialect (:meth:`~hookwire.Dialect.config_paths`)
    that exist for the project: hookwire would not read them on its own. Paths inside the
    project are shown relative to it."""
    found: list[tuple[str, Path]] = []
    for name, info in kernel.dialects.items():
        try:
            paths = info.dialect.config_paths(start, None)
        except Exception:  # a third party's bug must not break `check`
            continue
        for path in paths:
            if path.is_file():
                shown = path.relative_to(start) if path.is_relative_to(start) else path
                found.append((name, shown))
    return found


def add_commands(sub: Any) -> None:
    """Add ``import``, ``trust`` and ``check`` to the ``hookwire`` subparsers."""
    imp = sub.add_parser("import", help="translate a foreign hooks config (e.g. claude, codex) "
                                        "into the project's .hookwire/hooks.yaml, with a report")
    imp.add_argument("dialect", help="the foreign config's dialect: any installed one "
                                     "(`hookwire dialects`), e.g. claude or codex")
    imp.add_argument("path", nargs="?", type=Path,
                     help="the file to import (default: the dialect's own project config, "
                          "e.g. .claude/settings.json or .codex/hooks.json)")
    imp.add_argument("--host", default="reference",
                     help="warn about events this host does not emit (default: reference)")
    imp.set_defaults(handler=cmd_import)

    tr = sub.add_parser("trust", help="list hooks waiting for approval; approve them by id or "
                                      "--all; --revoke approvals")
    tr.add_argument("ids", nargs="*", metavar="ID", help="hook ids (or unique prefixes)")
    tr.add_argument("--all", action="store_true", help="every pending or changed hook "
                                                       "(with --revoke: every record)")
    tr.add_argument("--revoke", action="store_true", help="remove the approval of these hooks")
    tr.add_argument("--list", action="store_true",
                    help="every approval and pending hook: each file pinned with its hash, "
                         "what is pinned by text only and why, where the approval is stored")
    tr.add_argument("--json", action="store_true", help="with --list: one JSON document")
    tr.set_defaults(handler=cmd_trust)

    ck = sub.add_parser("check", help="say, for every configured hook, whether it runs for a "
                                      "host: runs / untrusted / not emitted / invalid / "
                                      "missing / not executable / disabled")
    ck.add_argument("--host", default="reference", help="the host to check for "
                                                        "(default: reference)")
    ck.add_argument("--strict", action="store_true",
                    help="exit 1 when any hook will not run (not only when one is invalid)")
    ck.add_argument("--json", action="store_true",
                    help="print one JSON document: every hook with its status, and counts")
    ck.set_defaults(handler=cmd_check)


# -- shared -------------------------------------------------------------------------------------


def _kernel() -> Any:
    from hookwire.kernel import Kernel

    return Kernel()


def _host(kernel: Any, name: str) -> Any:
    from hookwire.errors import HookwireError

    hosts = kernel.hosts
    if name not in hosts:
        raise HookwireError(f"unknown host {name!r} (declared: {', '.join(sorted(hosts))})")
    return hosts[name]


def _load() -> Any:
    from hookwire.config import load

    return load(os.getcwd())


def _print_file_errors(exc: Any) -> int:
    for err in getattr(exc, "errors", (exc,)):
        print(f"invalid     {err.file}:{err.line or '?'}  {err.message}"
              + (f" (event {err.event})" if err.event else "")
              + (f" [{err.entry}]" if err.entry else ""))
    sys.stderr.write("hookwire: error: a hooks file is invalid\n")
    return EXIT_USAGE


def _where(file: str | None, line: int | None) -> str:
    if file is None:
        return "<memory>"
    try:
        shown = os.path.relpath(file)
        if shown.startswith(".." + os.sep + ".."):
            shown = file
    except ValueError:
        shown = file
    return f"{shown}:{line or '?'}"


def _what(entry: Any) -> str:
    matcher = f" [{entry.matcher}]" if entry.matcher else ""
    return f"{entry.dialect}:{entry.event}{matcher}  `{entry.display}`"


def _pin_now(kernel: Any, entry: Any, root: str) -> Any:
    from hookwire import trust

    command = trust.sample_command(entry, kernel.dialect(entry.dialect), project_dir=root)
    return trust.resolve(command)[0]


# -- check --------------------------------------------------------------------------------------

#: Every status ``check`` gives a hook; only ``runs`` runs.
STATUSES = ("runs", "untrusted", "not emitted", "invalid", "missing", "not executable",
            "disabled", "not lent")
_PARTS = {"model": "model", "mcp": "MCP session"}


def _status(kernel: Any, host: Any, entry: Any, store: Any, root: str,
            strict: bool = False) -> tuple[str, str]:
    """``(status, detail)`` of one loaded entry for ``host`` (``strict``: a hooks file says
    ``trust: {strict: true}``)."""
    from hookwire import trust
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
    part = dialect.runs_on(entry)
    if part is not None and part not in host.lends:
        return "not lent", (f"it runs on the host's {_PARTS.get(part, part)}, and host "
                            f"{host.name} lends none (kernel.parts can)")
    on = f", on the host's {_PARTS.get(part, part)}" if part else ""
    harness = (trust.dialect_trust(kernel, entry) if trust.needs_trust(entry)
               else NO_HARNESS_TRUST)
    if harness.runs is False:
        status = "disabled" if harness.kind is ProblemKind.DISABLED else "untrusted"
        return status, f"{provenance}, {entry.dialect}'s own trust record: {harness.why}"
    command = trust.sample_command(entry, dialect, project_dir=root)
    broken = trust.cannot_run(command) if part is None else None
    if broken is not None:
        return broken
    if harness.runs is True:
        return "runs", f"{provenance}{on}, {entry.dialect}'s own trust record: {harness.why}"
    if not trust.needs_trust(entry):
        return "runs", provenance + on
    pin = trust.resolve(command)[0]
    state = trust.state_of(entry, store, pin)
    rid = trust.hook_id(entry)
    if state == trust.TrustState.TRUSTED:
        if pin.loose and (strict or trust.strict_setting()):
            return "untrusted", f"{provenance}, {pin.pinned}: refused, trust is strict"
        return "runs", f"{provenance}{on}, trusted, id {rid}, {pin.pinned}"
    if state == trust.TrustState.CHANGED:
        record = store.get(rid)
        assert record is not None
        return "untrusted", (f"{provenance}, {trust.difference(record.pin, pin)}; "
                             f"re-approve with `hookwire trust {rid}`")
    return "untrusted", f"{provenance}, pending approval: `hookwire trust {rid}`"


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
        "id": trust.hook_id(entry) if entry is not None else None,
    }


def cmd_check(args: argparse.Namespace) -> int:
    from hookwire import trust
    from hookwire.config import ConfigFileError, collect

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
    counts = dict.fromkeys(STATUSES, 0)
    rows: list[dict[str, Any]] = []
    warnings: list[dict[str, Any]] = []
    foreign = [] if config.files else _foreign_configs(kernel, Path.cwd())
    if not config.files and not args.json:
        print("no hooks files: neither the global file nor a project .hookwire/hooks.yaml "
              "exists")
        for dialect, path in foreign:
            print(f"found {path}: nothing runs from it until it is listed under `sources:` "
                  f"in .hookwire/hooks.yaml or imported with `hookwire import {dialect}`")
        return EXIT_OK
    found = collect(kernel, config) if config.files else None
    store = trust.TrustStore()
    root = config.project_root or os.getcwd()
    for item in found.items if found is not None else ():
        if item.entry is None:
            status, detail = "invalid", str(item.problem)
        else:
            status, detail = _status(kernel, host, item.entry, store, root,
                                     config.strict_trust)
        counts[status] += 1
        row = _row(status, item, detail)
        rows.append(row)
        if args.json:
            continue
        where = _where(item.file, item.line)
        if item.entry is None:
            ev = f"{item.dialect}:{item.event}  " if item.event else ""
            print(f"{status:<11} {where}  {ev}— {detail}")
        else:
            print(f"{status:<11} {where}  {_what(item.entry)}  ({detail})")
    for problem in found.warnings if found is not None else ():
        warnings.append({"file": problem.location.file, "line": problem.location.line,
                         "kind": str(problem.kind), "message": problem.message})
        if not args.json:
            print(f"warning     {_where(problem.location.file, problem.location.line)}  "
                  f"{problem.message}")
    not_running = sum(n for k, n in counts.items() if k != "runs")
    if args.json:
        print(json.dumps({
            "host": host.name, "hooks": rows, "warnings": warnings,
            "summary": {"total": len(rows), "not running": not_running, **counts},
            "unread": [{"dialect": d, "path": str(p)} for d, p in foreign],
        }, indent=2, ensure_ascii=False))
    else:
        # only the statuses that occur: a script grepping for "untrusted" must not match
        # "0 untrusted" (scripts should read --json)
        total = sum(counts.values())
        shown = ", ".join(f"{n} {k}" for k, n in counts.items() if n)
        print(f"{total} hook{'s' * (total != 1)} for host {host.name}"
              + (f": {shown}" if shown else ""))
    if counts["invalid"] or (args.strict and not_running):
        return EXIT_PROBLEMS
    return EXIT_OK


# -- trust --------------------------------------------------------------------------------------


def cmd_trust(args: argparse.Namespace) -> int:
    from hookwire import trust
    from hookwire.config import ConfigFileError, collect
    from hookwire.errors import HookwireError

    if args.list or args.json:
        from hookwire._cli_trustlist import cmd_list

        return cmd_list(args, sys.modules[__name__])
    store = trust.TrustStore()
    if args.revoke:
        ids = list(store.records) if args.all else args.ids
        if not ids:
            raise HookwireError("--revoke needs hook ids or --all")
        for rid in ids:
            match = _unique(rid, store.records)
            record = store.records[match]
            store.remove(match)
            print(f"revoked   {match}  {record.dialect}:{record.event}  `{record.command}`")
        return EXIT_OK
    kernel = _kernel()
    try:
        config = _load()
    except ConfigFileError as exc:
        return _print_file_errors(exc)
    root = config.project_root or os.getcwd()
    gated: dict[str, tuple[Any, Any, str]] = {}
    for entry in collect(kernel, config).entries:
        if trust.needs_trust(entry) and trust.dialect_trust(kernel, entry).runs is None:
            pin = _pin_now(kernel, entry, root)
            gated.setdefault(trust.hook_id(entry),
                             (entry, pin, trust.state_of(entry, store, pin)))
    if not args.ids and not args.all:
        waiting = {k: v for k, v in gated.items() if v[2] != trust.TrustState.TRUSTED}
        for rid, (entry, pin, state) in gated.items():
            source = entry.source or entry.provenance.value
            print(f"{state:<8} {rid}  {_what(entry)}\n"
                  f"         source {source}, {_where(entry.location.file, entry.location.line)}"
                  f"; runs {pin.path or '(nothing pinned: ' + str(pin.note) + ')'}"
                  + (f" via {pin.interpreter}" if pin.interpreter else "")
                  + f"\n         {pin.pinned}")
        if waiting:
            print(f"{len(waiting)} hook(s) wait for approval: `hookwire trust ID ...` or "
                  "`hookwire trust --all`")
        else:
            print("nothing waits for approval")
        return EXIT_OK
    chosen = [rid for rid, v in gated.items() if v[2] != trust.TrustState.TRUSTED] \
        if args.all else [_unique(i, gated) for i in args.ids]
    refused = 0
    for rid in chosen:
        entry, pin, _ = gated[rid]
        unusable = _cannot_start(kernel, entry, root)
        if unusable is not None and unusable[0] == "missing":
            # approving it would record a pin of its text only, and a guard that never starts
            # would then look approved while every call goes ahead
            refused += 1
            print(f"refused   {rid}  {_what(entry)}  {unusable[0]}: {unusable[1]}; fix the "
                  "command or create the file, then approve it", file=sys.stderr)
            continue
        source = entry.source or entry.provenance.value
        trust.approve(entry, store, pin, source=source)
        pinned = f"{pin.path} {pin.digest[:19]}, {pin.pinned}" if pin.path and pin.digest \
            and not pin.text_only else pin.pinned
        print(f"trusted   {rid}  {_what(entry)}  pins {pinned}")
    if not chosen:
        print("nothing waits for approval")
    return EXIT_PROBLEMS if refused else EXIT_OK


def _cannot_start(kernel: Any, entry: Any, root: str) -> tuple[str, str] | None:
    """``(status, detail)`` when ``entry``'s program or script is missing or not executable
    (resolved as it would run in ``root``). Only a missing one is refused: a file that is
    there is pinned as it is (the gate never makes a non-executable file run)."""
    from hookwire import _pins, trust

    if kernel.dialect(entry.dialect).runs_on(entry) is not None:
        return None  # not a process: nothing to start (its text is what a record pins)
    command = trust.sample_command(entry, kernel.dialect(entry.dialect), project_dir=root)
    return _pins.cannot_run(command)


def _unique(prefix: str, ids: Any) -> str:
    from hookwire.errors import HookwireError

    if prefix in ids:
        return prefix
    if len(prefix) < 4:
        # a short prefix would match too easily: say so, rather than "no such hook"
        raise HookwireError(f"hook id {prefix!r} is too short: give at least 4 characters of "
                            "an id that `hookwire trust` lists")
    found = [i for i in ids if i.startswith(prefix)]
    if len(found) != 1:
        what = "is ambiguous" if found else "matches no configured hook"
        raise HookwireError(f"hook id {prefix!r} {what} (see `hookwire trust`)")
    return str(found[0])


# -- import -------------------------------------------------------------------------------------


def cmd_import(args: argparse.Namespace) -> int:
    from hookwire.config import find_project_file
    from hookwire.config.importer import default_path, translate
    from hookwire.config.writer import append_entries, existing_keys
    from hookwire.errors import ConfigError, HookwireError

    kernel = _kernel()
    dialect = kernel.dialect(args.dialect)  # UnknownDialectError lists the installed ones
    host = _host(kernel, args.host)
    project = find_project_file(os.getcwd())
    root = project.parent.parent if project is not None else Path(os.getcwd())
    path: Path | None = args.path
    if path is None:
        path = default_path(dialect, root)
        if path is None:
            raise HookwireError(f"give the path of the {args.dialect} config to import")
    if not path.is_file():
        raise ConfigError("no such config file", file=str(path))
    target = root / ".hookwire" / "hooks.yaml"
    result = translate(kernel, args.dialect, path, host=host, present=existing_keys(target))
    for row in result.rows:
        print(row.render())
    added = append_entries(target, result.entries,
                           comment=f"imported from {_where(str(path), None)[:-2]} by "
                                   f"`hookwire import {args.dialect}`")
    counts: dict[str, int] = {}
    for row in result.rows:
        counts[row.status] = counts.get(row.status, 0) + 1
    summary = ", ".join(f"{n} {s}" for s, n in counts.items()) or "no hooks found"
    print(f"{summary}; {added} entr{'y' if added == 1 else 'ies'} written to "
          f"{_where(str(target), None)[:-2]}")
    if added:
        print("imported hooks run only once approved: review them with `hookwire trust`")
    return EXIT_OK
