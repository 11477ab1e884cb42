"""``hookwire trust --list [--json]``: every approval and every hook waiting for one, with
each file pinned and its hash, what is pinned by command text only and why, what is read
after the check, and where the approval is stored."""

from __future__ import annotations

import argparse
import json
import os
from collections.abc import Callable
from typing import Any

EXIT_OK, EXIT_USAGE = 0, 2


def _gated(store: Any, cli: Any) -> tuple[dict[str, tuple[Any, Any]], str | None]:
    """The configured hooks hookwire's trust decides: ``id → (entry, pin now)``, and why
    none could be read (an invalid hooks file)."""
    from pathlib import Path

    from hookwire import trust
    from hookwire._cli_check import gather
    from hookwire.config import ConfigFileError

    kernel = cli._kernel()
    try:
        config = cli._load()
    except ConfigFileError as exc:
        return {}, f"a hooks file is invalid: {exc}"
    root = config.project_root or os.getcwd()
    found: dict[str, tuple[Any, Any]] = {}
    items, _ = gather(kernel, config, Path.cwd())  # what a host's discover() loads
    for entry in (i.entry for i in items if i.entry is not None):
        gated = trust.needs_trust(entry) and trust.dialect_trust(kernel, entry).runs is None
        if gated or (entry.project is not None and not trust.needs_trust(entry)):
            found.setdefault(trust.hook_id(entry), (
                entry, cli._pin_now(kernel, entry, entry.project or root)))
    return found, None


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


def cmd_list(args: argparse.Namespace, cli: Any) -> int:
    """The listing; ``cli`` is :mod:`hookwire._cli_config` (its loaders), passed in so that
    the two modules do not import each other."""
    from hookwire import trust

    store = trust.TrustStore()
    gated, problem = _gated(store, cli)
    rows: list[dict[str, Any]] = []
    # the configured hooks in config order, then approvals of hooks not configured here
    for rid in [*gated, *(r for r in sorted(store.records) if r not in gated)]:
        record = store.records.get(rid)
        entry, now = gated.get(rid, (None, None))
        state = "not configured here" if entry is None else trust.state_of(entry, store, now)
        pin = record.pin if record is not None else now
        row: dict[str, Any] = {
            "id": rid, "state": state,
            "dialect": record.dialect if record else entry.dialect,
            "event": record.event if record else entry.event,
            "command": record.command if record else entry.display,
            "source": record.source if record else (entry.source or entry.provenance.value),
            "config": None if entry is None else {"file": entry.location.file,
                                                  "line": entry.location.line},
            "approval": None if record is None else {"stored_in": str(store.path),
                                                     "approved": record.approved},
            "pinned": describe_pin(pin),
        }
        if record is not None and state == trust.TrustState.CHANGED:
            row["change"] = trust.difference(record.pin, now)
        rows.append(row)
    if args.json:
        print(json.dumps({"store": str(store.path), "problem": problem, "hooks": rows},
                         indent=2, ensure_ascii=False))
    else:
        _print(rows, str(store.path), problem, cli._where)
    return EXIT_USAGE if problem and not rows else EXIT_OK


def _print(rows: list[dict[str, Any]], store: str, problem: str | None,
           where: Callable[[str | None, int | None], str]) -> None:
    print(f"approvals are stored in {store}")
    if problem:
        print(f"warning: {problem}; only stored approvals are listed")
    for row in rows:
        print(f"\n{row['state']:<8} {row['id']}  {row['dialect']}:{row['event']}  "
              f"`{row['command']}`")
        if row["config"]:
            print(f"  configured at {where(row['config']['file'], row['config']['line'])}, "
                  f"source {row['source']}")
        approval = row["approval"]
        print(f"  approval: {approval['stored_in']}, approved {approval['approved']}"
              if approval else "  approval: none (pending); approving it would pin:")
        if "change" in row:
            print(f"  changed: {row['change']}")
        pinned = row["pinned"]
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
