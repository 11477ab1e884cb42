"""Dispatch of ``tool_pre`` with hooks configured but none matching, against a bare pluggy call.

Both run inside one event loop (anyio on asyncio), timed with ``time.perf_counter_ns`` in
batches; the figure is the median per-call time over the batches. The issue's target is
"no-match dispatch <= 3 us median". Nothing here is asserted: this is a report.

    python benchmarks/bench_dispatch.py [--quick] [--json] [--profile]
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
import time
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

import anyio
import pluggy

from hookwire import (
    Answer,
    Command,
    Dialect,
    EventSpec,
    HookEntry,
    Kernel,
    Outcome,
    Seam,
    SeamEvent,
    Session,
    SessionInfo,
    ToolPre,
)

TARGET_NS = 3_000
CONFIGURED_HOOKS = 4
#: issue #16: no-match Session.tool_pre <= 0.5x a bare pluggy call
TOOL_PRE_TARGET = 0.5


class BenchDialect(Dialect):
    """The toy dialect pattern in-process: ``select`` tests each matcher, nothing ever runs."""

    name = "bench"
    harness = "benchmark"
    events = {"BeforeTool": EventSpec(name="BeforeTool", seam=Seam.TOOL_PRE,
                                      matcher_field="tool_name", can_block=True)}

    def __init__(self) -> None:
        # Compiled once per matcher, as a real dialect should: `re.search(text, ...)` pays
        # for a cache lookup in `re._compile` on every call.
        self._patterns: dict[str, re.Pattern[str]] = {}

    def _pattern(self, matcher: str) -> re.Pattern[str]:
        pattern = self._patterns.get(matcher)
        if pattern is None:
            pattern = self._patterns[matcher] = re.compile(matcher)
        return pattern

    def select(self, entries: Sequence[HookEntry], event: SeamEvent, native: str,
               session: SessionInfo) -> list[HookEntry]:
        tool = getattr(event, "tool_name", "")
        return [e for e in entries
                if e.matcher is not None and self._pattern(e.matcher).search(tool)]

    def command(self, entry: HookEntry, event: SeamEvent, native: str,
                session: SessionInfo) -> Command:
        raise AssertionError("a hook that does not match must never be spawned")

    def interpret(self, entry: HookEntry, event: SeamEvent, native: str,
                  outcome: Outcome) -> Answer:
        raise AssertionError("unreachable")


def make_kernel() -> Kernel:
    kernel = Kernel(load_entry_points=False)
    kernel.add_dialect(BenchDialect())
    kernel.add_hooks(
        HookEntry(dialect="bench", event="BeforeTool", command=("/bin/false",),
                  matcher=f"^(Write|Edit|mcp__fs__write_{i})$")
        for i in range(CONFIGURED_HOOKS)
    )
    return kernel


_hookspec = pluggy.HookspecMarker("bench")
_hookimpl = pluggy.HookimplMarker("bench")


class _Spec:
    @_hookspec
    def x(self, arg: Any) -> None:
        """The one hookspec of the baseline."""


class _Impl:
    @_hookimpl
    def x(self, arg: Any) -> None:
        return None


def make_pluggy() -> pluggy.PluginManager:
    pm = pluggy.PluginManager("bench")
    pm.add_hookspecs(_Spec)
    pm.register(_Impl())
    return pm


async def _median_ns(call: Callable[[], Awaitable[Any] | Any], *, is_async: bool,
                     batches: int, batch: int) -> float:
    """Median over ``batches`` of the mean per-call time of ``batch`` consecutive calls."""
    per_call: list[float] = []
    perf = time.perf_counter_ns
    for _ in range(batches):
        if is_async:
            t0 = perf()
            for _ in range(batch):
                await call()
            t1 = perf()
        else:
            t0 = perf()
            for _ in range(batch):
                call()
            t1 = perf()
        per_call.append((t1 - t0) / batch)
    return statistics.median(per_call)


async def measure(quick: bool) -> dict[str, Any]:
    batches, batch = (30, 200) if quick else (200, 500)
    kernel = make_kernel()
    session: Session = kernel.session(session_id="bench", cwd="/tmp")
    tool_input = {"command": "ls -la"}
    event = ToolPre(tool_name="Bash", tool_input=tool_input, tool_use_id="toolu_bench")
    pm = make_pluggy()
    hook = pm.hook.x

    # Sanity: nothing matches, nothing is spawned, the verdict is "no opinion".
    verdict = await session.tool_pre("Bash", tool_input, "toolu_bench")
    assert not verdict.hooks and verdict.decision.value == "none", verdict

    def host_call() -> Awaitable[Any]:
        return session.tool_pre("Bash", tool_input, "toolu_bench")

    def kernel_call() -> Awaitable[Any]:
        return kernel.dispatch(event, session)

    # The same with the real Claude Code dialect and a settings file of four matcher groups
    # (exact names, an exact list and a regex), when the dialect is installed.
    claude_kernel, claude_session = _claude_kernel()

    def claude_call() -> Awaitable[Any]:
        return claude_kernel.dispatch(event, claude_session)

    def pluggy_call() -> Any:
        return hook(arg=tool_input)

    # Warm up every path before measuring, then interleave to share any drift fairly.
    for _ in range(2):
        await _median_ns(host_call, is_async=True, batches=3, batch=batch)
        await _median_ns(kernel_call, is_async=True, batches=3, batch=batch)
        await _median_ns(pluggy_call, is_async=False, batches=3, batch=batch)
    host = await _median_ns(host_call, is_async=True, batches=batches, batch=batch)
    bare = await _median_ns(pluggy_call, is_async=False, batches=batches, batch=batch)
    disp = await _median_ns(kernel_call, is_async=True, batches=batches, batch=batch)
    claude = None
    tool_pre: dict[int, float] = {}
    if claude_kernel is not None:
        await _median_ns(claude_call, is_async=True, batches=3, batch=batch)
        claude = await _median_ns(claude_call, is_async=True, batches=batches, batch=batch)
        for groups in (1, 4):
            _, s = _claude_kernel(groups)
            assert s is not None

            def call(s: Session = s) -> Awaitable[Any]:
                return s.tool_pre("Bash", tool_input, "toolu_bench")

            await _median_ns(call, is_async=True, batches=3, batch=batch)
            tool_pre[groups] = await _median_ns(call, is_async=True, batches=batches,
                                                batch=batch)
    return {
        "benchmark": "dispatch",
        "description": f"tool_pre, {CONFIGURED_HOOKS} hooks configured, none matching",
        "iterations": batches * batch,
        "results": [
            {
                "name": "no-match Session.tool_pre vs bare pluggy call",
                "value_ns": round(host, 1),
                "baseline_ns": round(bare, 1),
                "ratio": round(host / bare, 2),
                "target_ns": TARGET_NS,
                "ok": host <= TARGET_NS,
            },
            {
                "name": "no-match Kernel.dispatch (event built) vs bare pluggy call",
                "value_ns": round(disp, 1),
                "baseline_ns": round(bare, 1),
                "ratio": round(disp / bare, 2),
                "target_ns": TARGET_NS,
                "ok": disp <= TARGET_NS,
            },
        ] + ([{
                "name": "no-match Kernel.dispatch, claude dialect, 4 matcher groups",
                "value_ns": round(claude, 1),
                "baseline_ns": round(bare, 1),
                "ratio": round(claude / bare, 2),
                "target_ns": TARGET_NS,
                "ok": claude <= TARGET_NS,
            }] if claude is not None else []) + [{
                "name": f"no-match Session.tool_pre, claude, {g} hook group(s) vs pluggy call",
                "value_ns": round(v, 1),
                "baseline_ns": round(bare, 1),
                "ratio": round(v / bare, 2),
                "target_ratio": TOOL_PRE_TARGET,
                "ok": v / bare <= TOOL_PRE_TARGET,
            } for g, v in tool_pre.items()],
    }


_GROUPS = [
    {"matcher": "Write|Edit", "hooks": [{"type": "command", "command": "./a.sh"}]},
    {"matcher": "mcp__fs__.*", "hooks": [{"type": "command", "command": "./b.sh"}]},
    {"matcher": "Read", "hooks": [{"type": "command", "command": "./c.sh"}]},
    {"matcher": "NotebookEdit", "hooks": [{"type": "command", "command": "./d.sh"}]},
]


def _claude_kernel(groups: int = 4) -> tuple[Kernel | None, Session | None]:
    import tempfile
    from pathlib import Path

    kernel = Kernel()
    if "claude" not in kernel.dialects:
        return None, None
    folder = Path(tempfile.mkdtemp(prefix="hookwire-bench-"))
    settings = folder / "settings.json"
    settings.write_text(json.dumps({"hooks": {"PreToolUse": _GROUPS[:groups]}}))
    kernel.add_config("claude", settings)
    return kernel, kernel.session(session_id="bench", cwd=str(folder))


async def profile() -> None:
    import cProfile
    import pstats

    kernel = make_kernel()
    session = kernel.session(session_id="bench", cwd="/tmp")
    tool_input = {"command": "ls -la"}
    prof = cProfile.Profile()
    prof.enable()
    for _ in range(50_000):
        await session.tool_pre("Bash", tool_input, "toolu_bench")
    prof.disable()
    pstats.Stats(prof, stream=sys.stderr).sort_stats("tottime").print_stats(20)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer iterations (smoke run)")
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    parser.add_argument("--profile", action="store_true", help="cProfile the no-match path")
    args = parser.parse_args(argv)
    if args.profile:
        anyio.run(profile)
        return 0
    data = anyio.run(measure, args.quick)
    if args.json:
        print(json.dumps(data, indent=2))
        return 0
    print(f"{data['description']} ({data['iterations']} calls each, median per call)")
    for r in data["results"]:
        print(f"  {r['name']}: {r['value_ns'] / 1000:.2f} us vs {r['baseline_ns'] / 1000:.2f} us"
              f"  ratio {r['ratio']:.2f}x  {'ok' if r['ok'] else 'OVER TARGET'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
