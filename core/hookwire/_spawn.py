"""Starting one hook process in its own session with three given pipe ends.

One path on every supported CPython, on public APIs only: ``subprocess.Popen`` with
``start_new_session`` (a ``vfork``-based spawn on Linux when nothing needs the child to run
Python). What it would redo on every run is done once per spawn plan instead: an
:class:`~hookwire._command.Environment` hands ``Popen`` its variables already encoded as
bytes (``Popen`` then only joins them), so a hook's environment is not encoded again on each
call. ``Popen`` raises the ``OSError`` of a child that could not ``chdir`` (its filename is
the cwd) or ``exec``.
"""

from __future__ import annotations

import subprocess
from collections.abc import Mapping, Sequence
from typing import Protocol

from hookwire._command import Environment


class Process(Protocol):
    pid: int
    returncode: int | None

    def poll(self) -> int | None: ...
    def wait(self) -> int: ...


def spawn(argv: Sequence[str], executable: str | None, env: Mapping[str, str] | None,
          cwd: str | None, stdin: int, stdout: int, stderr: int) -> Process:
    """Start ``argv`` (``executable``: the file to run, default ``argv[0]`` searched on the
    environment's ``PATH``) with ``stdin``/``stdout``/``stderr`` as its 0-2, in a new session."""
    environ: Mapping[bytes, bytes] | Mapping[str, str] | None
    if env is None:
        environ = None
    elif isinstance(env, Environment):
        environ = env.as_bytes
    else:
        environ = env if isinstance(env, dict) else dict(env)
    return subprocess.Popen(argv, executable=executable, stdin=stdin, stdout=stdout,
                            stderr=stderr, env=environ, cwd=cwd, start_new_session=True)
