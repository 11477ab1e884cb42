"""Finding a hook's descendants that left its session on purpose (``setsid``, a daemon).

The runner ends the hook's process group, which reaches every process that stayed in the
hook's session; one that called ``setsid(2)`` is out of reach, and that is its own choice: it
is reported in the hook's :class:`~hookwire.runner.Outcome` (``escaped``), never killed.

Linux only (``/proc``); elsewhere nothing is reported. The scan runs on the runner's slow path
only, right before the group is ended: when the hook's pipes are still held after it exited,
or when its group still has members (a timeout, a cancel, output over the cap, leftovers). It
finds a process outside the hook's session

* whose parent chain reaches a live process of the hook's session (the hook itself included),
  or
* that still holds one of the hook's stdout/stderr pipes.

A daemon whose parents all exited and that closed the hook's pipes before the run ended is
re-parented to init and carries no trace of the hook: it is not reported.
"""

from __future__ import annotations

import os
from collections.abc import Iterable

_PROC = "/proc"


def escaped(hook_pid: int, pipe_fds: Iterable[int], *, holders: bool) -> tuple[int, ...]:
    """The pids of live processes that descend from the hook (started with
    ``start_new_session``, so its session id is ``hook_pid``) but are no longer in its session.
    With ``holders``, processes outside the session holding one of ``pipe_fds``' pipes count
    too. Sorted; ``()`` where there is no ``/proc``."""
    try:
        names = os.listdir(_PROC)
    except OSError:
        return ()
    procs: dict[int, tuple[int, int]] = {}  # pid -> (ppid, session id), live processes only
    for name in names:
        if not name.isdigit():
            continue
        try:
            with open(f"{_PROC}/{name}/stat", "rb") as f:
                stat = f.read()
            state, ppid, _pgrp, sid = stat.rpartition(b")")[2].split(maxsplit=5)[:4]
        except (OSError, ValueError):
            continue
        if state not in (b"Z", b"X"):
            procs[int(name)] = (int(ppid), int(sid))
    me = os.getpid()
    found = {pid for pid, (_ppid, sid) in procs.items()
             if sid != hook_pid and pid != me and _descends(pid, procs, hook_pid)}
    if holders:
        inodes = set()
        for fd in pipe_fds:
            try:
                inodes.add(f"pipe:[{os.fstat(fd).st_ino}]")
            except OSError:
                continue
        found.update(pid for pid, (ppid, sid) in procs.items()
                     # a child of ours is another hook being spawned, not a daemon of this one
                     if sid != hook_pid and pid != me and ppid != me and pid not in found
                     and _holds(pid, inodes))
    return tuple(sorted(found))


def _descends(pid: int, procs: dict[int, tuple[int, int]], session: int) -> bool:
    seen = set()
    while pid in procs and pid not in seen:
        seen.add(pid)
        ppid, sid = procs[pid]
        if sid == session:
            return True
        pid = ppid
    return False


def _holds(pid: int, links: set[str]) -> bool:
    if not links:
        return False
    base = f"{_PROC}/{pid}/fd"
    try:
        fds = os.listdir(base)
    except OSError:
        return False
    for fd in fds:
        try:
            if os.readlink(f"{base}/{fd}") in links:
                return True
        except OSError:
            continue
    return False
