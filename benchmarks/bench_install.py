"""What an installed client entry costs per event, against running the plugin's command itself.

A portable plugin whose only handler is ``true`` (on ``pre-tool-use``) is installed for Claude
Code into a temporary home with the default command (what ``hookwire install`` writes). The
entry is then run the way Claude Code runs it: ``/bin/sh -c COMMAND`` with Claude Code's
``PreToolUse`` payload on stdin, stdout and stderr captured. The floor is ``true`` itself, run
with the same pipes. Runs alternate (ABBA); the figure is the median wall time. Target: the
entry <= 20x the floor. Nothing is asserted.

    python benchmarks/bench_install.py [--quick] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

TARGET_RATIO = 20.0
SCHEMA = "https://hookwire.dev/schemas/portable-hooks/0.1.0/hooks.schema.json"
PAYLOAD = {"session_id": "bench", "transcript_path": "/tmp/t.jsonl", "cwd": "/tmp",
           "permission_mode": "default", "hook_event_name": "PreToolUse", "tool_name": "Bash",
           "tool_input": {"command": "ls -la"}, "tool_use_id": "toolu_bench"}


def _install(folder: Path) -> tuple[str, dict[str, str]]:
    home = folder / "home"
    plugin = folder / "plugin"
    home.mkdir()
    plugin.mkdir()
    (plugin / "hooks.json").write_text(json.dumps({"$schema": SCHEMA, "hooks": {
        "pre-tool-use": [{"command": "true"}]}}))
    env = {**os.environ, "HOME": str(home), "XDG_CONFIG_HOME": str(home / ".config"),
           "XDG_DATA_HOME": str(home / ".local" / "share")}
    env.pop("CURSOR_VERSION", None)
    subprocess.run([sys.executable, "-c",
                    "import sys; from pathlib import Path; "
                    "from hookwire.plugins.install import install; "
                    "install('claude-code', Path(sys.argv[1]), home=Path(sys.argv[2]))",
                    str(plugin), str(home)], env=env, check=True)
    doc = json.loads((home / ".claude" / "settings.json").read_text())
    return str(doc["hooks"]["PreToolUse"][0]["hooks"][0]["command"]), env


def _timed(argv: list[str], stdin: bytes, env: dict[str, str]) -> float:
    t0 = time.perf_counter()
    done = subprocess.run(argv, input=stdin, capture_output=True, env=env)
    elapsed = time.perf_counter() - t0
    if done.returncode != 0 or done.stdout.strip():
        raise SystemExit(f"unexpected answer from {argv}: {done}")
    return elapsed


def measure(runs: int) -> dict[str, Any]:
    folder = Path(tempfile.mkdtemp(prefix="hookwire-bench-install-"))
    try:
        command, env = _install(folder)
        stdin = json.dumps(PAYLOAD).encode()
        entry = ["/bin/sh", "-c", command]
        floor = [shutil.which("true") or "/bin/true"]
        for _ in range(3):
            _timed(entry, stdin, env)
            _timed(floor, stdin, env)
        mine: list[float] = []
        base: list[float] = []
        for i in range(runs):
            order = ((entry, mine), (floor, base)) if i % 2 else ((floor, base), (entry, mine))
            for argv, out in order:
                out.append(_timed(argv, stdin, env))
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    m, b = statistics.median(mine), statistics.median(base)
    return {
        "benchmark": "install",
        "description": "an installed Claude Code entry (plugin command `true`) run as "
                       "`sh -c` with the PreToolUse payload, vs `true` with the same pipes",
        "command": command,
        "iterations": runs,
        "results": [{
            "name": "installed entry (sh -c, payload) vs true",
            "hookwire_ms": round(m * 1000, 3),
            "baseline_ms": round(b * 1000, 3),
            "ratio": round(m / b, 2),
            "target_ratio": TARGET_RATIO,
        }],
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="10 runs instead of 40")
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    args = parser.parse_args(argv)
    data = measure(10 if args.quick else 40)
    if args.json:
        print(json.dumps(data, indent=2))
        return 0
    (r,) = data["results"]
    print(data["description"])
    print(f"  command: {data['command']}")
    print(f"  entry {r['hookwire_ms']:.2f} ms   true {r['baseline_ms']:.2f} ms   "
          f"ratio {r['ratio']:.1f}x  target <= {TARGET_RATIO:g}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
