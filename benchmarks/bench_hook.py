"""A Claude Code hook ``true`` fired through ``Session.tool_pre``, against a bare ``sh -c true``.

The real Claude Code dialect reads a settings file with one ``PreToolUse`` group (matcher
``Bash``, command ``true``); each call is ``await session.tool_pre("Bash", ...)``: matcher,
payload, environment, spawn, outcome and verdict. The floor is ``subprocess.run(["/bin/sh",
"-c", "true"])`` with the same pipes (the payload on stdin, stdout and stderr captured).
The first two rows: the runner alone (``hookwire.runner.run``) on the command that hook runs,
and the hook against it (issue #25: <= 1.15x). Then the same hook with shell elision on
(``Kernel(shell_elision=True)``), which execs ``true`` directly. Targets: <= 1.15x by
default, <= 0.7x with elision. A last row, no target, is what exec'ing ``/bin/true`` costs
with nothing around it (``os.posix_spawn`` then ``waitpid``): no runner that execs the file
can go below it, so it bounds what elision can reach on the machine measured. Runs alternate
inside one event loop (asyncio); figures are medians. Nothing is asserted.

    python benchmarks/bench_hook.py [--quick] [--json]
"""

from __future__ import annotations

import argparse
import inspect
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
from hookwire.runner import Command, Environment, run

TARGETS = {"default": 1.15, "elided": 0.7, "file default": None, "file elided": None}
#: `true` is a builtin of sh, so `sh -c true` is one process either way; a hook naming a file
#: (`/bin/true`) is where the shell forks a second process and elision saves it.
COMMANDS = {"default": "true", "elided": "true", "file default": "/bin/true",
            "file elided": "/bin/true"}
TOOL_INPUT = {"command": "ls -la"}


def _session(folder: Path, elide: bool, command: str = "true") -> Any:
    settings = folder / f"settings-{command.replace('/', '_')}.json"
    settings.write_text(json.dumps({"hooks": {"PreToolUse": [
        {"matcher": "Bash", "hooks": [{"type": "command", "command": command}]}]}}))
    if elide:
        if "shell_elision" not in inspect.signature(Kernel).parameters:
            return None  # this hookwire has no shell elision
        kernel = Kernel(shell_elision=True)
    else:
        kernel = Kernel()
    kernel.add_config("claude", settings)
    return kernel.session(session_id="bench", cwd=str(folder))


async def measure(quick: bool) -> dict[str, Any]:
    n = 60 if quick else 300
    folder = Path(tempfile.mkdtemp(prefix="hookwire-bench-hook-"))
    sessions = {k: _session(folder, "elided" in k, COMMANDS[k]) for k in COMMANDS}
    stdin = json.dumps({"session_id": "bench", "hook_event_name": "PreToolUse",
                        "tool_name": "Bash", "tool_input": TOOL_INPUT}).encode()

    def exec_floor() -> float:
        # the least any runner pays to exec a file: posix_spawn (vfork) of /bin/true and
        # waitpid, no pipes, no event loop -- what shell elision can at best approach
        t0 = time.perf_counter()
        pid = os.posix_spawn("/bin/true", ["true"], os.environ)
        os.waitpid(pid, 0)
        return time.perf_counter() - t0

    def floor() -> float:
        t0 = time.perf_counter()
        subprocess.run(["/bin/sh", "-c", "true"], input=stdin, capture_output=True, check=True)
        return time.perf_counter() - t0

    async def hook(session: Any) -> float:
        t0 = time.perf_counter()
        verdict = await session.tool_pre("Bash", TOOL_INPUT, "toolu_bench")
        elapsed = time.perf_counter() - t0
        assert len(verdict.hooks) == 1 and verdict.hooks[0].exit_code == 0, verdict
        return elapsed

    # the runner alone on the command the default hook runs: `/bin/sh -c true` in the project
    # folder with the payload on stdin, a Claude Code environment and timeout (issue #25)
    alone = Command(shell="true", stdin=stdin, cwd=str(folder), timeout=600,
                    env=Environment({**os.environ, "CLAUDE_PROJECT_DIR": str(folder)}))

    async def runner() -> float:
        t0 = time.perf_counter()
        outcome = await run(alone)
        elapsed = time.perf_counter() - t0
        assert outcome.ok, outcome
        return elapsed

    live = {k: s for k, s in sessions.items() if s is not None}
    for _ in range(max(5, n // 10)):
        floor()
        await runner()
        for s in live.values():
            await hook(s)
    base: list[float] = []
    spawn_only: list[float] = []
    runner_only: list[float] = []
    mine: dict[str, list[float]] = {k: [] for k in live}
    for i in range(n):
        spawn_only.append(exec_floor())
        if i % 2:
            base.append(floor())
            runner_only.append(await runner())
        for k, s in (live.items() if i % 2 else reversed(live.items())):
            mine[k].append(await hook(s))
        if not i % 2:
            runner_only.append(await runner())
            base.append(floor())
    b = statistics.median(base)
    r = statistics.median(runner_only)
    results = [
        {"name": "runner alone, the default hook's command (sh -c true, payload, env, cwd) "
                 "vs sh -c true", "hookwire_ms": round(r * 1000, 3),
         "baseline_ms": round(b * 1000, 3), "ratio": round(r / b, 3)},
        {"name": "claude `true` hook via tool_pre (default) vs the runner alone on its command",
         "hookwire_ms": round(statistics.median(mine["default"]) * 1000, 3),
         "baseline_ms": round(r * 1000, 3),
         "ratio": round(statistics.median(mine["default"]) / r, 3), "target_ratio": 1.15}]
    for k, samples in mine.items():
        m = statistics.median(samples)
        row = {"name": f"claude `{COMMANDS[k]}` hook via tool_pre "
                       f"({k.split()[-1]}) vs sh -c true",
               "hookwire_ms": round(m * 1000, 3), "baseline_ms": round(b * 1000, 3),
               "ratio": round(m / b, 3)}
        if TARGETS[k] is not None:
            row["target_ratio"] = TARGETS[k]
        results.append(row)
    e = statistics.median(spawn_only)
    results.append({"name": "reference: posix_spawn /bin/true + waitpid (no pipes, no loop) "
                            "vs sh -c true", "hookwire_ms": round(e * 1000, 3),
                    "baseline_ms": round(b * 1000, 3), "ratio": round(e / b, 3)})
    return {"benchmark": "hook", "iterations": n, "results": results}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer iterations")
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    args = parser.parse_args(argv)
    data = anyio.run(measure, args.quick)
    if args.json:
        print(json.dumps(data, indent=2))
        return 0
    for r in data["results"]:
        print(f"{r['name']}: {r['hookwire_ms']:.3f} ms vs {r['baseline_ms']:.3f} ms  "
              f"ratio {r['ratio']:.2f}x" + (f"  target <= {r['target_ratio']:g}x"
                                             if "target_ratio" in r else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
