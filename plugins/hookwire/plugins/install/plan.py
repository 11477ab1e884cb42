"""What an install or uninstall will do: file changes, computed before anything is written."""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path

import attrs


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
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        keep = path.stat().st_mode & 0o7777
    except FileNotFoundError:
        keep = None
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".hookwire")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        final = mode if mode is not None else keep
        if final is None:  # a new file gets what the user's umask gives any new file
            umask = os.umask(0)
            os.umask(umask)
            final = 0o666 & ~umask
        os.chmod(tmp, final)
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise
