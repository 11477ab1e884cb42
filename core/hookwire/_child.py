"""One spawned hook process and our ends of its pipes (:class:`_Child`): spawning it into a
new session with everything that does not need it done first, what is watched of it, its
stdin, reaping it, closing what is ours."""

from __future__ import annotations

import fcntl
import os
import select
import selectors
import signal
import threading
from collections.abc import Callable
from typing import Any

import anyio

from hookwire._command import Command
from hookwire._spawn import Process, spawn

# A poller of the run's own multiplexes the hook's pipes and its exit, and the awaiting task
# sleeps on its descriptor: one wake-up per event, on any backend. (anyio.open_process
# was 1.5-2x the cost of spawning /bin/true on asyncio: Python 3.11 starts a waitpid thread
# per child, and connecting the pipe transports takes several loop round trips.)
if hasattr(select, "epoll"):
    _new_poller: Callable[[], Any] = select.epoll
    _READ, _WRITE = select.EPOLLIN, select.EPOLLOUT
else:  # kqueue (BSD, macOS) or /dev/poll; all have a pollable fileno()
    _new_poller = selectors.DefaultSelector
    _READ, _WRITE = selectors.EVENT_READ, selectors.EVENT_WRITE

# A write of up to PIPE_BUF bytes into an empty pipe never blocks (and is atomic): Linux gives
# a pipe at least one page however low the user's pipe budget.
_PAGE = getattr(select, "PIPE_BUF", 512)


class _Child:
    """A spawned hook: its Popen, our non-blocking pipe ends, an fd that turns readable when
    it exits (a pidfd, or a pipe closed by a waiter thread where there are none), and what
    is watched of them: while that is the exit alone, a wait is on ``exit_fd`` itself; a
    poller is made when a pipe joins."""

    __slots__ = (
        "exit_fd", "fds", "held", "pending", "poller", "popen", "returncode", "stdin", "watched"
    )  # fmt: skip

    def __init__(self, popen: Process, stdin: int, held: list[int], exit_fd: int,
                 pending: memoryview | None) -> None:
        self.popen = popen
        self.returncode: int | None = None
        self.stdin = stdin
        self.pending = memoryview(b"")
        # Until the hook exits we keep its stdout/stderr write ends open ourselves, so that
        # the hook closing them on its way out does not wake us once per pipe before the
        # exit does (each wake-up costs the exiting hook an inter-processor interrupt).
        self.held = held
        self.exit_fd = exit_fd
        self.fds = [*held, exit_fd]  # every fd still ours to close, but the poller
        self.poller: Any = None
        self.watched = {exit_fd: _READ}
        if pending is None:  # all of stdin is in the pipe
            if stdin >= 0:
                os.close(stdin)
            self.stdin = -1
        else:
            self.fds.append(stdin)
            self.write(pending)

    @classmethod
    def spawn(cls, command: Command, argv: tuple[str, ...], executable: str | None = None
              ) -> tuple[_Child, int, int]:
        """Start ``argv`` for ``command``; return it with our read ends of its stdout and
        stderr.

        Everything that does not need the child is done before it starts: the pipes, our ends
        made non-blocking, and as much of ``stdin`` as the pipe takes (all of it
        up to 64 KiB). The parent's work after the spawn would otherwise compete with the
        starting hook for a CPU."""
        ends: list[int] = []
        try:
            for _ in range(3):
                ends.extend(os.pipe())  # close-on-exec; the spawn dup2s the child's ends to 0-2
            # our ends: stdin's write end, stdout's and stderr's read ends. A new pipe end has
            # no status flag set: one F_SETFL, no F_GETFL first. A stdin that fits in a page
            # goes into the empty pipe at once, so its end stays blocking and is closed now.
            small = len(command.stdin) <= _PAGE
            for fd in (ends[2], ends[4]) if small else (ends[1], ends[2], ends[4]):
                fcntl.fcntl(fd, fcntl.F_SETFL, os.O_NONBLOCK)
            if small:
                if command.stdin:
                    os.write(ends[1], command.stdin)
                os.close(ends[1])
                ends[1] = -1
                pending = None
            else:
                pending = _write_some(ends[1], command.stdin)
            # own session and group: teardown reaches grandchildren too
            popen = spawn(argv, executable, command.env, command.cwd, ends[0], ends[3], ends[5])
        except BaseException:
            for fd in ends:
                if fd >= 0:
                    os.close(fd)
            raise
        os.close(ends[0])
        try:
            exit_fd = _exit_fd(popen)
        except BaseException:  # out of fds, say: leave nothing behind
            for fd in ends[1:]:
                if fd >= 0:
                    os.close(fd)
            os.killpg(popen.pid, signal.SIGKILL)
            popen.wait()
            raise
        child = cls(popen, ends[1], [ends[3], ends[5]], exit_fd, pending)
        child.fds += (ends[2], ends[4])
        return child, ends[2], ends[4]

    def watch(self, fd: int, events: int) -> None:
        self.watched[fd] = events
        if self.poller is not None:
            self.poller.register(fd, events)

    def unwatch(self, fd: int) -> None:
        if self.watched.pop(fd, None) is not None and self.poller is not None:
            self.poller.unregister(fd)

    def wait_fd(self) -> int:
        """The descriptor that turns readable when something watched has news."""
        if self.poller is None:
            if list(self.watched) == [self.exit_fd]:
                return self.exit_fd
            self.poller = _new_poller()
            for fd, events in self.watched.items():
                self.poller.register(fd, events)
        return int(self.poller.fileno())

    def poll(self) -> bool:
        """True once the hook process itself has exited (and been reaped)."""
        if self.returncode is None:
            returncode = self.popen.poll()
            if returncode is None:
                return False
            self.returncode = returncode
            for fd in self.held:  # now the pipes may reach EOF, unless a descendant has them
                self.close_fd(fd)
            self.held = []
        return True

    async def wait(self) -> None:
        while not self.poll():
            await anyio.wait_readable(self.exit_fd)

    def write(self, data: bytes | memoryview) -> None:
        """Write what stdin takes without blocking; close it once all is written.

        A hook need not read its stdin: if it closes it or exits, the rest is dropped."""
        rest = memoryview(data)
        try:
            while rest:
                rest = rest[os.write(self.stdin, rest) :]
        except BlockingIOError:
            if not self.pending:
                self.watch(self.stdin, _WRITE)
            self.pending = rest
            return
        except OSError:
            pass
        self.pending = memoryview(b"")
        self.unwatch(self.stdin)
        self.close_fd(self.stdin)
        self.stdin = -1

    def close_fd(self, fd: int) -> None:
        self.fds.remove(fd)
        os.close(fd)

    def close(self) -> None:
        for fd in self.fds:
            os.close(fd)
        self.fds.clear()
        if self.poller is not None:
            self.poller.close()


def _write_some(fd: int, data: bytes) -> memoryview | None:
    """Write what the pipe takes now; the rest (``None`` when nothing is left)."""
    rest = memoryview(data)
    try:
        while rest:
            rest = rest[os.write(fd, rest):]
    except BlockingIOError:
        return rest
    return None


def _exit_fd(popen: Process) -> int:
    try:
        return os.pidfd_open(popen.pid)
    except (AttributeError, OSError):  # not Linux >= 5.3, or forbidden by a sandbox
        pass
    readable, writable = os.pipe()
    threading.Thread(target=_reap_then_notify, args=(popen, writable), daemon=True).start()
    return readable


def _reap_then_notify(popen: Process, writable: int) -> None:
    try:
        popen.wait()
    finally:
        os.close(writable)  # EOF makes the read end readable
