"""``hookwire log [SESSION]``: a recorded session as its timeline, or its records as JSON."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from hookwire.plugins.runlog.switch import ENV, default_dir, log_dir

EXIT_USAGE = 2


def add_parser(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "log", help="show a recorded session (the run log) as its timeline: the last one, or "
                    "SESSION")
    p.add_argument("session", nargs="?", metavar="SESSION",
                   help="a session id or a unique prefix of one (default: the latest)")
    p.add_argument("--dir", type=Path, default=None,
                   help=f"the run log directory (default: ${ENV}, else {default_dir()})")
    p.add_argument("--json", action="store_true",
                   help="print the session's records as JSON lines instead")
    p.add_argument("--list", action="store_true", help="list the recorded sessions, latest last")
    p.set_defaults(handler=run)


def sessions(directory: Path) -> list[Path]:
    """The recorded sessions, oldest first."""
    if not directory.is_dir():
        return []
    return sorted(directory.glob("*.jsonl"), key=lambda p: (p.stat().st_mtime_ns, p.name))


def find(directory: Path, wanted: str | None) -> Path:
    from hookwire.errors import HookwireError

    found = sessions(directory)
    if not found:
        raise HookwireError(f"no recorded sessions in {directory} (record with {ENV}=1, "
                            f"or run `hookwire demo`)")
    if wanted is None:
        return found[-1]
    matches = [p for p in found if p.stem == wanted] or [p for p in found
                                                         if p.stem.startswith(wanted)]
    if len(matches) != 1:
        what = "is ambiguous" if matches else "matches no recorded session"
        raise HookwireError(f"session {wanted!r} {what} in {directory} "
                            f"(`hookwire log --list` lists them)")
    return matches[0]


def read(path: Path) -> list[dict[str, Any]]:
    records = []
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            records.append(json.loads(line))
        except json.JSONDecodeError:
            continue  # a line cut short by a crash: the rest still reads
    return records


def run(args: argparse.Namespace) -> int:
    from hookwire.timeline import render

    directory = args.dir or log_dir() or default_dir()
    if args.list:
        for path in sessions(directory):
            records = read(path)
            seams = sum(1 for r in records if r.get("type") == "seam")
            head = next((r for r in records if r.get("type") == "session"), {})
            print(f"{path.stem}  {seams:4} seams  cwd {head.get('cwd', '?')}")
        return 0
    path = find(directory, args.session)
    records = read(path)
    if args.json:
        for record in records:
            sys.stdout.write(json.dumps(record, ensure_ascii=False) + "\n")
        return 0
    seams = render(records, sys.stdout)
    print(f"\n{seams} seams recorded in {path}")
    return 0
