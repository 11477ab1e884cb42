"""The process machinery of :mod:`hookwire.runner` around one spawned hook (:mod:`._child`):
waiting for the hook's exit and moving its bytes, byte caps, and ending the group.

A run waits on the hook's pidfd alone while the exit is all that is watched; once a pipe is
watched too (stdin larger than the pipe, output read as it comes, or a drain after the exit)
a poller of the run's own multiplexes them, and the task waits on the poller's descriptor.
On asyncio that wait goes through :mod:`hookwire._readiness` (one loop registration per
loop, not one per wait)."""

from __future__ import annotations

import asyncio
import os
import time
from typing import Any

import anyio

from hookwire._child import _READ, _Child
from hookwire._command import Command, Outcome, OutcomeKind
from hookwire._escape import escaped
from hookwire._groups import end_group, signal_group
from hookwire._readiness import readable

_CHUNK = 65536
_READS_PER_WAKE = 4  # bounds the work per wake-up so other tasks get their turn
_OUTPUT_WATCH_DELAY = 0.002  # seconds a hook runs before its output is read as it comes


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
        task = _asyncio_task()
        if task is not None:
            self.loop = task.get_loop()
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
