"""Unified diffs of planned file changes (``--dry-run``)."""

from __future__ import annotations

import difflib
from collections.abc import Iterable

from hookwire.plugins.install.plan import FileChange


def render(changes: Iterable[FileChange]) -> str:
    """One unified diff per changed file; binary-safe (undecodable bytes are replaced)."""
    out: list[str] = []
    for change in changes:
        if change.before == change.after:
            continue
        before = _lines(change.before)
        after = _lines(change.after)
        old = change.path if change.before is not None else "/dev/null"
        new = change.path if change.after is not None else "/dev/null"
        for line in difflib.unified_diff(before, after, fromfile=old, tofile=new):
            out.append(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n")
        if change.mode is not None and change.after is not None:
            out.append(f"mode {oct(change.mode)} {change.path}\n")
    return "".join(out)


def _lines(data: bytes | None) -> list[str]:
    if data is None:
        return []
    return data.decode("utf-8", "replace").splitlines(keepends=True)
