"""Starting one hook process in its own session with three given pipe ends.

On CPython 3.11 this calls ``_posixsubprocess.fork_exec`` (what ``subprocess.Popen`` calls)
itself, so an :class:`~hookwire._command.Environment` goes to ``execve`` as encoded once by its
spawn plan; ``Popen`` would encode every variable again on every run (~40 µs for a typical
environment). Elsewhere, or when ``HOOKWIRE_SPAWN=popen``, ``Popen`` is used. Both raise the
same ``OSError`` for a child that could not ``chdir`` or ``exec``.
"""

from __future__ import annotations

import builtins
import os
import subprocess
import sys
import threading
from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from hookwire._command import Environment

_fork_exec: Any
try:
    from _posixsubprocess import fork_exec as _fork_exec
except ImportError:  # not CPython on POSIX
    _fork_exec = None

_DIRECT = (_fork_exec is not None and sys.version_info[:2] == (3, 11)
           and os.environ.get("HOOKWIRE_SPAWN") != "popen")


class Process(Protocol):
    pid: int
    returncode: int | None

    def poll(self) -> int | None: ...
    def wait(self) -> int: ...


def spawn(argv: Sequence[str], executable: str | None, env: Mapping[str, str] | None,
          cwd: str | None, stdin: int, stdout: int, stderr: int) -> Process:
    """Start ``argv`` (``executable``: the file to run, default ``argv[0]`` searched on the
    environment's ``PATH``) with ``stdin``/``stdout``/``stderr`` as its 0-2, in a new session."""
    if not _DIRECT:
        return subprocess.Popen(
            argv, executable=executable, stdin=stdin, stdout=stdout, stderr=stderr,
            env=None if env is None else env if isinstance(env, dict) else dict(env),
            cwd=cwd, start_new_session=True)
    return _Child.start(argv, executable, env, cwd, stdin, stdout, stderr)


class _Child:
    """The little of ``Popen`` the runner uses: ``pid``, ``returncode``, ``poll``, ``wait``
    (thread-safe against each other, as the no-pidfd waiter thread needs)."""

    __slots__ = ("_lock", "pid", "returncode")

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.returncode: int | None = None
        self._lock = threading.Lock()

    @classmethod
    def start(cls, argv: Sequence[str], executable: str | None, env: Mapping[str, str] | None,
              cwd: str | None, stdin: int, stdout: int, stderr: int) -> _Child:
        args = list(argv)
        sys.audit("subprocess.Popen", executable or args[0], args, cwd, env)
        if env is None:
            env_list: Any = None
        elif isinstance(env, Environment):
            env_list = env.encoded
        else:
            env_list = Environment(env).encoded
        exe = os.fsencode(executable or args[0])
        if os.path.dirname(exe):
            exe_list: tuple[bytes, ...] = (exe,)
        else:
            exe_list = tuple(os.path.join(os.fsencode(d), exe)
                             for d in os.get_exec_path(env))
        err_read, err_write = os.pipe()
        try:
            try:
                pid = _fork_exec(
                    args, exe_list, True, (err_write,), cwd, env_list,
                    stdin, -1, -1, stdout, -1, stderr, err_read, err_write,
                    True, True, -1, None, None, None, -1, None, True)
            finally:
                os.close(err_write)
            data = bytearray()
            while True:
                part = os.read(err_read, 50000)
                data += part
                if not part or len(data) > 50000:
                    break
        finally:
            os.close(err_read)
        child = cls(pid)
        if data:
            child.wait()
            raise _child_error(bytes(data), cwd, args[0] if executable is None else executable)
        return child

    def poll(self) -> int | None:
        if self.returncode is None and self._lock.acquire(False):
            try:
                if self.returncode is None:
                    pid, status = os.waitpid(self.pid, os.WNOHANG)
                    if pid == self.pid:
                        self.returncode = os.waitstatus_to_exitcode(status)
            except ChildProcessError:  # reaped elsewhere (SIGCHLD ignored, say)
                self.returncode = 0
            finally:
                self._lock.release()
        return self.returncode

    def wait(self) -> int:
        with self._lock:
            while self.returncode is None:
                try:
                    pid, status = os.waitpid(self.pid, 0)
                except ChildProcessError:
                    self.returncode = 0
                    break
                if pid == self.pid:
                    self.returncode = os.waitstatus_to_exitcode(status)
        return self.returncode


def _child_error(data: bytes, cwd: str | None, executable: str) -> BaseException:
    """The exception ``Popen`` raises for the error report its child wrote."""
    try:
        name, hex_errno, raw = data.split(b":", 2)
        message = raw.decode()
    except ValueError:
        return subprocess.SubprocessError(f"Bad exception data from child: {data!r}")
    kind = getattr(builtins, name.decode("ascii"), subprocess.SubprocessError)
    if not (isinstance(kind, type) and issubclass(kind, OSError) and hex_errno):
        return kind(message) if isinstance(kind, type) else subprocess.SubprocessError(message)
    number = int(hex_errno, 16)
    # "noexec": the child failed before exec, that is in chdir (CPython 3.11's protocol)
    filename = cwd if message.startswith("noexec") else executable
    return OSError(number, os.strerror(number) if number else "", filename)
