"""Start-up cost: ``import hookwire; hookwire.Kernel()`` against a bare interpreter.

``hookwire.Kernel()`` loads every ``hookwire.dialects`` and ``hookwire.plugins`` entry point, so
this is what a host pays before its first seam. Each command runs N times in a fresh process,
interleaved; the figure is the median wall time. Target: <= 2x ``python -c pass``. The
``-X importtime`` breakdown shows which modules dominate; a second row compares hookwire with
the import of its dependencies alone, which is the part hookwire's own code can change. What
``Kernel()`` no longer imports is paid on first use: the last rows show the first dialect, and
the first session with its first seam (a ``tool_pre`` with nothing configured).

    python benchmarks/bench_import.py [--quick] [--json] [--runs N]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from typing import Any

TARGET_RATIO = 2.0
HOOKWIRE = "import hookwire; hookwire.Kernel()"
BARE = "pass"
#: What core cannot avoid importing: its runtime dependencies and the entry-point machinery.
#: hookwire against this floor is the cost of hookwire's own code. (Kernel() now reads the
#: entry_points.txt files itself, without importlib.metadata; the floor stays as it was.)
FLOOR = "import attrs, pluggy, anyio, importlib.metadata"
#: Dialect modules are imported on first use (#16); this row is what the first dialect costs.
FIRST_USE = "import hookwire; hookwire.Kernel().dialect('claude')"
#: The dispatch side (events, verdicts, the runner, anyio) is built on first use too: the
#: first session and its first seam.
FIRST_SEAM = ("import anyio, hookwire\n"
              "async def main():\n"
              "    await hookwire.Kernel().session(cwd='.').tool_pre('Bash', {'command': 'ls'})\n"
              "anyio.run(main)")


def _env() -> dict[str, str]:
    # No PYTHONPATH leaking the source tree in, no deny-list hiding an entry point.
    return {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "HOOKWIRE_"))}


def _run_once(code: str, cwd: str, env: dict[str, str]) -> int:
    t0 = time.perf_counter_ns()
    subprocess.run([sys.executable, "-c", code], cwd=cwd, env=env, check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter_ns() - t0


def importtime(code: str, cwd: str, env: dict[str, str], top: int = 12) -> dict[str, Any]:
    """Cumulative import time per top-level package and the slowest single modules."""
    proc = subprocess.run([sys.executable, "-X", "importtime", "-c", code], cwd=cwd, env=env,
                          capture_output=True, text=True, check=True)
    rows: list[tuple[int, int, str]] = []
    for line in proc.stderr.splitlines():
        m = re.match(r"import time:\s+(\d+) \|\s+(\d+) \|(\s*)(\S+)", line)
        if m:
            rows.append((int(m[1]), int(m[2]), m[4]))
    by_root: dict[str, int] = {}
    for self_us, _cum, name in rows:
        root = name.split(".")[0]
        by_root[root] = by_root.get(root, 0) + self_us
    total = sum(r[0] for r in rows)
    return {
        "total_us": total,
        "by_package_us": dict(sorted(by_root.items(), key=lambda kv: -kv[1])[:top]),
        "slowest_modules_us": {n: s for s, _c, n in sorted(rows, reverse=True)[:top]},
    }


def measure(runs: int) -> dict[str, Any]:
    env = _env()
    with tempfile.TemporaryDirectory() as cwd:  # never import from the source tree by accident
        for code in (BARE, FLOOR, HOOKWIRE, FIRST_USE, FIRST_SEAM):  # warm the caches
            _run_once(code, cwd, env)
        bare: list[int] = []
        floor: list[int] = []
        hw: list[int] = []
        first: list[int] = []
        seam: list[int] = []
        for _ in range(runs):
            bare.append(_run_once(BARE, cwd, env))
            floor.append(_run_once(FLOOR, cwd, env))
            hw.append(_run_once(HOOKWIRE, cwd, env))
            first.append(_run_once(FIRST_USE, cwd, env))
            seam.append(_run_once(FIRST_SEAM, cwd, env))
        probe = subprocess.run(
            [sys.executable, "-c",
             "import json, hookwire; k = hookwire.Kernel(); print(json.dumps("
             "{'loaded': [f'{l.group}:{l.name}' for l in k.loaded],"
             " 'errors': [str(e) for e in k.load_errors]}))"],
            cwd=cwd, env=env, capture_output=True, text=True, check=True)
        breakdown = importtime(HOOKWIRE, cwd, env)
    b, f, h = statistics.median(bare), statistics.median(floor), statistics.median(hw)
    u, w = statistics.median(first), statistics.median(seam)
    return {
        "benchmark": "import",
        "description": f"`{HOOKWIRE}` vs `python -c {BARE}` and vs `{FLOOR}`, {runs} runs each",
        "iterations": runs,
        "entry_points": json.loads(probe.stdout),
        "importtime": breakdown,
        "results": [{
            "name": "import hookwire + Kernel() vs python -c pass",
            "value_ns": round(h),
            "baseline_ns": round(b),
            "ratio": round(h / b, 2),
            "target_ratio": TARGET_RATIO,
            "ok": h / b <= TARGET_RATIO,
        }, {
            "name": "import hookwire + Kernel() vs dependency floor",
            "value_ns": round(h),
            "baseline_ns": round(f),
            "ratio": round(h / f, 2),
            "target_ratio": 1.3,
        }, {
            "name": "import hookwire + Kernel() + first dialect vs dependency floor",
            "value_ns": round(u),
            "baseline_ns": round(f),
            "ratio": round(u / f, 2),
        }, {
            "name": "import hookwire + Kernel() + first session and seam vs dependency floor",
            "value_ns": round(w),
            "baseline_ns": round(f),
            "ratio": round(w / f, 2),
        }],
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="5 runs instead of 30")
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    parser.add_argument("--runs", type=int, help="runs of each command")
    args = parser.parse_args(argv)
    data = measure(args.runs or (5 if args.quick else 30))
    if args.json:
        print(json.dumps(data, indent=2))
        return 0
    r, fl, fu, fs = data["results"]
    print(data["description"])
    print(f"  hookwire: {r['value_ns'] / 1e6:.1f} ms   bare: {r['baseline_ns'] / 1e6:.1f} ms   "
          f"ratio {r['ratio']:.2f}x  target <= {TARGET_RATIO:.0f}x  "
          f"{'ok' if r['ok'] else 'OVER TARGET'}")
    print(f"  dependency floor: {fl['baseline_ns'] / 1e6:.1f} ms   hookwire / floor "
          f"{fl['ratio']:.2f}x  target <= 1.3x")
    print(f"  with the first dialect imported: {fu['value_ns'] / 1e6:.1f} ms   / floor "
          f"{fu['ratio']:.2f}x")
    print(f"  with the first session and seam: {fs['value_ns'] / 1e6:.1f} ms   / floor "
          f"{fs['ratio']:.2f}x")
    eps = data["entry_points"]
    print(f"  entry points loaded: {', '.join(eps['loaded']) or '(none)'}; "
          f"errors: {len(eps['errors'])}")
    it = data["importtime"]
    print(f"  -X importtime total {it['total_us'] / 1000:.1f} ms; by package (self time):")
    for name, us in it["by_package_us"].items():
        print(f"    {us / 1000:7.1f} ms  {name}")
    print("  slowest modules (self time):")
    for name, us in it["slowest_modules_us"].items():
        print(f"    {us / 1000:7.1f} ms  {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
