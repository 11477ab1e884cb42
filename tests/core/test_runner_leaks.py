"""A thousand runs leave no file descriptor, zombie or thread behind."""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path

import anyio
import pytest

from hookwire.runner import Command, OutcomeKind, run

pytestmark = [pytest.mark.anyio, pytest.mark.slow]


@pytest.fixture(params=["asyncio", "trio"])
def anyio_backend(request: pytest.FixtureRequest) -> str:
    return str(request.param)


def open_fds() -> list[str]:
    return sorted(os.listdir("/proc/self/fd"))


def zombie_children() -> list[int]:
    me = str(os.getpid())
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            state, ppid = (entry / "stat").read_text().rpartition(")")[2].split()[:2]
        except OSError:
            continue
        if ppid == me and state == "Z":
            found.append(int(entry.name))
    return found


TINY = [
    (Command(argv=("/bin/true",)), OutcomeKind.EXITED),
    (Command(shell="echo out; echo err >&2; exit 1"), OutcomeKind.EXITED),
    (Command(shell="cat", stdin=b'{"hook_event_name":"Stop"}\n'), OutcomeKind.EXITED),
    (Command(shell="true", stdin=b"x" * 200_000), OutcomeKind.EXITED),  # stdin not read
    (Command(shell="printf '\\377'"), OutcomeKind.NOT_UTF8),
    (Command(shell="kill -KILL $$"), OutcomeKind.SIGNALED),
]

FAULTS = [
    (Command(shell="sleep 10", timeout=0.02, grace=0.2), OutcomeKind.TIMED_OUT),
    (Command(shell="while :; do echo y; done", output_cap=1000), OutcomeKind.OVER_CAP),
    (Command(shell="sleep 10 & echo early", drain=0.01), OutcomeKind.EXITED),
    (Command(argv=("/nonexistent/hook",)), OutcomeKind.FAILED_TO_START),
    (Command(argv=("/bin/true",), cwd="/nonexistent"), OutcomeKind.FAILED_TO_START),
]


async def _exercise(runs: int) -> None:
    for i in range(runs):
        command, kind = TINY[i % len(TINY)]
        assert (await run(command)).kind is kind
    for i in range(50):
        command, kind = FAULTS[i % len(FAULTS)]
        assert (await run(command)).kind is kind
    for _ in range(10):
        with anyio.move_on_after(0.02):
            await run(Command(shell="sleep 10 & sleep 10"))


def _settled_threads(expected: int) -> int:
    deadline = time.monotonic() + 5
    while threading.active_count() > expected and time.monotonic() < deadline:
        time.sleep(0.01)  # a waiter thread may still be returning after closing its pipe
    return threading.active_count()


async def test_thousand_runs_leak_nothing() -> None:
    await _exercise(len(TINY))  # let the event loop open whatever it opens lazily
    fds, threads = open_fds(), threading.active_count()
    await _exercise(1000)
    assert open_fds() == fds
    assert zombie_children() == []
    # fewer is not a leak: a worker thread an earlier test left idle may end meanwhile
    assert _settled_threads(threads) <= threads


async def test_runs_without_pidfd_leak_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delattr(os, "pidfd_open")
    await _exercise(len(TINY))
    fds, threads = open_fds(), threading.active_count()
    await _exercise(200)
    assert open_fds() == fds
    assert zombie_children() == []
    assert _settled_threads(threads) <= threads
