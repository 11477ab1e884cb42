"""What a command runs, pinned: the file that really runs and the SHA-256 of its content.

:func:`resolve` follows the command the way its process would (``PATH``, ``env``, interpreters
and the script they run) without reading a file twice; :func:`cannot_run` says why a command
would fail to start. :mod:`hookwire.trust` records and checks these pins.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import stat
from collections.abc import Sequence
from typing import Any

import attrs

from hookwire.config._shellwords import Unsafe
from hookwire.config._shellwords import split as split_words
from hookwire.runner import Command

#: Programs whose first operand is the file that really runs (its content is pinned instead).
INTERPRETERS = frozenset({
    "sh", "bash", "dash", "zsh", "ksh", "fish", "python", "python3", "pypy3", "node", "deno",
    "bun", "ruby", "perl", "php", "lua", "Rscript", "tsx", "ts-node",
})
#: Interpreter options after which there is no script file (inline code or a module).
_INLINE = frozenset({"-c", "-e", "-m", "--eval", "-p", "--print", "-E"})
_MAX_SIZE = 64 * 1024 * 1024
#: An interpreter operand that names a script file (a path, or a name with an extension).
_SCRIPT_LIKE = re.compile(r"/|\.[A-Za-z0-9]{1,5}$")





@attrs.frozen(kw_only=True)
class Pin:
    """The file a command runs: ``path`` (resolved, symlinks followed) and its content
    ``digest``; ``interpreter`` when ``path`` is a script run by one; ``index`` is the argv
    position naming it. ``path is None`` when nothing can be pinned, and ``note`` says why."""

    path: str | None = None
    digest: str | None = None
    interpreter: str | None = None
    index: int | None = None
    note: str | None = None

    def same(self, other: Pin) -> bool:
        return (self.path, self.digest, self.interpreter) == (
            other.path, other.digest, other.interpreter)

    def to_json(self) -> dict[str, Any]:
        return {"path": self.path, "digest": self.digest, "interpreter": self.interpreter,
                "note": self.note}


def command_argv(command: Command) -> tuple[list[str] | None, str | None]:
    """The argv a Command runs: its argv, or its shell text split exactly with the command's
    own environment (``None`` and the reason when the text needs a shell)."""
    if command.argv is not None:
        return list(command.argv), None
    env = command.env if command.env is not None else os.environ
    try:
        words = split_words(command.shell or "", env.get)
    except Unsafe as exc:
        return None, f"shell text that needs a shell ({exc}): only the text is pinned"
    if not words:
        return None, "empty command"
    return words, None


def _which(name: str, command: Command) -> str | None:
    env = command.env if command.env is not None else os.environ
    cwd = command.cwd or os.getcwd()
    if "/" in name:
        path = os.path.join(cwd, name)
        return path if os.path.exists(path) else None
    return shutil.which(name, path=env.get("PATH", os.defpath))


def _target(argv: Sequence[str], command: Command,
            offset: int = 0) -> tuple[str | None, str | None, int, str]:
    """(file that runs, its interpreter or None, argv index of the file, note); reads nothing."""
    exe = _which(argv[0], command)
    if exe is None:
        return None, None, offset, f"{argv[0]!r} not found"
    real = os.path.realpath(exe)
    names = {os.path.basename(argv[0]).rstrip("0123456789."),
             os.path.basename(real).rstrip("0123456789.")}
    if "env" in names:  # env [-opts] [NAME=value ...] program args: pin the program
        for i in range(1, len(argv)):
            if not (argv[i].startswith("-") or "=" in argv[i]):
                return _target(argv[i:], command, offset + i)
        return real, None, offset, ""
    if names & INTERPRETERS:
        for i in range(1, len(argv)):
            arg = argv[i]
            if arg in _INLINE:
                break
            if arg.startswith("-"):
                continue
            script = os.path.join(command.cwd or os.getcwd(), arg)
            if os.path.isfile(script):
                return os.path.realpath(script), real, offset + i, ""
            if _SCRIPT_LIKE.search(arg):  # the interpreter itself is pinned; say what is amiss
                return real, None, offset, f"{arg!r} not found (the script {argv[0]} runs)"
            break
    return real, None, offset, ""


def _read(path: str) -> bytes:
    """The bytes of a regular file, read through one descriptor (no second lookup)."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_CLOEXEC", 0))
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise OSError(f"{path} is not a regular file")
        if info.st_size > _MAX_SIZE:
            raise OSError(f"{path} is larger than {_MAX_SIZE} bytes")
        chunks = []
        while chunk := os.read(fd, 1 << 20):
            chunks.append(chunk)
        return b"".join(chunks)
    finally:
        os.close(fd)


def digest_of(data: bytes) -> str:
    return "sha256:" + hashlib.sha256(data).hexdigest()


def resolve(command: Command) -> tuple[Pin, bytes | None]:
    """What ``command`` runs, pinned, with the exact bytes that were hashed."""
    argv, why = command_argv(command)
    if argv is None:
        return Pin(note=why), None
    path, interp, index, note = _target(argv, command)
    if path is None:
        return Pin(note=note), None
    try:
        data = _read(path)
    except OSError as exc:
        return Pin(path=path, interpreter=interp, index=index,
                   note=f"cannot read: {exc.strerror or exc}"), None
    return Pin(path=path, digest=digest_of(data), interpreter=interp, index=index), data


def cannot_run(command: Command) -> tuple[str, str] | None:
    """Why ``command`` cannot start, as ``(status, detail)``: ``missing`` when its program, or
    the script its interpreter runs, does not exist; ``not executable`` when the file it
    executes is not executable. ``None`` when it can start, or when only a shell could tell
    (shell text with pipes, variables ...). Resolves exactly as :func:`resolve` pins."""
    argv, _ = command_argv(command)
    if argv is None:
        return None
    path, interp, _, note = _target(argv, command)
    where = f" (in {command.cwd})" if command.cwd else ""
    if path is None:
        return "missing", f"{note}{where}"
    if interp is None and note:
        return "missing", f"{note}{where}"
    if interp is None and (os.path.isdir(path) or not os.access(path, os.X_OK)):
        return "not executable", f"{path} is not an executable file"
    return None
