"""What an install or uninstall will do: file changes, computed before anything is written."""

from __future__ import annotations

import contextlib
from pathlib import Path

import attrs

from hookwire._files import atomic_write


@attrs.frozen(kw_only=True)
class FileChange:
    """``path`` goes from ``before`` to ``after`` (``None``: absent). ``mode`` is set for files
    that must be executable."""

    path: str
    before: bytes | None
    after: bytes | None
    mode: int | None = None

    @property
    def changed(self) -> bool:
        return self.before != self.after


def read_bytes(path: Path) -> bytes | None:
    try:
        return path.read_bytes()
    except FileNotFoundError:
        return None


def write_atomic(path: Path, data: bytes | None, mode: int | None = None) -> None:
    """Replace ``path`` with ``data`` through a temporary file and a rename, keeping the old
    file's permissions (or ``mode``); ``None`` deletes it."""
    if data is None:
        with contextlib.suppress(FileNotFoundError):
            path.unlink()
        return
    atomic_write(path, data, mode=mode)
