"""What the runner takes and gives: :class:`Command` (a process to run) and :class:`Outcome`
(how it ended), with :class:`OutcomeKind`. Re-exported by :mod:`hookwire.runner`."""

from __future__ import annotations

import enum
import os
from collections.abc import Iterator, Mapping

import attrs

DEFAULT_OUTPUT_CAP = 1024 * 1024
DEFAULT_GRACE = 0.5


class OutcomeKind(enum.StrEnum):
    """How a hook process ended. Exactly one applies to each run."""

    EXITED = "exited"                    #: exited by itself; ``exit_code`` is set
    SIGNALED = "signaled"                #: killed by a signal it did not get from us
    TIMED_OUT = "timed_out"              #: ran past its timeout; we ended the group
    CANCELLED = "cancelled"              #: the awaiting task was cancelled; we ended the group
    FAILED_TO_START = "failed_to_start"  #: could not be spawned (see ``start_error``)
    OVER_CAP = "over_cap"                #: wrote more than the cap; we ended the group
    NOT_UTF8 = "not_utf8"                #: exited, but stdout or stderr is not valid UTF-8

    def __str__(self) -> str:
        return self.value


class Environment(Mapping[str, str]):
    """A hook's complete environment, immutable and encoded once (names and values as bytes), so
    a spawn plan reused for every call of a hook pays for the encoding once, not per run."""

    __slots__ = ("_items", "as_bytes", "spawn_cache")

    def __init__(self, items: Mapping[str, str]) -> None:
        self._items = dict(items)
        as_bytes: dict[bytes, bytes] = {}
        for name, value in self._items.items():
            key = os.fsencode(name)
            if b"=" in key:
                raise ValueError(f"illegal environment variable name {name!r}")
            as_bytes[key] = os.fsencode(value)
        #: The variables as bytes (``Popen(env=...)`` finds them encoded already).
        self.as_bytes: dict[bytes, bytes] = as_bytes
        #: What the spawner built from the variables once (the C array it hands the kernel).
        self.spawn_cache: object = None

    def __getitem__(self, name: str) -> str:
        return self._items[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._items)

    def __len__(self) -> int:
        return len(self._items)

    def __repr__(self) -> str:
        return f"Environment({len(self._items)} variables)"


@attrs.frozen(kw_only=True)
class Direct:
    """Shell elision: the argv shell ``text`` means, run without the shell. ``executable`` is
    the file found for ``argv[0]`` when the plan was made (``None``: search at each run).
    Honoured only while the command's ``shell`` is still ``text``."""

    text: str
    argv: tuple[str, ...]
    executable: str | None = None


@attrs.frozen(kw_only=True)
class Command:
    """One hook process to run.

    Exactly one of ``argv`` (exec form) and ``shell`` (shell text) is set; shell text runs as
    ``shell_argv + (shell,)`` (default ``/bin/sh -c TEXT``). ``env`` is the complete
    environment (``None`` inherits hookwire's); ``cwd`` the working directory, and
    ``cwd_fallbacks`` where to run instead, in order, when it is gone (no such directory:
    the child's ``chdir`` failed with ``ENOENT``/``ENOTDIR``; an environment whose ``PWD``
    named the cwd then names the directory used), tried at spawn time, so nobody has to
    ``stat`` the cwd before each run. ``timeout`` is
    in seconds (``None``: no limit). ``output_cap`` bounds stdout and stderr each. ``grace`` is
    how long the group has between SIGTERM and SIGKILL. ``drain`` is how long, after the hook
    itself exited, its pipes are still read before leftover descendants are ended.
    ``direct`` (shell text only; opt-in shell elision) execs the text's words without the
    shell, falling back to the shell when the file is not a binary or ``#!`` script
    (``ENOEXEC``), and exits 127/126 with the shell's message when it is not found / not
    executable.
    """

    argv: tuple[str, ...] | None = None
    shell: str | None = None
    shell_argv: tuple[str, ...] = ("/bin/sh", "-c")
    stdin: bytes = b""
    env: Mapping[str, str] | None = None
    cwd: str | None = None
    cwd_fallbacks: tuple[str, ...] = ()
    timeout: float | None = None
    output_cap: int = DEFAULT_OUTPUT_CAP
    grace: float = DEFAULT_GRACE
    drain: float = 0.05
    direct: Direct | None = None

    def __attrs_post_init__(self) -> None:
        if (self.argv is None) == (self.shell is None):
            raise ValueError("a Command needs exactly one of argv and shell")
        if self.argv is not None and not self.argv:
            raise ValueError("argv must not be empty")

    @property
    def display(self) -> str:
        """The command as a person would write it (shell text, or argv joined)."""
        if self.shell is not None:
            return self.shell
        import shlex

        assert self.argv is not None
        return shlex.join(self.argv)

    @property
    def spawn_argv(self) -> tuple[str, ...]:
        """The argv actually spawned."""
        if self.shell is not None:
            return (*self.shell_argv, self.shell)
        assert self.argv is not None
        return self.argv


@attrs.frozen(kw_only=True)
class Outcome:
    """The neutral result of one run.

    ``stdout``/``stderr`` are the bytes read (at most ``output_cap`` each); ``stdout_text`` and
    ``stderr_text`` decode them (``None`` when not valid UTF-8). ``exit_code`` is set when the
    process exited by itself, ``signal`` when a signal ended it. ``start_error`` says why a
    spawn failed (``not_found``, ``not_executable``, ``bad_cwd`` or the OS message).
    ``stdout_over_cap``/``stderr_over_cap`` tell which stream overflowed. ``escaped`` lists
    the descendants that left the hook's session on purpose (``setsid``, a daemon): they are
    not ended with its group (Linux only; see :mod:`hookwire._escape` for what is found).
    """

    kind: OutcomeKind
    exit_code: int | None = None
    signal: int | None = None
    stdout: bytes = b""
    stderr: bytes = b""
    stdout_over_cap: bool = False
    stderr_over_cap: bool = False
    start_error: str | None = None
    duration_ms: float = 0.0
    pid: int | None = None
    escaped: tuple[int, ...] = ()

    @property
    def daemonized(self) -> bool:
        """A descendant of the hook left its session and was left running."""
        return bool(self.escaped)

    @property
    def stdout_text(self) -> str | None:
        try:
            return self.stdout.decode("utf-8")
        except UnicodeDecodeError:
            return None

    @property
    def stderr_text(self) -> str | None:
        try:
            return self.stderr.decode("utf-8")
        except UnicodeDecodeError:
            return None

    @property
    def ok(self) -> bool:
        """Exited with status 0."""
        return self.kind is OutcomeKind.EXITED and self.exit_code == 0
