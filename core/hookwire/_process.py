"""The process machinery of :mod:`hookwire.runner`: spawning into a new process group,
waiting for the hook's exit and moving its bytes, byte caps, and ending the group.

A run waits on the hook's pidfd alone while the exit is all that is watched; once a pipe is
watched too (stdin larger than the pipe, output read as it comes, or a drain after the exit)
a poller of the run's own multiplexes them, and the task waits on the poller's descriptor.
On asyncio that wait goes through :mod:`hookwire._readiness` (one loop registration per
loop, not one per wait)."""

from __future__ import annotations

import asyncio
import fcntl
import os
import select
import selectors
import signal
import threading
import time
from collections.abc import Callable
from typing import Any

import anyio
import anyio.lowlevel

from hookwire._command import Command, Outcome, OutcomeKind
from hookwire._escape import escaped
from hookwire._groups import end_group, signal_group
from hookwire._readiness import readable
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

_CHUNK = 65536
_READS_PER_WAKE = 4  # bounds the work per wake-up so other tasks get their turn
_OUTPUT_WATCH_DELAY = 0.002  # seconds a hook runs before its output is read as it comes


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
        self.fds = [stdin, *held, exit_fd]  # every fd still ours to close, but the poller
        self.poller: Any = None
        self.watched = {exit_fd: _READ}
        if pending is None:  # all of stdin is in the pipe
            self.close_fd(stdin)
            self.stdin = -1
        else:
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
            # no status flag set: one F_SETFL, no F_GETFL first.
            for fd in (ends[1], ends[2], ends[4]):
                fcntl.fcntl(fd, fcntl.F_SETFL, os.O_NONBLOCK)
            pending = _write_some(ends[1], command.stdin)
            # own session and group: teardown reaches grandchildren too
            popen = spawn(argv, executable, command.env, command.cwd, ends[0], ends[3], ends[5])
        except BaseException:
            for fd in ends:
                os.close(fd)
            raise
        os.close(ends[0])
        try:
            exit_fd = _exit_fd(popen)
        except BaseException:  # out of fds, say: leave nothing behind
            for fd in ends[1:]:
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


class _Capture:
    """One output stream of the hook, read until EOF or until it passes ``cap`` bytes."""

    __slots__ = ("cap", "data", "done", "fd", "over_cap")

    def __init__(self, fd: int, cap: int) -> None:
        self.fd = fd
        self.cap = cap
        self.data = bytearray()
        self.done = False
        self.over_cap = False

    def pull(self) -> None:
        data = self.data
        for _ in range(_READS_PER_WAKE):
            # Asking for at most cap + 1 bytes overall is enough to notice an overflow, and
            # nothing beyond that is ever read: memory stays bounded whatever the hook writes.
            want = min(_CHUNK, self.cap + 1 - len(data))
            try:
                chunk = os.read(self.fd, want)
            except BlockingIOError:
                return
            except OSError:
                chunk = b""
            if chunk:
                data += chunk
                if len(data) <= self.cap:
                    continue
                del data[self.cap :]
                self.over_cap = True
            self.done = True
            return


class _Watch:
    """One spawned hook: move its bytes, wait for it, end its group, classify the result."""

    def __init__(self, command: Command, spawned: tuple[_Child, int, int], started: float):
        self.command = command
        self.child, stdout, stderr = spawned
        self.started = started
        self.out = _Capture(stdout, command.output_cap)
        self.err = _Capture(stderr, command.output_cap)
        self.timed_out = False
        self.escaped: tuple[int, ...] = ()
        self.loop: asyncio.AbstractEventLoop | None = None
        self.output_watched = False

    def watch_output(self) -> None:
        if not self.output_watched:
            self.output_watched = True
            for capture in (self.out, self.err):
                if not capture.done:
                    self.child.watch(capture.fd, _READ)

    def streams_open(self) -> bool:
        return not (self.out.done and self.err.done)

    def step(self) -> bool:
        """Do all I/O possible without blocking; True when a stream passed the cap."""
        child = self.child
        child.poll()  # first: at exit this releases the pipes, so the reads below see EOF
        if child.pending:
            child.write(child.pending)
        if not self.out.done:
            self.out.pull()
        if not self.err.done:
            self.err.pull()
        return self.out.over_cap or self.err.over_cap

    async def _wait(self, deadline: float | None = None) -> bool:
        """Sleep until the poller has news (True) or, on asyncio, until the loop's clock
        reaches ``deadline`` (False). What can no longer change stops being watched first,
        or a level-triggered EOF or exit would wake us again and again."""
        child = self.child
        if child.returncode is not None:
            child.unwatch(child.exit_fd)
        for capture in (self.out, self.err):
            if capture.done:
                child.unwatch(capture.fd)
        if self.loop is None:
            await anyio.wait_readable(child.wait_fd())
            return True
        return await readable(self.loop, child.wait_fd(), deadline)

    async def until_exit(self, timeout: float | None = None) -> None:
        """Return when the hook process exits, when its output passes the cap, or when
        ``timeout`` seconds have passed (:attr:`timed_out`).

        "Done" is the hook's own exit, not EOF: a background grandchild may hold the pipes
        open for as long as it likes.

        On asyncio the timeout is one timer of the loop (an anyio cancel scope with a
        deadline costs ~20 µs a run), and for the run's first :data:`_OUTPUT_WATCH_DELAY`
        seconds only the exit is watched: a hook that is done by then (most shell
        one-liners) wakes the loop once, not once per write as well, and what it wrote is
        read when it has exited. A pipe holds 64 KiB; a hook that writes more in that time
        waits at most that long for the rest. Elsewhere the timeout is an anyio cancel
        scope and the output is watched from the start."""
        if _asyncio_task() is not None:
            self.loop = asyncio.get_running_loop()
        loop = self.loop
        if loop is None:  # trio, or asyncio driving another library
            self.watch_output()
            if timeout is not None:
                with anyio.CancelScope(deadline=anyio.current_time() + timeout) as scope:
                    await self.until_exit()
                self.timed_out = scope.cancelled_caught
                return
        now = 0.0 if loop is None else loop.time()
        deadline = None if timeout is None else now + timeout
        watch_at = now + _OUTPUT_WATCH_DELAY
        while True:
            when = deadline
            if not self.output_watched:
                when = watch_at if deadline is None else min(watch_at, deadline)
            if not await self._wait(when):
                if deadline is not None and (self.output_watched or loop is None
                                             or loop.time() >= deadline):
                    self.timed_out = True
                    return
                self.watch_output()
            if self.step() or self.child.returncode is not None:
                return

    async def drain(self) -> None:
        """After the exit, keep reading for ``drain`` seconds while a pipe is still open."""
        self.watch_output()
        with anyio.move_on_after(self.command.drain):
            while self.streams_open():
                await self._wait()
                if self.step():
                    return

    def finish_now(self) -> bool:
        """Close up if the hook has exited and left nothing behind (the usual case, and no
        await needed); False when the group still has to be ended."""
        child = self.child
        if not child.poll() or signal_group(child.popen.pid, 0):
            return False
        if self.streams_open():  # the group is gone, yet someone holds the pipes: a daemon?
            self.look_for_escapes()
        child.close()
        return True

    def look_for_escapes(self) -> None:
        """Note the hook's descendants that left its session (they are not ended with it)."""
        self.escaped = escaped(self.child.popen.pid, (self.out.fd, self.err.fd),
                               holders=self.streams_open())

    async def finish(self) -> None:
        """End whatever is left of the hook's group, reap the hook, keep what it wrote that
        is still in the pipes (output is not read as it comes in a run's first moments),
        close every fd."""
        try:
            # before the group ends: its live members are what leads to a process that left
            self.look_for_escapes()
            with anyio.CancelScope(shield=True):
                await end_group(self.child, self.command.grace)
        finally:
            for capture in (self.out, self.err):
                if not capture.done:
                    capture.pull()
            self.child.close()

    def kind(self) -> OutcomeKind:
        if self.timed_out:
            return OutcomeKind.TIMED_OUT
        if self.out.over_cap or self.err.over_cap:
            return OutcomeKind.OVER_CAP
        returncode = self.child.returncode
        if returncode is not None and returncode < 0:
            return OutcomeKind.SIGNALED
        if not ((not self.out.data or _is_utf8(self.out.data))
                and (not self.err.data or _is_utf8(self.err.data))):
            return OutcomeKind.NOT_UTF8
        return OutcomeKind.EXITED

    def outcome(self, kind: OutcomeKind) -> Outcome:
        returncode = self.child.returncode
        return Outcome(
            kind=kind,
            exit_code=returncode if returncode is not None and returncode >= 0 else None,
            signal=-returncode if returncode is not None and returncode < 0 else None,
            stdout=bytes(self.out.data),
            stderr=bytes(self.err.data),
            stdout_over_cap=self.out.over_cap,
            stderr_over_cap=self.err.over_cap,
            duration_ms=(time.perf_counter() - self.started) * 1000,
            pid=self.child.popen.pid,
            escaped=self.escaped,
        )


def _asyncio_task() -> asyncio.Task[Any] | None:
    """The asyncio task running us, or ``None`` under another event loop (trio; trio in
    guest mode runs its tasks in the host loop's callbacks, not in asyncio tasks)."""
    try:
        return asyncio.current_task()
    except RuntimeError:  # no asyncio loop running in this thread
        return None


def _is_utf8(data: bytearray) -> bool:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True
