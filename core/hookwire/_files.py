"""Writing files atomically: a temporary file beside the target, then one rename."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def atomic_write(path: str | Path, data: bytes, *, mode: int | None = None) -> None:
    """Replace ``path`` with ``data`` so that readers see the old file or the new one, never
    half of one. ``mode``: the new file's permissions; ``None`` keeps those of the file it
    replaces, or gives a new file what the umask gives any new file."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    if mode is None:
        try:
            mode = path.stat().st_mode & 0o7777
        except FileNotFoundError:
            umask = os.umask(0)
            os.umask(umask)
            mode = 0o666 & ~umask
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".hookwire")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def inline_config(text: str) -> Path:
    """A config given as a JSON string (Claude Code's ``--settings '<json>'``), written to a
    private file of its own so every reader takes it as it takes a file."""
    folder = Path(tempfile.gettempdir()) / f"hookwire-{os.getuid()}" / "inline-config"
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    fd, name = tempfile.mkstemp(prefix="settings-", suffix=".json", dir=folder)
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        fh.write(text)
    return Path(name)
