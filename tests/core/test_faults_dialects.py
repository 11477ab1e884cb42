"""The runner's fault matrix, end to end through each dialect (#13).

Every fault of ``test_runner.py`` — hang, grandchild holding the pipes, crash by a signal,
exit 126/127, non-UTF-8, closing stdin early, a slow reader, invalid and oversized JSON, 1 GiB
on each stream — is run as a real hook of the Claude, Codex and portable dialects through a
Kernel session, on asyncio and trio. Each gives the dialect's verdict, leaves no process of the
hook's group and no descriptor behind. Durations are measured (monotonic clock) and bounded
only loosely: the claim is that the run returned and the group is gone.
"""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path

import anyio
import pytest

from hookwire import HookEntry, Kernel, Provenance, Verdict
from hookwire.runner import Command, run

pytestmark = pytest.mark.anyio
TIMEOUT = 1.0

#: fault → shell body; ``$PGF`` is where the hook writes its process group id.
FAULTS = {
    "hang": "sleep 30",
    "grandchild_holds_pipes": "(sleep 30 &) ; echo started",
    "crash_by_signal": "kill -SEGV $$",
    "exit_126": "exit 126",
    "exit_127": "exit 127",
    "not_utf8": "printf '\\377\\376 bad'; printf '\\377' >&2",
    "closes_stdin_early": "exec 0<&-; echo '{}'",
    "slow_reader": "while IFS= read -r line; do sleep 0.05; done; echo ok",
    "invalid_json": "echo '{\"decision\": '",
    "deep_json": "python3 -c \"print('{\\\"a\\\":' * 200000 + '1' + '}' * 200000)\"",
    "oversized_json": "python3 -c \"import sys; sys.stdout.write('{\\\"x\\\": \\\"' + 'a' * "
                      "(3 << 20) + '\\\"}')\"",
}
SLOW = {"stdout_1gib": "head -c 1073741824 /dev/zero", "stderr_1gib":
        "head -c 1073741824 /dev/zero >&2"}
DIALECTS = {"claude": "PreToolUse", "codex": "PreToolUse", "portable": "pre-tool-use"}


@pytest.fixture(params=["asyncio", "trio"])
def anyio_backend(request: pytest.FixtureRequest) -> str:
    return str(request.param)


def _fds() -> set[int]:
    return {int(n) for n in os.listdir("/proc/self/fd")} if os.path.isdir("/proc/self/fd") \
        else set()


def _alive(pgid: int) -> list[str]:
    """The live (not zombie) processes of group ``pgid``: a killed grandchild re-parented to
    a PID 1 that does not reap stays a zombie, which is no running process."""
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            stat = Path(f"/proc/{pid}/stat").read_text()
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[1].split()
        if int(fields[2]) == pgid and fields[0] != "Z":
            found.append(f"{pid} {stat.split(')')[0]})")
    return found


async def _fire(tmp_path: Path, dialect: str, body: str) -> tuple[Verdict, float, int | None]:
    script = tmp_path / "hook.sh"
    pgf = tmp_path / "pgid"
    script.write_text(f"#!/bin/sh\nps -o pgid= -p $$ > {pgf}\n{body}\n")
    script.chmod(0o755)
    command: str | tuple[str, ...] = str(script) if dialect != "portable" else (str(script),)
    kernel = Kernel()
    kernel.add_hooks([HookEntry(dialect=dialect, event=DIALECTS[dialect], command=command,
                                timeout=TIMEOUT, provenance=Provenance.PROJECT)])
    started = time.monotonic()
    async with kernel.session(cwd=str(tmp_path), project_dir=str(tmp_path)) as session:
        verdict = await session.tool_pre("Bash", {"command": "ls " + "x" * 65536})
    elapsed = time.monotonic() - started
    pgid = int(pgf.read_text().strip()) if pgf.exists() and pgf.read_text().strip() else None
    return verdict, elapsed, pgid


async def _loop_warmed() -> set[int]:
    """The descriptors open once the event loop has waited for one hook (what it opens
    lazily, hookwire's readiness instance among them, is the loop's, not a leak)."""
    await run(Command(argv=("true",)))
    return _fds()


async def _check(tmp_path: Path, dialect: str, body: str) -> None:
    before = await _loop_warmed()
    verdict, elapsed, pgid = await _fire(tmp_path, dialect, body)
    assert isinstance(verdict, Verdict)
    # the run returned: within timeout + grace + process start-up (never a tight threshold)
    assert elapsed < TIMEOUT + 10, elapsed
    if pgid is not None:
        for _ in range(50):  # the group's last member may still be reaped by init
            if not _alive(pgid):
                break
            await anyio.sleep(0.02)
        assert not _alive(pgid), f"process group {pgid} outlived the run"
    assert _fds() <= before, "a descriptor leaked"


@pytest.mark.parametrize("dialect", sorted(DIALECTS))
@pytest.mark.parametrize("fault", sorted(FAULTS))
async def test_fault_through_dialect(tmp_path: Path, dialect: str, fault: str) -> None:
    await _check(tmp_path, dialect, FAULTS[fault])


@pytest.mark.slow
@pytest.mark.parametrize("dialect", sorted(DIALECTS))
@pytest.mark.parametrize("fault", sorted(SLOW))
async def test_one_gib_through_dialect(tmp_path: Path, dialect: str, fault: str) -> None:
    await _check(tmp_path, dialect, SLOW[fault])


@pytest.mark.skipif(shutil.which("setsid") is None, reason="needs setsid(1)")
@pytest.mark.parametrize("dialect", sorted(DIALECTS))
async def test_daemonizing_hook_through_dialect(tmp_path: Path, dialect: str) -> None:
    """A hook that daemonizes on purpose (``setsid``) is its own choice: its record (and the
    verdict JSON ``hookwire fire`` prints) says so, the daemon keeps running, and what stayed
    in the hook's group is still ended."""
    pids = tmp_path / "daemon"
    before = await _loop_warmed()
    verdict, elapsed, pgid = await _fire(
        tmp_path, dialect, f"setsid sleep 30 & echo $! > {pids}; (sleep 30 &); echo '{{}}'")
    daemon = int(pids.read_text())
    try:
        (report,) = verdict.hooks
        assert report.escaped == (daemon,) and report.daemonized
        (row,) = verdict.to_json()["hooks"]
        assert row["daemonized"] is True and row["escaped"] == [daemon]
        assert elapsed < TIMEOUT + 10, elapsed
        assert Path(f"/proc/{daemon}").exists(), "the daemon was killed"
        assert pgid is not None
        for _ in range(50):
            if not _alive(pgid):
                break
            await anyio.sleep(0.02)
        assert not _alive(pgid), f"process group {pgid} outlived the run"
        assert _fds() <= before, "a descriptor leaked"
    finally:
        os.kill(daemon, 9)
