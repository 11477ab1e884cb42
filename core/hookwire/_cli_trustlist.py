"""``hookwire trust --list [--json]``: every approval and every hook waiting for one, with
each file pinned and its hash, what is pinned by command text only and why, what is read
after the check, and where the approval is stored."""

from __future__ import annotations

import argparse
import json
import os
from pathlib import Path
from typing import Any

from hookwire._cli_common import (
    EXIT_OK,
    EXIT_USAGE,
    _in_process,
    _kernel,
    _load,
    _pin_now,
    _where,
)


def candidates(kernel: Any, store: Any, config: Any) -> dict[str, tuple[Any, Any, str,
                                                                     str | None]]:
    """The hooks ``hookwire trust`` deals with, in the order a host loads them: ``id →
    (entry, pin now, state, folder)``. Those are the hooks that need a record (imported,
    live, plugin-bundled, unless their harness decides) and a repository's hooks;
    ``folder`` is the trusted folder that lets a repository's hook run without one."""
    from hookwire import _policy, trust
    from hookwire._cli_check import gather

    root = config.project_root or os.getcwd()
    gate = trust.TrustGate(kernel, store)
    found: dict[str, tuple[Any, Any, str, str | None]] = {}
    items, _ = gather(kernel, config, Path.cwd())
    for entry in (i.entry for i in items if i.entry is not None):
        repo = entry.project is not None and not trust.needs_trust(entry)
        if repo or (trust.needs_trust(entry) and trust.dialect_trust(kernel, entry).runs is None):
            folder = None
            if repo and gate.waiting(entry) is None:
                folder = _policy.covering(entry.project, gate.folders()) or \
                    f"any folder (project hooks run: {entry.project})"
            pin = _pin_now(kernel, entry, entry.project or root)
            found.setdefault(trust.hook_id(entry),
                             (entry, pin, trust.state_of(entry, store, pin), folder))
    return found


def _folder_home(folder: str, store: Any) -> str:
    """Where the trust of ``folder`` comes from."""
    from hookwire import _policy

    if folder in store.folders:
        return str(store.path)
    if folder in _policy.from_env():
        return f"${_policy.ENV}"
    return "the host (Kernel(trusted_folders=...) or project_hooks)"


def _gated(store: Any) -> tuple[dict[str, tuple[Any, Any, str, str | None]], str | None, Any]:
    """:func:`candidates` for the current folder, why none could be read (an invalid hooks
    file), and the kernel they were read with."""
    from hookwire.config import ConfigFileError

    kernel = _kernel()
    try:
        config = _load()
    except ConfigFileError as exc:
        return {}, f"a hooks file is invalid: {exc}", kernel
    return candidates(kernel, store, config), None, kernel


def describe_pin(pin: Any) -> dict[str, Any]:
    """What ``pin`` covers, as JSON: the exec chain and the helper files, each with its
    hash; the files pinned as absent; the folder pinned as a unit; what is pinned by text
    only and what is read after the check, each with why."""
    from hookwire._helpers import ABSENT

    helpers = list(pin.helpers or ())
    return {
        "chain": [{"path": p, "sha256": d.removeprefix("sha256:")} for p, d in pin.chain],
        "helpers": None if pin.helpers is None else [
            {"path": p, "sha256": d.removeprefix("sha256:")} for p, d in helpers
            if d != ABSENT],
        "absent": [p for p, d in helpers if d == ABSENT],
        "folder": pin.folder,
        "text_only": pin.text_only,
        "read_after_check": pin.window,
        "note": None if pin.text_only else pin.note,
    }


def cmd_list(args: argparse.Namespace) -> int:
    from hookwire import trust

    store = trust.TrustStore()
    gated, problem, kernel = _gated(store)
    rows: list[dict[str, Any]] = []
    # the configured hooks in the order a host loads them, then approvals of hooks not
    # configured here
    for rid in [*gated, *(r for r in sorted(store.records) if r not in gated)]:
        record = store.records.get(rid)
        entry, now, state, folder = gated.get(rid, (None, None, "not configured here", None))
        if folder is not None and record is None:
            state = "trusted folder"
        pin = record.pin if record is not None else now
        approval: dict[str, Any] | None = None
        if record is not None:
            approval = {"stored_in": str(store.path), "approved": record.approved}
        elif folder is not None:
            approval = {"folder": folder, "stored_in": _folder_home(folder, store)}
        row: dict[str, Any] = {
            "id": rid, "state": state,
            "dialect": record.dialect if record else entry.dialect,
            "event": record.event if record else entry.event,
            "command": record.command if record else entry.display,
            "source": record.source if record else (entry.source or entry.provenance.value),
            "config": None if entry is None else {"file": entry.location.file,
                                                  "line": entry.location.line},
            "approval": approval,
            "pinned": describe_pin(pin),
            # an http, prompt, agent or mcp_tool hook: no file is read to run it
            "in_process": None if entry is None else _in_process(kernel, entry),
        }
        if record is not None and state == trust.TrustState.CHANGED:
            row["change"] = trust.difference(record.pin, now)
        rows.append(row)
    if args.json:
        print(json.dumps({"store": str(store.path), "problem": problem, "hooks": rows},
                         indent=2, ensure_ascii=False))
    else:
        _print(rows, str(store.path), problem)
    return EXIT_USAGE if problem and not rows else EXIT_OK


def _print(rows: list[dict[str, Any]], store: str, problem: str | None) -> None:
    print(f"approvals are stored in {store}")
    if problem:
        print(f"warning: {problem}; only stored approvals are listed")
    for row in rows:
        print(f"\n{row['state']:<8} {row['id']}  {row['dialect']}:{row['event']}  "
              f"`{row['command']}`")
        if row["config"]:
            print(f"  configured at {_where(row['config']['file'], row['config']['line'])}, "
                  f"source {row['source']}")
        approval = row["approval"]
        if approval is None:
            print("  approval: none (pending); approving it would pin:")
        elif "folder" in approval:
            print(f"  approval: its folder {approval['folder']} is trusted (stored in "
                  f"{approval['stored_in']}); it runs unpinned, and approving it would pin:")
        else:
            print(f"  approval: {approval['stored_in']}, approved {approval['approved']}")
        if "change" in row:
            print(f"  changed: {row['change']}")
        pinned = row["pinned"]
        if row["in_process"]:
            print(f"  pinned by its text: it runs {row['in_process']}, so no file is read "
                  "to run it")
            continue
        if pinned["text_only"]:
            print(f"  pinned by command text only: {pinned['text_only']}")
        elif pinned["note"] and not pinned["chain"]:
            print(f"  nothing pinned but the command text: {pinned['note']}")
        for item in pinned["chain"]:
            print(f"  exec chain   sha256:{item['sha256']}  {item['path']}")
        if pinned["helpers"] is None:
            print("  helper files: not pinned (approved before hookwire pinned them)")
        for item in pinned["helpers"] or ():
            print(f"  helper file  sha256:{item['sha256']}  {item['path']}")
        for path in pinned["absent"]:
            print(f"  absent       (a file here is a change)  {path}")
        if pinned["folder"]:
            print(f"  folder pinned as a unit: {pinned['folder']}")
        if pinned["read_after_check"]:
            print(f"  read from its path after the check (refused when trust is strict): "
                  f"{pinned['read_after_check']}")
    if not rows:
        print("no approvals, and no configured hook waits for one")
