"""Load: many sessions firing tool calls at once, against the bare spawn throughput.

``SESSIONS`` sessions of one kernel each fire ``CALLS`` ``tool_pre`` calls one after another,
all sessions concurrently; every call runs one Claude Code hook ``true`` (a shell command, the
faithful default). The floor spawns the same number of ``/bin/sh -c true`` processes with the
same concurrency, three pipes each, waiting for each exit on the event loop (a pidfd) and
nothing else. The figure is the wall time of the whole load (median of the repeats); every
call must come back with its hook's report (no record lost). Nothing is asserted.

    python benchmarks/bench_sessions.py [--quick] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import anyio

from hookwire import Kernel

SESSIONS = 32
CALLS = 8
TARGET_RATIO = 1.15


async def _spawn_floor() -> None:
    ends: list[int] = []
    for _ in range(3):
        ends.extend(os.pipe())
    popen = subprocess.Popen(["/bin/sh", "-c", "true"], stdin=ends[0], stdout=ends[3],
                             stderr=ends[5], start_new_session=True)
    os.close(ends[0])
    pidfd = os.pidfd_open(popen.pid)
    await anyio.wait_readable(pidfd)
    popen.wait()
    for fd in (pidfd, *ends[1:]):
        os.close(fd)


async def _floor() -> float:
    async def one() -> None:
        for _ in range(CALLS):
            await _spawn_floor()

    t0 = time.perf_counter()
    async with anyio.create_task_group() as tg:
        for _ in range(SESSIONS):
            tg.start_soon(one)
    return time.perf_counter() - t0


async def _load(kernel: Kernel, folder: Path, lost: list[int]) -> float:
    async def one(i: int) -> None:
        async with kernel.session(session_id=f"s{i}", cwd=str(folder)) as session:
            for j in range(CALLS):
                verdict = await session.tool_pre("Bash", {"command": f"echo {j}"})
                if len(verdict.hooks) != 1 or verdict.hooks[0].exit_code != 0:
                    lost.append(1)

    t0 = time.perf_counter()
    async with anyio.create_task_group() as tg:
        for i in range(SESSIONS):
            tg.start_soon(one, i)
    return time.perf_counter() - t0


async def measure(quick: bool) -> dict[str, Any]:
    repeats = 3 if quick else 9
    folder = Path(tempfile.mkdtemp(prefix="hookwire-bench-sessions-"))
    settings = folder / "settings.json"
    settings.write_text(json.dumps({"hooks": {"PreToolUse": [
        {"matcher": "Bash", "hooks": [{"type": "command", "command": "true"}]}]}}))
    kernel = Kernel()
    kernel.add_config("claude", settings)
    lost: list[int] = []
    await _floor()
    await _load(kernel, folder, lost)
    base: list[float] = []
    mine: list[float] = []
    for i in range(repeats):
        if i % 2:
            base.append(await _floor())
            mine.append(await _load(kernel, folder, lost))
        else:
            mine.append(await _load(kernel, folder, lost))
            base.append(await _floor())
    m, b = statistics.median(mine), statistics.median(base)
    return {"benchmark": "sessions", "iterations": repeats,
            "description": f"{SESSIONS} concurrent sessions x {CALLS} tool_pre calls, one "
                           "`true` hook each",
            "results": [{"name": f"{SESSIONS} sessions x {CALLS} hooked calls vs bare spawns",
                         "hookwire_ms": round(m * 1000, 2), "baseline_ms": round(b * 1000, 2),
                         "ratio": round(m / b, 3), "target_ratio": TARGET_RATIO,
                         "calls_without_their_report": len(lost)}]}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer repeats")
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    args = parser.parse_args(argv)
    data = anyio.run(measure, args.quick)
    if args.json:
        print(json.dumps(data, indent=2))
        return 0
    (r,) = data["results"]
    print(data["description"])
    print(f"  hookwire {r['hookwire_ms']:.1f} ms   floor {r['baseline_ms']:.1f} ms   ratio "
          f"{r['ratio']:.2f}x   calls without their report: {r['calls_without_their_report']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
