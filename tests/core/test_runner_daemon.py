"""A hook that daemonizes on purpose (``setsid``) is its own choice (#13): the runner reports
the processes that left the hook's session in ``Outcome.escaped`` and leaves them running,
while everything that stayed in the hook's group is still ended. Real processes; Linux only
(the scan reads ``/proc``)."""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from hookwire.runner import Command, OutcomeKind, run

pytestmark = [
    pytest.mark.anyio,
    pytest.mark.skipif(not os.path.isdir("/proc/self/fd") or shutil.which("setsid") is None,
                       reason="needs Linux /proc and setsid(1)"),
]


@pytest.fixture(params=["asyncio", "trio"])
def anyio_backend(request: pytest.FixtureRequest) -> str:
    return str(request.param)


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0]
    except OSError:
        return False
    return state not in ("Z", "X")


def _wait_for(path: Path) -> list[int]:
    for _ in range(200):
        if path.exists() and path.read_text().strip():
            return [int(p) for p in path.read_text().split()]
        time.sleep(0.01)
    raise AssertionError(f"{path} never written")


@pytest.fixture
def daemons() -> Iterator[list[int]]:
    """Pids the test started as daemons; killed afterwards (by pid, never by name)."""
    started: list[int] = []
    yield started
    for pid in started:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)


async def test_daemon_holding_the_pipes_is_reported_and_left_running(
        tmp_path: Path, daemons: list[int]) -> None:
    pids = tmp_path / "pids"
    outcome = await run(Command(shell=f"setsid sleep 30 & echo $! > {pids}; echo started",
                                timeout=5))
    daemons.extend(_wait_for(pids))
    assert outcome.kind is OutcomeKind.EXITED and outcome.exit_code == 0
    assert outcome.stdout == b"started\n"
    assert outcome.escaped == tuple(daemons) and outcome.daemonized
    assert all(_alive(pid) for pid in daemons)


async def test_daemon_with_closed_pipes_found_through_its_parent_on_timeout(
        tmp_path: Path, daemons: list[int]) -> None:
    pids = tmp_path / "pids"
    # the hook waits for its daemon: it times out, and the group (the shell) is ended
    body = f"setsid sleep 30 </dev/null >/dev/null 2>&1 & echo $! > {pids}; wait"
    outcome = await run(Command(shell=body, timeout=0.5, grace=0.2))
    daemons.extend(_wait_for(pids))
    assert outcome.kind is OutcomeKind.TIMED_OUT
    assert outcome.escaped == tuple(daemons)
    assert all(_alive(pid) for pid in daemons)


async def test_a_daemons_own_children_are_reported_too(tmp_path: Path,
                                                        daemons: list[int]) -> None:
    pids = tmp_path / "pids"
    body = (f"setsid sh -c 'sleep 30 & echo $$ $! > {pids}; wait' </dev/null >/dev/null 2>&1 &"
            f" while [ ! -s {pids} ]; do sleep 0.01; done; sleep 30")
    outcome = await run(Command(shell=body, timeout=0.5, grace=0.2))
    daemons.extend(_wait_for(pids))
    assert outcome.kind is OutcomeKind.TIMED_OUT
    assert outcome.escaped == tuple(sorted(daemons)) and len(daemons) == 2
    assert all(_alive(pid) for pid in daemons)


async def test_grandchild_that_stayed_in_the_group_is_ended_not_reported(
        tmp_path: Path) -> None:
    pids = tmp_path / "pids"
    outcome = await run(Command(shell=f"sleep 30 & echo $! > {pids}; echo started", timeout=5))
    (pid,) = _wait_for(pids)
    assert outcome.escaped == () and not outcome.daemonized
    for _ in range(100):
        if not _alive(pid):
            break
        time.sleep(0.01)
    assert not _alive(pid)


async def test_plain_hook_reports_nothing() -> None:
    outcome = await run(Command(argv=("/bin/true",)))
    assert outcome.ok and outcome.escaped == ()
