"""What an installed client entry costs per event, against running the plugin's command itself.

For each client, a portable plugin whose only handler is ``true`` (on ``pre-tool-use``) is
installed into a temporary home with the default command (what ``hookwire install`` writes),
and the installed entry is run the way that client runs it, with that client's pre-tool-use
payload on stdin:

- Claude Code, Windsurf, Grok, Kiro: ``/bin/sh -c COMMAND``, stdout and stderr captured;
- Cline: the hook file itself (``#!/bin/sh``), stdout and stderr captured;
- OpenCode, Kilo, Pi: the argv the TypeScript bridge spawns (its ``SHIM`` array, the client,
  the event, and the plan and root of each receipt), stdout and stderr ignored, as the bridge
  does.

The floor of each row is ``true`` itself, run with the same pipes in the same run. Runs
alternate (ABBA); the figure is the median wall time. Target: the entry <= 20x the floor.
Nothing is asserted.

    python benchmarks/bench_install.py [--quick] [--json] [CLIENT ...]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

TARGET_RATIO = 20.0
SCHEMA = "https://hookwire.dev/schemas/portable-hooks/0.1.0/hooks.schema.json"
CLAUDE = {"session_id": "bench", "transcript_path": "/tmp/t.jsonl", "cwd": "/tmp",
          "permission_mode": "default", "hook_event_name": "PreToolUse", "tool_name": "Bash",
          "tool_input": {"command": "ls -la"}, "tool_use_id": "toolu_bench"}
BRIDGE = {"session_id": "bench", "tool_name": "bash", "tool_use_id": "call_bench",
          "tool_input": {"command": "ls -la"}, "cwd": "/tmp", "project_dir": "/tmp"}
#: client → (how it runs the entry, its native pre-tool-use event, its payload, its answer)
CLIENTS: dict[str, tuple[str, str, dict[str, Any], bytes]] = {
    "claude-code": ("sh", "PreToolUse", CLAUDE, b""),
    "cline": ("file", "PreToolUse", {
        "clineVersion": "3.0.65", "taskId": "bench", "workspaceRoots": ["/tmp"],
        "hookName": "tool_call", "tool_call": {"id": "call_bench", "name": "run_commands",
                                               "input": {"commands": ["ls -la"]}},
        "preToolUse": {"toolName": "run_commands", "parameters": {"commands": '["ls -la"]'}}},
        b'{"cancel": false}\n'),
    "windsurf": ("sh", "pre_run_command", {
        "agent_action_name": "pre_run_command", "trajectory_id": "bench",
        "execution_id": "e-bench", "tool_info": {"command_line": "ls -la", "cwd": "/tmp"}}, b""),
    "opencode": ("bridge", "tool.execute.before", BRIDGE, b""),
    "kilo": ("bridge", "tool.execute.before", BRIDGE, b""),
    "pi": ("bridge", "tool_call", BRIDGE, b""),
    "grok": ("sh", "PreToolUse", {
        "hookEventName": "PreToolUse", "sessionId": "bench", "cwd": "/tmp",
        "workspaceRoot": "/tmp", "toolName": "run_terminal_cmd",
        "toolInput": {"command": "ls -la"}, "toolUseId": "call_bench"}, b""),
    "kiro": ("sh", "PreToolUse", {
        "hook_event_name": "preToolUse", "cwd": "/tmp", "tool_name": "execute_bash",
        "tool_input": {"command": "ls -la"}}, b""),
}


def _install(folder: Path, client: str) -> dict[str, str]:
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
                    "install(sys.argv[1], Path(sys.argv[2]), home=Path(sys.argv[3]))",
                    client, str(plugin), str(home)], env=env, check=True,
                   stdout=subprocess.DEVNULL)
    return env


def _shell_command(home: Path, native: str) -> str:
    """The command installed for ``native`` in whichever JSON hook file holds it."""
    for path in sorted(home.rglob("*.json")):
        if ".config/hookwire" in str(path):
            continue
        doc = json.loads(path.read_text())
        hooks = doc.get("hooks")
        items = hooks if isinstance(hooks, list) else (hooks or {}).get(native, [])
        for item in items:
            if isinstance(hooks, list) and item.get("trigger") != native:  # Kiro
                continue
            for hook in item.get("hooks", [item]):
                command = hook.get("command") or hook.get("bash") or \
                    (hook.get("action") or {}).get("command")
                if isinstance(command, str):
                    return command
    raise SystemExit(f"no installed command for {native} under {home}")


def _bridge_argv(home: Path, client: str, native: str) -> list[str]:
    """What the bridge spawns for ``native`` (its ``fire()``, in Python)."""
    (ts,) = [p for p in home.rglob("hookwire-bridge.ts")]
    text = ts.read_text()
    shim = json.loads(re.search(r"^const SHIM: string\[\] = (.*);$", text, re.M).group(1))
    receipts = Path(json.loads(re.search(r"^const RECEIPTS = (.*);$", text, re.M).group(1)))
    plans = re.search(r"^const PLANS = true;", text, re.M) is not None
    argv = [*shim, "--client", client, "--event", native]
    for path in sorted(receipts.glob("*.json")):
        if path.name.endswith(".entry.json"):
            continue
        if plans:
            argv += ["--plan", str(path.with_suffix(".entry.json"))]
        argv += ["--plugin", json.loads(path.read_text())["root"]]
    return argv


def _runner(how: str, home: Path, client: str, native: str
            ) -> tuple[list[str], str, Callable[[list[str], bytes, dict[str, str]], bytes]]:
    """(argv of the entry, its text for the report, how to run an argv with the same pipes)."""
    if how == "bridge":
        argv = _bridge_argv(home, client, native)
        return argv, shlex.join(argv), _run_ignored
    if how == "file":
        (path,) = [p for p in home.rglob(native) if p.is_file()]
        return [str(path)], path.read_text().splitlines()[-1], _run_captured
    command = _shell_command(home, native)
    return ["/bin/sh", "-c", command], command, _run_captured


def _run_captured(argv: list[str], stdin: bytes, env: dict[str, str]) -> bytes:
    done = subprocess.run(argv, input=stdin, capture_output=True, env=env)
    if done.returncode != 0:
        raise SystemExit(f"{argv} exited {done.returncode}: {done.stderr!r}")
    return done.stdout


def _run_ignored(argv: list[str], stdin: bytes, env: dict[str, str]) -> bytes:
    done = subprocess.run(argv, input=stdin, stdout=subprocess.DEVNULL,
                          stderr=subprocess.DEVNULL, env=env)
    if done.returncode != 0:
        raise SystemExit(f"{argv} exited {done.returncode}")
    return b""


def measure_client(client: str, runs: int) -> dict[str, Any]:
    how, native, payload, answer = CLIENTS[client]
    folder = Path(tempfile.mkdtemp(prefix="hookwire-bench-install-"))
    try:
        env = _install(folder, client)
        entry, text, run = _runner(how, folder / "home", client, native)
        stdin = json.dumps(payload).encode()
        floor = [shutil.which("true") or "/bin/true"]

        def timed(argv: list[str], want: bytes) -> float:
            t0 = time.perf_counter()
            out = run(argv, stdin, env)
            elapsed = time.perf_counter() - t0
            if out != want:
                raise SystemExit(f"unexpected answer from {argv}: {out!r}")
            return elapsed

        for _ in range(3):
            timed(entry, answer)
            timed(floor, b"")
        mine: list[float] = []
        base: list[float] = []
        for i in range(runs):
            pair = ((entry, answer, mine), (floor, b"", base))
            for argv, want, out in (pair if i % 2 else pair[::-1]):
                out.append(timed(argv, want))
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    m, b = statistics.median(mine), statistics.median(base)
    return {"name": f"{client}: {native} ({how})", "command": text,
            "hookwire_ms": round(m * 1000, 3), "baseline_ms": round(b * 1000, 3),
            "ratio": round(m / b, 2), "target_ratio": TARGET_RATIO}


def measure(runs: int, names: list[str] | None = None) -> dict[str, Any]:
    return {
        "benchmark": "install",
        "description": "each client's installed entry (plugin command `true`) run as that "
                       "client runs it with its pre-tool-use payload, vs `true` with the same "
                       "pipes",
        "iterations": runs,
        "results": [measure_client(name, runs) for name in names or CLIENTS],
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="10 runs instead of 40")
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    parser.add_argument("clients", nargs="*", metavar="CLIENT",
                        help=f"only these clients (of {', '.join(CLIENTS)})")
    args = parser.parse_args(argv)
    unknown = [c for c in args.clients if c not in CLIENTS]
    if unknown:
        parser.error(f"unknown client(s): {', '.join(unknown)}")
    data = measure(10 if args.quick else 40, args.clients)
    if args.json:
        print(json.dumps(data, indent=2))
        return 0
    print(data["description"])
    print(f"| client: event (run as) | entry | true | ratio (target <= {TARGET_RATIO:g}x) |")
    print("|---|---|---|---|")
    for r in data["results"]:
        print(f"| {r['name']} | {r['hookwire_ms']:.2f} ms | {r['baseline_ms']:.2f} ms | "
              f"{r['ratio']:.1f}x |")
    for r in data["results"]:
        print(f"  {r['name']}: {r['command']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
