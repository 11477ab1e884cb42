"""hookwire beside its peers on the same Claude Code hooks, in one process and one event loop.

    python benchmarks/bench_peers.py [--quick] [--json] [--no-flood] [--require NAME,...]

``nox -s peers`` installs the peers from PyPI next to hookwire on every supported Python and
runs this script. Each peer is driven through its own public hook API, in process, with the
hooks written in its own configuration format:

- ``hookwire``: ``Session.tool_pre`` with the Claude Code dialect reading a settings file;
- ``openhands``: ``openhands.sdk.hooks.HookManager.run_pre_tool_use`` (OpenHands SDK; needs
  Python >= 3.12);
- ``code-puppy``: ``code_puppy.hook_engine.HookEngine.process_event`` (its parallel mode for
  the eight-hook row);
- ``clip-harness``: ``clip_harness.hooks.dispatch`` on ``PreRun`` (its PreToolUse);
- ``nxthooks``: ``select_hooks``, ``run_hook`` and ``aggregate`` of ``nxthooks.dispatch``
  (its CLI runs them in a new Python process per event; in process it is spared that).

Rows, each against a floor measured in the same run (ratios are medians over floors):

- ``no-match``: four PreToolUse hook groups for other tools, a ``Bash`` call; floor: a bare
  pluggy hook call with one no-op implementation;
- ``one hook``: one ``true`` hook (nxthooks: a ``#!/bin/sh`` file holding ``true``); floor:
  ``subprocess.run(["/bin/sh", "-c", "true"])`` with the payload on stdin, output captured;
  a reference measured in the same rotation, not a competitor: hookwire's runner alone on
  the command its dialect prepares for that hook (what is left of hookwire's time is its
  dispatch);
- ``eight hooks``: eight ``true`` hooks on the call (``true 0`` ... ``true 7``: Claude Code
  runs identical hooks once) (hookwire and code-puppy run them at
  once, the others one after another, as each does); floor: eight such processes at once;
- ``stall``: one hook sleeping 50 ms, a task ticking every 1 ms beside it in the same event
  loop; the longest gap between its ticks (median over the calls), in ms: how long the call
  kept the loop from running anything else;
- ``1 GiB``: one hook printing 1 GiB (``head -c 1073741824 /dev/zero``), timeouts raised so
  that none is cut short by time; the peak resident memory it added to this process (VmHWM,
  reset through ``/proc/self/clear_refs`` before each), in MiB, and its multiple of hookwire's.

Competitors run in a rotating order inside each iteration, so machine noise hits all alike.
Nothing is asserted but that every hook ran; no figure is a threshold.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any

import anyio
import pluggy

# The OpenHands SDK imports LiteLLM, which fetches a price list from the network at import
# unless told to use its bundled copy; the banner goes to stdout.
os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
os.environ.setdefault("OPENHANDS_SUPPRESS_BANNER", "1")

PEERS = ("openhands", "code-puppy", "clip-harness", "nxthooks")
DISTRIBUTIONS = {"hookwire": "hookwire", "openhands": "openhands-sdk",
                 "code-puppy": "code-puppy", "clip-harness": "clip-harness",
                 "nxthooks": "nxthooks"}
TOOL_INPUT = {"command": "ls -la"}
FLOOD = f"head -c {1 << 30} /dev/zero"
STALL = "sleep 0.05"  # the stall row's hook: 50 ms, during which the event loop should run on
OTHER_TOOLS = ("Write", "Edit", "Read", "Glob")
LONG = 600  # seconds: no hook of the 1 GiB row is cut short by a timeout

Call = Callable[[], Awaitable[int]]  # runs the scenario once, returns how many hooks ran


def _claude_hooks(scenario: str) -> dict[str, Any]:
    """The scenario as Claude Code's ``hooks`` object (hookwire, OpenHands, code-puppy)."""
    if scenario == "no-match":
        groups = [{"matcher": tool, "hooks": [{"type": "command", "command": "true"}]}
                  for tool in OTHER_TOOLS]
    else:
        count, command = {"one": (1, "true"), "eight": (8, "true"), "flood": (1, FLOOD),
                          "stall": (1, STALL)}[scenario]
        # distinct texts: Claude Code runs identical command hooks once
        commands = [command] if count == 1 else [f"{command} {i}" for i in range(count)]
        groups = [{"matcher": "Bash", "hooks": [
            {"type": "command", "command": text, "timeout": LONG} for text in commands]}]
    return {"PreToolUse": groups}


def _expected(scenario: str) -> int:
    return {"no-match": 0, "one": 1, "eight": 8, "flood": 1, "stall": 1}[scenario]


# -- the competitors ----------------------------------------------------------------------------

def _hookwire(folder: Path, scenario: str) -> Call:
    from hookwire import Kernel

    settings = folder / f"hookwire-{scenario}.json"
    settings.write_text(json.dumps({"hooks": _claude_hooks(scenario)}))
    kernel = Kernel()
    kernel.add_config("claude", settings)
    session = kernel.session(session_id="bench", cwd=str(folder))

    async def call() -> int:
        verdict = await session.tool_pre("Bash", TOOL_INPUT, "toolu_bench")
        return len(verdict.hooks)

    return call


def _openhands(folder: Path, scenario: str) -> Call:
    from openhands.sdk.hooks import HookConfig, HookManager

    hooks = _claude_hooks(scenario)
    for group in hooks["PreToolUse"]:
        for hook in group["hooks"]:
            hook["timeout"] = LONG
    manager = HookManager(config=HookConfig.from_dict({"hooks": hooks}),
                          working_dir=str(folder), session_id="bench")

    async def call() -> int:
        _, results = manager.run_pre_tool_use("Bash", TOOL_INPUT)
        return sum(r.exit_code == 0 for r in results)

    return call


def _code_puppy(folder: Path, scenario: str) -> Call:
    from code_puppy.hook_engine import EventData, HookEngine

    logging.getLogger("code_puppy").setLevel(logging.WARNING)  # one INFO line per config

    hooks = _claude_hooks(scenario)
    for group in hooks["PreToolUse"]:
        for hook in group["hooks"]:
            hook["timeout"] = LONG * 1000  # milliseconds
    engine = HookEngine(config=hooks)
    parallel = scenario == "eight"

    async def call() -> int:
        data = EventData(event_type="PreToolUse", tool_name="Bash", tool_args=dict(TOOL_INPUT))
        result = await engine.process_event("PreToolUse", data, sequential=not parallel)
        return sum(r.exit_code == 0 for r in result.results)

    return call


def _clip_harness(folder: Path, scenario: str) -> Call:
    from clip_harness.core import Event
    from clip_harness.hooks import build_hook_input, dispatch
    from clip_harness.settings import HookHandler, Settings

    handlers = [HookHandler(command=h["command"], matcher=g["matcher"], timeout=LONG)
                for g in _claude_hooks(scenario)["PreToolUse"] for h in g["hooks"]]
    settings = Settings(state_dir=folder / "clip-state", hooks={"PreRun": handlers})
    ran = 0

    def runner(*args: Any, **kwargs: Any) -> subprocess.CompletedProcess[str]:
        nonlocal ran
        ran += 1
        return subprocess.run(*args, **kwargs)

    async def call() -> int:
        nonlocal ran
        ran = 0
        hook_input = build_hook_input(Event.PRE_RUN, session_id="bench", run_id="r1",
                                      cwd=str(folder), tool_name="Bash",
                                      tool_input=dict(TOOL_INPUT))
        outcome = dispatch(Event.PRE_RUN, hook_input, settings, runner=runner)
        # 1 GiB of NUL bytes is no JSON: an error, after the hook ran to its end
        return 0 if outcome.error and scenario != "flood" else ran

    return call


def _nxthooks(folder: Path, scenario: str) -> Call:
    from nxthooks.dispatch import aggregate, normalize, run_hook, select_hooks

    entries = []
    for g, group in enumerate(_claude_hooks(scenario)["PreToolUse"]):
        for h, hook in enumerate(group["hooks"]):
            source = folder / f"nxt-{scenario}-{g}-{h}"
            source.write_text(f"#!/bin/sh\n{hook['command']}\n")
            source.chmod(0o755)
            entries.append({"name": source.name, "events": ["before_tool"],
                            "source": str(source), "matchers": [group["matcher"]],
                            "timeout_ms": LONG * 1000})
    raw = {"session_id": "bench", "hook_event_name": "PreToolUse", "cwd": str(folder),
           "tool_name": "Bash", "tool_input": TOOL_INPUT}

    async def call() -> int:
        envelope = normalize("claude-code", "before_tool", dict(raw))
        selected = list(select_hooks(entries, {}, "claude-code", "before_tool", envelope))
        outcome = aggregate([run_hook(entry, envelope) for entry in selected])
        return sum(not r["error"] for r in outcome["ran"])

    return call


def _hookwire_runner(folder: Path, scenario: str) -> Call:
    """Not a peer: hookwire's runner alone on the exact command its Claude Code dialect
    prepares for the ``one`` row's hook (payload, environment, cwd, timeout), no dispatch.
    Beside the ``hookwire`` column it splits hookwire's cost into spawn and dispatch."""
    from hookwire import Kernel
    from hookwire.events import ToolPre
    from hookwire.runner import run

    settings = folder / f"hookwire-runner-{scenario}.json"
    settings.write_text(json.dumps({"hooks": _claude_hooks(scenario)}))
    kernel = Kernel()
    kernel.add_config("claude", settings)
    session = kernel.session(session_id="bench", cwd=str(folder))
    group = kernel.index.by_seam[ToolPre.seam][0]
    event = ToolPre(tool_name="Bash", tool_input=dict(TOOL_INPUT), tool_use_id="toolu_bench")
    command = group.dialect.prepare(group.entries[0], event, group.native, session.info).command

    async def call() -> int:
        return int((await run(command)).ok)

    return call


BUILDERS: dict[str, Callable[[Path, str], Call]] = {
    "hookwire": _hookwire, "openhands": _openhands, "code-puppy": _code_puppy,
    "clip-harness": _clip_harness, "nxthooks": _nxthooks}


# -- the floors ---------------------------------------------------------------------------------

def _pluggy_floor() -> Call:
    spec, impl = pluggy.HookspecMarker("floor"), pluggy.HookimplMarker("floor")

    class Spec:
        @spec
        def tool_pre(self, name: str) -> None: ...

    class Impl:
        @impl
        def tool_pre(self, name: str) -> None:
            return None

    pm = pluggy.PluginManager("floor")
    pm.add_hookspecs(Spec)
    pm.register(Impl())
    hook = pm.hook.tool_pre

    async def call() -> int:
        hook(name="Bash")
        return 0

    return call


def _spawn_floor(count: int) -> Call:
    payload = json.dumps({"session_id": "bench", "hook_event_name": "PreToolUse",
                          "tool_name": "Bash", "tool_input": TOOL_INPUT}).encode()

    async def call() -> int:
        if count == 1:
            subprocess.run(["/bin/sh", "-c", "true"], input=payload, capture_output=True,
                           check=True)
            return 1
        procs = [subprocess.Popen(["/bin/sh", "-c", "true"], stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE)
                 for _ in range(count)]
        return sum(p.communicate(payload)[0] == b"" and p.returncode == 0 for p in procs)

    return call


# -- measuring ----------------------------------------------------------------------------------

async def _timed(call: Call, expected: int, name: str, repeat: int = 1
                 ) -> tuple[float, float]:
    """Wall and CPU seconds (this process's own CPU: the parent's work, not the hook's) of one
    call, averaged over ``repeat``."""
    t0, c0 = time.perf_counter(), time.process_time()
    for _ in range(repeat):
        ran = await call()
    elapsed, cpu = (time.perf_counter() - t0) / repeat, (time.process_time() - c0) / repeat
    if ran != expected:
        raise RuntimeError(f"{name}: {ran} hooks ran cleanly, expected {expected}")
    return elapsed, cpu


def _stats(samples: list[tuple[float, float]]) -> dict[str, float]:
    """Median wall time and its spread (p10, p25, p75), and mean CPU, in ms."""
    wall = sorted(w * 1000 for w, _ in samples)
    cuts = statistics.quantiles(wall, n=20)  # 5 % steps
    return {"ms": statistics.median(wall), "p10": cuts[1], "p25": cuts[4], "p75": cuts[14],
            "cpu_ms": statistics.fmean(c * 1000 for _, c in samples)}


def _rss_kib(field: str) -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    raise RuntimeError(f"no {field} in /proc/self/status")


async def _flood(call: Call, name: str) -> dict[str, float]:
    """Peak resident memory one 1 GiB-printing hook adds (MiB), and how long it took."""
    import gc

    gc.collect()
    before = _rss_kib("VmRSS")
    Path("/proc/self/clear_refs").write_text("5")  # resets VmHWM to the current RSS
    elapsed, _ = await _timed(call, 1, name)
    peak = _rss_kib("VmHWM")
    gc.collect()
    return {"mib": round((peak - before) / 1024, 1), "seconds": round(elapsed, 2)}


async def _stall(call: Call, name: str, n: int) -> dict[str, float]:
    """The longest the event loop went without running another task while one 50 ms hook
    ran (a 1 ms heartbeat beside the call; median over ``n`` calls), in ms."""

    async def heartbeat(stop: anyio.Event, gaps: list[float]) -> None:
        last = time.perf_counter()
        while not stop.is_set():
            await anyio.sleep(0.001)
            now = time.perf_counter()
            gaps.append(now - last)
            last = now

    worst: list[float] = []
    for _ in range(n):
        stop, gaps = anyio.Event(), list[float]()
        async with anyio.create_task_group() as tg:
            tg.start_soon(heartbeat, stop, gaps)
            await anyio.sleep(0.005)  # the heartbeat is ticking
            gaps.clear()
            await _timed(call, 1, name)
            stop.set()
        worst.append(max(gaps, default=0.0) * 1000)
    return {"stall_ms": statistics.median(worst)}


async def measure(quick: bool, flood: bool, require: list[str]) -> dict[str, Any]:
    folder = Path(tempfile.mkdtemp(prefix="hookwire-bench-peers-"))
    present: dict[str, str] = {}
    missing: dict[str, str] = {}
    for name in ("hookwire", *PEERS):
        try:
            BUILDERS[name](folder, "no-match")
            present[name] = version(DISTRIBUTIONS[name])
        except (ImportError, PackageNotFoundError) as exc:
            missing[name] = f"not installed ({exc})"
    if unmet := [name for name in require if name in missing]:
        raise SystemExit(f"required peers missing: {', '.join(unmet)}: {missing}")

    loops = {"no-match": (20, 200) if quick else (60, 500), "one": (40, 1) if quick
             else (150, 1), "eight": (12, 1) if quick else (40, 1)}
    floors = {"no-match": _pluggy_floor(), "one": _spawn_floor(1), "eight": _spawn_floor(8)}
    rows: dict[str, dict[str, Any]] = {}
    for scenario, (n, repeat) in loops.items():
        calls = {name: BUILDERS[name](folder, scenario) for name in present}
        calls["floor"] = floors[scenario]
        if scenario == "one":
            calls["runner"] = _hookwire_runner(folder, scenario)
        expected = {name: _expected(scenario) for name in calls}
        expected["floor"] = 0 if scenario == "no-match" else _expected(scenario)
        samples: dict[str, list[tuple[float, float]]] = {name: [] for name in calls}
        order = list(calls)
        for name in order:  # warm up
            await _timed(calls[name], expected[name], name, repeat)
        for i in range(n):
            shift = i % len(order)
            for name in order[shift:] + order[:shift]:
                samples[name].append(await _timed(calls[name], expected[name], name, repeat))
        stats = {name: _stats(s) for name, s in samples.items()}
        floor = stats.pop("floor")
        rows[scenario] = {"n": n, "floor": floor} | {
            name: st | {"ratio": st["ms"] / floor["ms"], "ratio_p10": st["p10"] / floor["p10"]}
            for name, st in stats.items()}
        if "runner" in rows[scenario]:  # a reference, not a competitor
            rows[scenario]["reference"] = rows[scenario].pop("runner")
    rows["stall"] = {name: await _stall(BUILDERS[name](folder, "stall"), name, 5 if quick else 15)
                     for name in present}
    if flood:
        rows["flood"] = {name: await _flood(BUILDERS[name](folder, "flood"), name)
                         for name in present}
    return {"benchmark": "peers", "python": sys.version.split()[0], "quick": quick,
            "versions": present, "missing": missing, "rows": rows}


LABELS = {"no-match": "no-match dispatch (floor µs)", "one": "one `true` hook (floor ms)",
          "eight": "eight `true` hooks (floor ms)", "flood": "hook printing 1 GiB: peak MiB",
          "stall": "event loop held during a 50 ms hook: longest stall, ms"}


def _unit(scenario: str) -> int:
    return 1000 if scenario == "no-match" else 1  # ms -> µs for the no-match row


def table(data: dict[str, Any]) -> str:
    """Markdown: one row per case; each cell is the median as a multiple of the row's floor,
    then the same for the fastest tenth of the runs (p10: what is left when the machine
    leaves the run alone), then the parent's own CPU per call. The 1 GiB row: MiB, and the
    multiple of hookwire's."""
    names = list(data["versions"])
    head = ["case", "floor", *[f"{n} {data['versions'][n]}" for n in names],
            "hookwire ahead (median / p10 / CPU)"]
    lines = [f"Python {data['python']}" + (" (--quick)" if data["quick"] else ""), "",
             "| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for scenario, row in data["rows"].items():
        if scenario == "stall":
            least = row["hookwire"]["stall_ms"]
            cells = [f"{row[n]['stall_ms']:.1f}" for n in names]
            first = all(row[n]["stall_ms"] > least for n in names if n != "hookwire")
            lines.append(f"| {LABELS[scenario]} | 1 (heartbeat) | " + " | ".join(cells)
                         + f" | {'yes' if first else 'no'} |")
            continue
        if scenario == "flood":
            mine = row["hookwire"]["mib"]
            cells = [f"{row[n]['mib']:.0f}" + ("" if n == "hookwire" else
                     f" ({row[n]['mib'] / max(mine, 0.1):.0f}x)") for n in names]
            ahead = all(row[n]["mib"] > mine for n in names if n != "hookwire")
            lines.append(f"| {LABELS[scenario]} | — | " + " | ".join(cells)
                         + f" | {'yes' if ahead else 'no'} |")
            continue
        unit, digits = _unit(scenario), 3
        floor = row["floor"]
        cells = [f"{row[n]['ratio']:.2f}x / {row[n]['ratio_p10']:.2f}x / "
                 f"{row[n]['cpu_ms'] * unit:.{digits}g}" for n in names]
        others = [n for n in names if n != "hookwire"]
        ahead = ["yes" if all(row[n][key] > row["hookwire"][key] for n in others) else "no"
                 for key in ("ratio", "ratio_p10", "cpu_ms")]
        lines.append(f"| {LABELS[scenario]} | {floor['ms'] * unit:.{digits}g} "
                     f"(p10 {floor['p10'] * unit:.{digits}g}) | " + " | ".join(cells)
                     + f" | {' / '.join(ahead)} |")
    lines.append("")
    lines.append("Cells: median / p10 as multiples of the floor's median / p10, then the "
                 "parent's CPU per call (µs for no-match, else ms). Spread, p25-p75 "
                 "(µs for no-match, else ms): " + "; ".join(
                     f"{scenario} " + ", ".join(
                         f"{n} {row[n]['p25'] * _unit(scenario):.3g}-"
                         f"{row[n]['p75'] * _unit(scenario):.3g}" for n in names)
                     for scenario, row in data["rows"].items()
                     if scenario not in ("flood", "stall")))
    ref = data["rows"].get("one", {}).get("reference")
    if ref is not None:
        whole = data["rows"]["one"]["hookwire"]
        lines.append("")
        lines.append(
            f"Reference, not a peer: hookwire's runner alone on the command its dialect "
            f"prepares for the one-hook row, no dispatch: {ref['ratio']:.2f}x / "
            f"{ref['ratio_p10']:.2f}x / {ref['cpu_ms']:.3g} (the hookwire column less this "
            f"is the dispatch: {(whole['ms'] - ref['ms']) * 1000:.0f} µs median, "
            f"{(whole['cpu_ms'] - ref['cpu_ms']) * 1000:.0f} µs of CPU).")
    for name, why in data["missing"].items():
        lines.append(f"\n{name}: {why}")
    return "\n".join(lines)


def _json_rows(data: dict[str, Any]) -> list[dict[str, Any]]:
    """The rows run_all.py reads: one per case and competitor, as a ratio to the floor."""
    out = []
    for scenario, row in data["rows"].items():
        if scenario in ("flood", "stall"):
            continue
        for name in data["versions"]:
            out.append({"name": f"peers {scenario}: {name} vs floor",
                        "hookwire_ms": round(row[name]["ms"], 4),
                        "baseline_ms": round(row["floor"]["ms"], 4),
                        "ratio": round(row[name]["ratio"], 3)})
        if "reference" in row:
            out.append({"name": f"peers {scenario}: hookwire runner alone (reference) vs floor",
                        "hookwire_ms": round(row["reference"]["ms"], 4),
                        "baseline_ms": round(row["floor"]["ms"], 4),
                        "ratio": round(row["reference"]["ratio"], 3)})
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer iterations")
    parser.add_argument("--json", action="store_true", help="also print the results as JSON")
    parser.add_argument("--no-flood", action="store_true", help="skip the 1 GiB row")
    parser.add_argument("--require", default="", help="peers that must be installed, "
                        "comma-separated (the nox session names those of its Python)")
    args = parser.parse_args(argv)
    require = [name for name in args.require.split(",") if name]
    data = anyio.run(measure, args.quick, not args.no_flood, require)
    print(table(data))
    if args.json:
        print(json.dumps({**data, "results": _json_rows(data)}, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
