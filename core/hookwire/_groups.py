"""Ending a hook's process group: SIGTERM, a grace period, SIGKILL, and knowing when every
member is gone (members other than the hook are not our children: nothing notifies us)."""

from __future__ import annotations

import os
import signal
from typing import Protocol

import anyio


class _Popen(Protocol):
    pid: int


class _Hook(Protocol):
    """What :func:`end_group` needs of a spawned hook (``hookwire._child._Child``)."""

    @property
    def popen(self) -> _Popen: ...

    async def wait(self) -> None: ...


async def end_group(child: _Hook, grace: float) -> None:
    """SIGTERM the hook's process group, give it ``grace`` seconds, then SIGKILL.

    The hook process is reaped before this returns. Call it shielded."""
    pgid = child.popen.pid  # start_new_session: the hook leads its own group
    if not signal_group(pgid, signal.SIGTERM):
        return  # no member left, the hook included: it was reaped already
    with anyio.move_on_after(grace):
        await child.wait()
        await _group_gone(pgid)
        return  # known gone: no SIGKILL probe
    if signal_group(pgid, signal.SIGKILL):
        await child.wait()
        with anyio.move_on_after(_KILL_SETTLE):
            await _group_gone(pgid)


_KILL_SETTLE = 1.0


def signal_group(pgid: int, sig: int) -> bool:
    """Send ``sig`` to the group; False when no process of it is left."""
    try:
        os.killpg(pgid, sig)
    except ProcessLookupError:
        return False
    except PermissionError:
        pass  # a member changed its credentials; it still counts as alive
    return True


async def _group_gone(pgid: int) -> None:
    # Members other than the hook itself are not our children, so nothing notifies us when
    # they die; poll with a short backoff. Only the slow path (signals sent) gets here.
    delay = 0.001
    while _group_alive(pgid):
        await anyio.sleep(delay)
        delay = min(delay * 2, 0.05)


def _group_alive(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    # kill(2) succeeds on zombies, which wait for their new parent to reap them; they are
    # dead already, so look for a member that is not one.
    try:
        names = os.listdir("/proc")
    except OSError:
        return True
    for name in names:
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as f:
                stat = f.read()
        except OSError:
            continue
        state, _ppid, pgrp = stat.rpartition(b")")[2].split(maxsplit=3)[:3]
        if int(pgrp) == pgid and state not in (b"Z", b"X"):
            return True
    return False
