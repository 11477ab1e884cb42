"""Benchmark ``hookwire.runner.run`` against ``subprocess.run`` in the same process.

    python benchmarks/bench_runner.py [--quick] [--json] [--backend asyncio|trio|all]

Cases (the targets are ratios, measured in the same run):

- ``argv``: ``run(Command(argv=("/bin/true",)))`` vs ``subprocess.run(["/bin/true"])``
  (target <= 1.10x);
- ``shell``: ``run(Command(shell="true"))`` vs ``subprocess.run("true", shell=True)``
  (target <= 1.05x);
- ``concurrent``: 8 concurrent ``sleep 0.2`` hooks vs one (target <= 1.15x).

The baselines also appear with ``capture_output=True, input=b""`` for reference, since
hookwire always pipes stdin, stdout and stderr. Baseline and hookwire iterations alternate
(ABBA order) inside one running event loop, so machine noise hits both alike.
"""

from __future__ import annotations

import argparse
import gc
import json
import statistics
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import anyio

try:
    from hookwire.runner import Command, run
except ImportError:  # running from a checkout without an install
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "core"))
    from hookwire.runner import Command, run

TARGETS = {"argv": 1.10, "shell": 1.05, "concurrent": 1.15}


def _timed_sync(fn: Callable[[], object]) -> float:
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


async def _timed(fn: Callable[[], Awaitable[object]]) -> float:
    t0 = time.perf_counter()
    await fn()
    return time.perf_counter() - t0


async def _spawn_case(
    command: Command, baseline: Callable[[], object], captured: Callable[[], object], n: int
) -> dict[str, float]:
    async def hook() -> None:
        outcome = await run(command)
        assert outcome.ok, outcome

    for _ in range(max(10, n // 10)):  # warm up caches, the page cache, the allocator
        baseline()
        await hook()
    base: list[float] = []
    mine: list[float] = []
    capt: list[float] = []
    for i in range(n):
        if i % 2:
            base.append(_timed_sync(baseline))
            mine.append(await _timed(hook))
        else:
            mine.append(await _timed(hook))
            base.append(_timed_sync(baseline))
        capt.append(_timed_sync(captured))
    return _summary(base, mine, capt)


async def _concurrent_case(n: int) -> dict[str, float]:
    one = Command(shell="sleep 0.2")

    async def single() -> None:
        assert (await run(one)).ok

    async def eight() -> None:
        async with anyio.create_task_group() as tg:
            for _ in range(8):
                tg.start_soon(single)

    await single()
    await eight()
    base: list[float] = []
    mine: list[float] = []
    for i in range(n):
        order = (single, eight) if i % 2 else (eight, single)
        for fn in order:
            (base if fn is single else mine).append(await _timed(fn))
    return _summary(base, mine, None)


def _summary(base: list[float], mine: list[float], capt: list[float] | None) -> dict[str, float]:
    result = {
        "n": len(base),
        "baseline_ms": statistics.median(base) * 1000,
        "hookwire_ms": statistics.median(mine) * 1000,
    }
    result["ratio"] = result["hookwire_ms"] / result["baseline_ms"]
    if capt is not None:
        result["captured_ms"] = statistics.median(capt) * 1000
        result["ratio_vs_captured"] = result["hookwire_ms"] / result["captured_ms"]
    return result


async def _bench(quick: bool) -> dict[str, dict[str, float]]:
    spawn_n, sleep_n = (50, 3) if quick else (200, 10)
    results = {
        "argv": await _spawn_case(
            Command(argv=("/bin/true",)),
            lambda: subprocess.run(["/bin/true"], check=True),
            lambda: subprocess.run(["/bin/true"], input=b"", capture_output=True, check=True),
            spawn_n,
        ),
        "shell": await _spawn_case(
            Command(shell="true"),
            lambda: subprocess.run("true", shell=True, check=True),
            lambda: subprocess.run("true", shell=True, input=b"", capture_output=True, check=True),
            spawn_n,
        ),
        "concurrent": await _concurrent_case(sleep_n),
    }
    for name, row in results.items():
        row["target"] = TARGETS[name]
    return results


def _table(backend: str, results: dict[str, dict[str, float]]) -> str:
    lines = [
        f"backend: {backend}",
        f"{'case':<11}{'n':>5}{'baseline ms':>13}{'hookwire ms':>13}{'ratio':>8}{'target':>8}"
        f"{'captured ms':>13}{'vs capt':>9}",
    ]
    for name, r in results.items():
        captured = (
            f"{r['captured_ms']:>13.3f}{r['ratio_vs_captured']:>8.3f}x"
            if "captured_ms" in r
            else ""
        )
        flag = "" if r["ratio"] <= r["target"] else "  (over target)"
        lines.append(
            f"{name:<11}{r['n']:>5}{r['baseline_ms']:>13.3f}{r['hookwire_ms']:>13.3f}"
            f"{r['ratio']:>7.3f}x{r['target']:>7.2f}x{captured}{flag}"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer iterations")
    parser.add_argument("--json", action="store_true", help="also print the results as JSON")
    parser.add_argument("--backend", choices=["asyncio", "trio", "all"], default="all")
    args = parser.parse_args(argv)
    backends = ["asyncio", "trio"] if args.backend == "all" else [args.backend]
    report: dict[str, Any] = {"python": sys.version.split()[0], "quick": args.quick}
    gc.collect()
    for backend in backends:
        results = anyio.run(_bench, args.quick, backend=backend)
        report[backend] = results
        print(_table(backend, results))
        print()
    if args.json:
        print(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
