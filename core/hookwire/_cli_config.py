"""The ``import``, ``trust`` and ``check`` subcommands (hooks files, import and trust)."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any

from hookwire._cli_common import (
    EXIT_OK,
    EXIT_PROBLEMS,
    _host,
    _in_process,
    _kernel,
    _load,
    _print_file_errors,
    _what,
    _where,
)


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
    tr.add_argument("--folder", metavar="PATH", type=Path,
                    help="trust every hook a repository in PATH brings (its .claude settings, "
                         ".hookwire/hooks.yaml); with --revoke: stop trusting it")
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
    ck.set_defaults(handler=_check)


def _check(args: argparse.Namespace) -> int:
    from hookwire._cli_check import cmd_check

    return cmd_check(args)


# -- trust --------------------------------------------------------------------------------------


def cmd_trust(args: argparse.Namespace) -> int:
    from hookwire import trust
    from hookwire._cli_trustlist import candidates, cmd_list
    from hookwire.config import ConfigFileError
    from hookwire.errors import HookwireError

    if args.list or args.json:
        return cmd_list(args)
    store = trust.TrustStore()
    if args.folder is not None:
        return _trust_folder(store, args.folder, args.revoke)
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
    gated = {rid: (entry, pin, state) for rid, (entry, pin, state, folder)
             in candidates(kernel, store, config).items()
             if folder is None or store.get(rid) is not None}  # else: nothing to approve
    if not args.ids and not args.all:
        waiting = {k: v for k, v in gated.items() if v[2] != trust.TrustState.TRUSTED}
        for rid, (entry, pin, state) in gated.items():
            source = entry.source or entry.provenance.value
            where = _where(entry.location.file, entry.location.line)
            inside = _in_process(kernel, entry)
            runs = (f"runs {inside}\n         pinned by its text (no file is read to run "
                    "it)" if inside
                    else f"runs {pin.path or '(nothing pinned: ' + str(pin.note) + ')'}"
                    + (f" via {pin.interpreter}" if pin.interpreter else "")
                    + f"\n         {pin.pinned}")
            print(f"{state:<8} {rid}  {_what(entry)}\n         source {source}, {where}; {runs}")
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
        inside = _in_process(kernel, entry)
        pinned = (f"its text (it runs {inside})" if inside else
                  f"{pin.path} {pin.digest[:19]}, {pin.pinned}" if pin.path and pin.digest
                  and not pin.text_only else pin.pinned)
        print(f"trusted   {rid}  {_what(entry)}  pins {pinned}")
    if not chosen:
        print("nothing waits for approval")
    return EXIT_PROBLEMS if refused else EXIT_OK


def _trust_folder(store: Any, folder: Path, revoke: bool) -> int:
    from hookwire import _policy
    from hookwire.errors import HookwireError

    path = _policy.normal(folder)
    if not revoke and not os.path.isdir(path):
        raise HookwireError(f"--folder {folder}: no such folder")
    changed = store.trust_folder(path, revoke=revoke)
    if revoke:
        print(f"{'untrusted' if changed else 'was not trusted'}  {path}")
    else:
        print(f"{'trusted' if changed else 'already trusted'}  {path}: the hooks its "
              f"repository brings run (recorded in {store.path})")
    return EXIT_OK


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
