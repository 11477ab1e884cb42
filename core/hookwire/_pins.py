"""What a command runs, pinned: the file that really runs and the SHA-256 of its content.

:func:`resolve` follows the command the way its process would (``PATH``, ``env``, interpreters
and the script they run) without reading a file twice; :func:`cannot_run` says why a command
would fail to start. :mod:`hookwire.trust` records and checks these pins.
"""

from __future__ import annotations

import hashlib
import os
import stat
from typing import Any

import attrs

from hookwire import _chain, _helpers
from hookwire.config._shellwords import Unsafe
from hookwire.config._shellwords import split as split_words
from hookwire.runner import Command

#: Programs whose first operand is the file that really runs (its content is pinned instead).
INTERPRETERS = _chain.INTERPRETERS
_MAX_SIZE = 256 * 1024 * 1024
#: Digests of files outside the project by (device, inode, size, mtime, ctime): a changed
#: file has a new ctime, which no unprivileged process can set back.
_DIGESTS: dict[tuple[int, ...], str] = {}


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
    #: Every file of the exec chain (launchers, interpreters, ``#!`` lines, the script):
    #: ``(path, digest)``, outermost first.
    chain: tuple[tuple[str, str], ...] = ()
    #: Why only the command text is pinned (inline code, a module, npx ...), else ``None``.
    text_only: str | None = None
    #: The helper files the script loads from its folder (:mod:`hookwire._helpers`):
    #: ``(path, digest)``, sorted; ``None`` in a record made before helpers were pinned.
    helpers: tuple[tuple[str, str], ...] | None = None
    #: The folder pinned as a unit, when its helpers cannot all be found statically.
    folder: str | None = None
    #: Why part of what runs is read from its path after the check, or is not pinned (a ruby
    #: script, a file a shell hook names at run time ...); refused when trust is strict.
    window: str | None = None

    def same(self, other: Pin) -> bool:
        return (self.path, self.digest, self.interpreter, self.chain, self.text_only,
                self.helpers or (), self.folder) == (
            other.path, other.digest, other.interpreter, other.chain, other.text_only,
            other.helpers or (), other.folder)

    @property
    def loose(self) -> str | None:
        """Why strict trust refuses this pin (text only, or read after the check)."""
        return (self.text_only and self.pinned) or self.window

    @property
    def pinned(self) -> str:
        """What the pin covers, for ``trust`` and ``check``."""
        if self.text_only or self.path is None:
            return f"pinned by command text only ({self.text_only or self.note})"
        files = len(self.chain) or 1
        text = f"pinned by content ({files} file{'s' if files > 1 else ''} of the exec chain"
        helpers = [h for h in self.helpers or () if h[1] != _helpers.ABSENT]
        if helpers:
            text += f", {len(helpers)} helper file{'s' if len(helpers) > 1 else ''}"
        if self.folder:
            text += f", its folder {self.folder} as a unit"
        text += ")"
        return text + (f"; read after the check: {self.window}" if self.window else "")

    def to_json(self) -> dict[str, Any]:
        return {"path": self.path, "digest": self.digest, "interpreter": self.interpreter,
                "note": self.note, "chain": [list(c) for c in self.chain],
                "text_only": self.text_only,
                "helpers": [list(h) for h in self.helpers or ()],
                "folder": self.folder, "window": self.window}

    @classmethod
    def from_json(cls, raw: Any) -> Pin:
        helpers = raw.get("helpers")
        return cls(path=raw.get("path"), digest=raw.get("digest"),
                   interpreter=raw.get("interpreter"), note=raw.get("note"),
                   chain=tuple((str(p), str(d)) for p, d in raw.get("chain") or ()),
                   text_only=raw.get("text_only"),
                   helpers=None if helpers is None else tuple(
                       (str(p), str(d)) for p, d in helpers),
                   folder=raw.get("folder"), window=raw.get("window"))


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


def _where(command: Command) -> tuple[str, Any]:
    return command.cwd or os.getcwd(), command.env if command.env is not None else os.environ


def local(path: str, command: Command) -> bool:
    """Whether ``path`` is the project's own (under the command's directory): such a file is
    run from a verified private copy, never from its path."""
    cwd = os.path.realpath(command.cwd or os.getcwd())
    return path == cwd or path.startswith(cwd.rstrip("/") + "/")


def digest_file(path: str, command: Command) -> tuple[str, bytes | None]:
    """The digest of ``path`` and, for the project's own files, the bytes hashed."""
    if local(path, command):
        data = _read(path)
        return digest_of(data), data
    st = os.stat(path)
    key = (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)
    if key not in _DIGESTS:
        _DIGESTS[key] = digest_of(_read(path))
    return _DIGESTS[key], None


def chain_of(command: Command) -> tuple[_chain.Chain | None, str | None]:
    argv, why = command_argv(command)
    if argv is None:
        return None, why
    cwd, env = _where(command)
    return _chain.resolve(argv, cwd, env), None


@attrs.frozen(kw_only=True)
class Resolved:
    """What a command runs: its ``pin``, its ``chain``, the bytes read of the project's own
    files of the chain (``data``) and its ``helpers`` with their bytes."""

    pin: Pin
    chain: _chain.Chain | None = None
    data: dict[str, bytes] = attrs.field(factory=dict)
    helpers: _helpers.HelperSet = attrs.field(factory=_helpers.HelperSet)


def resolve_chain(command: Command) -> tuple[Pin, _chain.Chain | None, dict[str, bytes]]:
    """What ``command`` runs, pinned; its chain; the bytes read of the project's own files."""
    found = resolve_all(command)
    return found.pin, found.chain, found.data


def resolve_all(command: Command) -> Resolved:
    """What ``command`` runs, pinned, with every byte read for it (each file read once)."""
    pin, chain, data = _resolve_chain(command)
    if chain is None or pin.path is None:
        return Resolved(pin=pin, chain=chain, data=data)
    cwd, env = _where(command)
    # only the variables the harness sets for the hook (its project dir ...): the rest of a
    # process's environment differs between `hookwire trust` and a host
    env = {k: v for k, v in env.items() if os.environ.get(k) != v}
    try:
        helpers = _helpers.scan(chain, list(chain.argv), cwd, env, _read, data.get(pin.path))
    except OSError as exc:
        return Resolved(pin=Pin(note=f"cannot read a helper file: {exc.strerror or exc}"),
                        chain=chain)
    window = helpers.window
    for link in chain.links:
        if link.role == "script" and link.launcher not in ("shell", "python", "node") \
                and local(link.path, command):
            runner = os.path.basename(link.runner or "") or str(link.launcher)
            window = window or (f"{runner} runs {os.path.basename(link.path)} from its path "
                                "after the check")
    pin = attrs.evolve(pin, helpers=helpers.files, folder=helpers.folder, window=window)
    return Resolved(pin=pin, chain=chain, data=data, helpers=helpers)


def _resolve_chain(command: Command) -> tuple[Pin, _chain.Chain | None, dict[str, bytes]]:
    chain, why = chain_of(command)
    if chain is None:
        return Pin(note=why, text_only=why), None, {}
    if chain.missing:
        return Pin(note=chain.missing), chain, {}
    digests: list[tuple[str, str]] = []
    data: dict[str, bytes] = {}
    try:
        for link in chain.links:
            digest, read = digest_file(link.path, command)
            digests.append((link.path, digest))
            if read is not None:
                data[link.path] = read
    except OSError as exc:
        return Pin(note=f"cannot read: {exc.strerror or exc}"), chain, {}
    main = chain.links[-1] if chain.links else None
    if main is None:
        return Pin(note="nothing to pin", text_only=chain.text_only), chain, {}
    return Pin(path=main.path, digest=dict(digests)[main.path], interpreter=main.runner,
               index=main.index, chain=tuple(digests), text_only=chain.text_only,
               note=chain.text_only), chain, data


def resolve(command: Command) -> tuple[Pin, bytes | None]:
    """What ``command`` runs, pinned, with the bytes of its main file when they were read."""
    found = resolve_all(command)
    return found.pin, found.data.get(found.pin.path or "")


def cannot_run(command: Command) -> tuple[str, str] | None:
    """Why ``command`` cannot start, as ``(status, detail)``: ``missing`` when its program, or
    the script its interpreter runs, does not exist; ``not executable`` when the file it
    executes is not executable. ``None`` when it can start, or when only a shell could tell
    (shell text with pipes, variables ...). Resolves exactly as :func:`resolve` pins."""
    argv, _ = command_argv(command)
    if argv is None:
        return None
    cwd, env = _where(command)
    where = f" (in {command.cwd})" if command.cwd else ""
    exe = _chain.which(argv[0], cwd, env)
    if exe is None:
        return "missing", f"{argv[0]!r} not found{where}"
    if os.path.isdir(exe) or not os.access(exe, os.X_OK):
        return "not executable", f"{os.path.realpath(exe)} is not an executable file"
    chain = _chain.resolve(argv, cwd, env)
    if chain.missing:
        return "missing", f"{chain.missing}{where}"
    return None
