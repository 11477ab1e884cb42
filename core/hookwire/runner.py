"""The one process runner every dialect uses.

``await run(Command(...))`` spawns a hook in its own process group, writes ``stdin`` and closes
it, reads stdout and stderr concurrently up to a byte cap, and returns an :class:`Outcome`.
No process of the hook outlives the call: on timeout, cancellation, output over the cap, or
when the hook exits while a descendant still holds its pipes, the whole group gets SIGTERM,
a short shielded grace, then SIGKILL.
"""

from __future__ import annotations

import errno
import os
import time
from collections.abc import Callable

import anyio
import anyio.lowlevel
import attrs

from hookwire._child import _Child
from hookwire._command import (
    DEFAULT_GRACE,
    DEFAULT_OUTPUT_CAP,
    Command,
    Direct,
    Environment,
    Outcome,
    OutcomeKind,
)
from hookwire._plans import PlanCache
from hookwire._process import _Watch

__all__ = ["DEFAULT_GRACE", "DEFAULT_OUTPUT_CAP", "Command", "Direct", "Environment", "Outcome",
           "OutcomeKind", "PlanCache", "run"]


async def run(command: Command, *, on_cancel: Callable[[Outcome], object] | None = None) -> Outcome:
    """Run ``command`` to completion and return its :class:`Outcome`.

    Never raises for a failing hook. The run is over when the hook process itself exits;
    its pipes are then read for at most ``command.drain`` seconds more, and whatever is left
    of its process group is ended. ``exit_code``/``signal`` always describe how the hook
    process ended, also for ``TIMED_OUT`` and ``OVER_CAP`` (usually ``signal`` 15 or 9, ours).

    If the awaiting task is cancelled, the group is ended (shielded), ``on_cancel`` (when
    given; it must not raise) receives the ``CANCELLED`` outcome with the output read so far,
    and the cancellation is re-raised. A caller that is already cancelled starts nothing.
    """
    started = time.perf_counter()
    await anyio.lowlevel.checkpoint_if_cancelled()  # a cancelled caller starts nothing
    try:
        spawned = _spawn(command)
    except (OSError, ValueError) as exc:
        fallback = _cwd_fallback(exc, command)
        if fallback is not None:
            return await run(fallback, on_cancel=on_cancel)
        direct = _direct(command)
        if direct is not None and isinstance(exc, OSError) and exc.filename != command.cwd:
            shell_said = _as_the_shell(exc, command, direct.argv[0], started)
            if shell_said is not None:
                return shell_said
        return _not_started(_start_error(exc, command), started)
    watch = _Watch(command, spawned, started)
    child = watch.child
    try:
        try:
            await watch.until_exit(command.timeout)
            if child.returncode is not None and watch.streams_open():
                await watch.drain()
        finally:
            if not watch.finish_now():
                await watch.finish()
    except anyio.get_cancelled_exc_class():
        if on_cancel is not None:
            on_cancel(watch.outcome(OutcomeKind.CANCELLED))
        raise
    return watch.outcome(watch.kind())


def _cwd_fallback(exc: Exception, command: Command) -> Command | None:
    """``command`` in its next fallback directory when its cwd is gone (the child's chdir
    failed: no such directory), with ``PWD`` following; ``None`` otherwise."""
    if (not command.cwd_fallbacks or not isinstance(exc, FileNotFoundError | NotADirectoryError)
            or command.cwd is None or exc.filename != command.cwd):
        return None
    cwd, *rest = command.cwd_fallbacks
    env = command.env
    if env is not None and env.get("PWD") == command.cwd:
        env = Environment({**env, "PWD": cwd})
    return attrs.evolve(command, cwd=cwd, cwd_fallbacks=tuple(rest), env=env)


def _direct(command: Command) -> Direct | None:
    direct = command.direct
    # a shell text rewritten after the plan was made (a trusted copy, say) runs in the shell
    return direct if direct is not None and direct.text == command.shell else None


def _spawn(command: Command) -> tuple[_Child, int, int]:
    direct = _direct(command)
    if direct is None:
        return _Child.spawn(command, command.spawn_argv)
    try:
        return _Child.spawn(command, direct.argv, direct.executable)
    except OSError as exc:
        if exc.errno != errno.ENOEXEC:
            raise
    # not a binary nor a #! script: the shell runs such a file as a script, so let it
    return _Child.spawn(command, command.spawn_argv)


def _as_the_shell(exc: OSError, command: Command, name: str, started: float
                  ) -> Outcome | None:
    """What the shell would have done when an elided command's exec failed: exit 127 for a
    file not found, 126 for one not executable, with the shell's own message."""
    if isinstance(exc, FileNotFoundError | NotADirectoryError):
        code, dash, bash = 127, "not found", "command not found"
    elif isinstance(exc, PermissionError | IsADirectoryError):
        code, dash, bash = 126, "Permission denied", "Permission denied"
    else:
        return None
    shell = command.shell_argv[0]
    line = (f"{shell}: {name}: {bash}\n" if os.path.basename(shell) == "bash"
            else f"{shell}: 1: {name}: {dash}\n")
    return Outcome(kind=OutcomeKind.EXITED, exit_code=code, stderr=line.encode(),
                   duration_ms=(time.perf_counter() - started) * 1000)


def _not_started(reason: str, started: float) -> Outcome:
    return Outcome(
        kind=OutcomeKind.FAILED_TO_START,
        start_error=reason,
        duration_ms=(time.perf_counter() - started) * 1000,
    )


def _start_error(exc: Exception, command: Command) -> str:
    if not isinstance(exc, OSError):
        return str(exc)  # e.g. an embedded NUL byte in argv or env
    cwd = command.cwd
    # Popen names the cwd as the filename when the child's chdir failed.
    if cwd is not None and (exc.filename == cwd or not os.path.isdir(cwd)):
        return "bad_cwd"
    if isinstance(exc, FileNotFoundError | NotADirectoryError):
        return "not_found"
    if isinstance(exc, PermissionError) or exc.errno == errno.ENOEXEC:
        return "not_executable"
    return str(exc)
