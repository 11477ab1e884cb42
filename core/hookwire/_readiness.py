"""Waiting for a descriptor to turn readable on an asyncio loop, one loop registration per loop.

``loop.add_reader`` and ``remove_reader`` go through the selector's Python bookkeeping: about
30 µs a wait here when the caches are cold, as they are after a hook process ran, against a
whole run of ~700 µs for ``/bin/true``. So each loop gets one epoll instance of ours (one
descriptor, closed when the loop is collected), added to the loop once. A wait adds its
descriptor to that instance (``EPOLLONESHOT``: it reports once) and takes it out again, two
C calls, and the loop's callback for our instance resolves the waiting futures. Where there
is no epoll the wait is the loop's own ``add_reader``.
"""

from __future__ import annotations

import asyncio
import contextlib
import select
import weakref

_EPOLL = getattr(select, "epoll", None)


class _Hub:
    """One loop's epoll instance and the futures waiting on it, by descriptor. It keeps no
    reference to the loop (the loop's selector keeps it), so the loop can be collected."""

    __slots__ = ("__weakref__", "epoll", "waiters")

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        assert _EPOLL is not None
        self.epoll = _EPOLL()
        self.waiters: dict[int, asyncio.Future[bool]] = {}
        loop.add_reader(self.epoll.fileno(), self.ready)
        weakref.finalize(loop, self.epoll.close)  # a closed loop keeps it until collected

    def ready(self) -> None:
        # a bounded batch (the default asks for room for 1023 events at every call); what is
        # left keeps our descriptor readable, so the loop calls back at once
        for fd, _ in self.epoll.poll(0, _BATCH):
            waiter = self.waiters.pop(fd, None)
            if waiter is not None and not waiter.done():
                waiter.set_result(True)


_BATCH = 64
_HUBS: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _Hub] = weakref.WeakKeyDictionary()


def _expire(waiter: asyncio.Future[bool]) -> None:
    if not waiter.done():
        waiter.set_result(False)


async def readable(loop: asyncio.AbstractEventLoop, fd: int, deadline: float | None) -> bool:
    """Wait on ``loop`` until ``fd`` is readable (True) or the loop's clock reaches
    ``deadline`` (False; ``None``: no deadline). A cancellation of the task goes through,
    leaving nothing registered and no timer behind. One waiter per descriptor at a time."""
    hub = _HUBS.get(loop) if _EPOLL is not None else None
    if hub is None and _EPOLL is not None and not loop.is_closed():
        try:
            hub = _HUBS[loop] = _Hub(loop)
        except (NotImplementedError, OSError):  # a loop without add_reader for an epoll
            hub = None
    waiter: asyncio.Future[bool] = loop.create_future()
    if hub is None:
        loop.add_reader(fd, _expire_true, waiter)
    else:
        hub.epoll.register(fd, select.EPOLLIN | select.EPOLLONESHOT)
        hub.waiters[fd] = waiter
    timer = None if deadline is None else loop.call_at(deadline, _expire, waiter)
    try:
        return await waiter
    finally:
        if hub is None:
            loop.remove_reader(fd)
        else:
            if hub.waiters.get(fd) is waiter:
                del hub.waiters[fd]
            with contextlib.suppress(OSError):  # closed meanwhile: gone from it with it
                hub.epoll.unregister(fd)
        if timer is not None:
            timer.cancel()


def _expire_true(waiter: asyncio.Future[bool]) -> None:
    if not waiter.done():
        waiter.set_result(True)
