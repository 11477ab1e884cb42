"""Run every ``benchmarks/bench_*.py`` and print one table of ratios.

    python benchmarks/run_all.py [--quick] [--json] [NAME ...]

Each benchmark runs in its own process with ``--json`` (and ``--quick`` when given); NAME
(``dispatch``, ``runner``, ...) restricts the run. A benchmark's JSON may be printed after a
human table; every object in it that has a ``ratio`` becomes one row. Recognised fields:
``name``, ``value_ns``/``hookwire_ms`` (measured), ``baseline_ns``/``baseline_ms``, ``ratio``,
``target`` or ``target_ratio`` (a ratio), ``target_ns`` (an absolute median). Nothing is
asserted: rows over their target are flagged, and the exit status is 0 unless a benchmark
crashed.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent


def extract_json(stdout: str) -> Any:
    """The JSON document a benchmark printed, alone or after its human-readable table."""
    text = stdout.strip()
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        pass
    decoder = json.JSONDecoder()
    # The document starts at a line that opens an object or a list; take the last that parses.
    starts = [i for i, ch in enumerate(text) if ch in "{[" and (i == 0 or text[i - 1] == "\n")]
    for start in reversed(starts):
        try:
            doc, end = decoder.raw_decode(text, start)
        except json.JSONDecodeError:
            continue
        if not text[end:].strip():
            return doc
    raise ValueError("no JSON document in the benchmark's output")


def rows(doc: Any, path: tuple[str, ...] = ()) -> Iterator[dict[str, Any]]:
    """Every object carrying a ``ratio``, labelled by its ``name`` or its path in ``doc``."""
    if isinstance(doc, dict):
        if "ratio" in doc:
            yield {"case": str(doc.get("name") or "/".join(path) or "-"), **doc}
            return
        for key, value in doc.items():
            yield from rows(value, (*path, str(key)))
    elif isinstance(doc, list):
        for i, value in enumerate(doc):
            yield from rows(value, (*path, str(i)))


def _fmt_time(row: dict[str, Any], prefix: str) -> str:
    if f"{prefix}_ns" in row:
        ns = float(row[f"{prefix}_ns"])
        return f"{ns / 1000:.2f} us" if ns < 1e6 else f"{ns / 1e6:.1f} ms"
    if f"{prefix}_ms" in row:
        return f"{float(row[f'{prefix}_ms']):.3f} ms"
    return "-"


def judge(row: dict[str, Any]) -> tuple[str, str]:
    """(target, status) of one row."""
    ratio = float(row["ratio"])
    target = row.get("target_ratio", row.get("target"))
    if isinstance(target, (int, float)):
        return f"<= {target:g}x", "ok" if ratio <= target else "OVER"
    if isinstance(row.get("target_ns"), (int, float)) and "value_ns" in row:
        ok = float(row["value_ns"]) <= row["target_ns"]
        return f"<= {row['target_ns'] / 1000:g} us", "ok" if ok else "OVER"
    return "-", ""


def run_one(script: Path, quick: bool) -> dict[str, Any]:
    cmd = [sys.executable, str(script), "--json", *(["--quick"] if quick else [])]
    started = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, text=True, cwd=HERE.parent)
    seconds = round(time.perf_counter() - started, 1)
    out: dict[str, Any] = {"script": script.name, "seconds": seconds}
    if proc.returncode != 0:
        last = proc.stderr.strip().splitlines()[-1:] or ["(no stderr)"]
        out["error"] = f"exit {proc.returncode}: {last[0]}"
        return out
    try:
        out["data"] = extract_json(proc.stdout)
    except ValueError as exc:
        out["error"] = str(exc)
    return out


def table(results: list[dict[str, Any]]) -> str:
    header = ("benchmark", "case", "hookwire", "baseline", "ratio", "target", "")
    lines: list[tuple[str, ...]] = [header]
    for res in results:
        bench = res["script"].removeprefix("bench_").removesuffix(".py")
        if "error" in res:
            lines.append((bench, "CRASHED", "", "", "", "", res["error"]))
            continue
        for row in rows(res["data"]):
            target, status = judge(row)
            lines.append((bench, row["case"], _fmt_time(row, "value") if "value_ns" in row
                          else _fmt_time(row, "hookwire"), _fmt_time(row, "baseline"),
                          f"{float(row['ratio']):.2f}x", target, status))
    widths = [max(len(line[i]) for line in lines) for i in range(len(header))]
    widths[1] = min(widths[1], 64)
    return "\n".join(
        "  ".join(cell[:widths[i]].ljust(widths[i]) for i, cell in enumerate(line)).rstrip()
        for line in lines
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="pass --quick to every benchmark")
    parser.add_argument("--json", action="store_true", help="print every result as one JSON")
    parser.add_argument("names", nargs="*", help="only these benchmarks (e.g. dispatch import)")
    args = parser.parse_args(argv)
    scripts = sorted(HERE.glob("bench_*.py"))
    if args.names:
        scripts = [s for s in scripts if s.stem.removeprefix("bench_") in args.names]
    results = []
    for script in scripts:
        print(f"running {script.name} ...", file=sys.stderr, flush=True)
        results.append(run_one(script, args.quick))
    if args.json:
        print(json.dumps({"python": sys.version.split()[0], "quick": args.quick,
                          "benchmarks": results}, indent=2))
    else:
        print(table(results))
    return 1 if any("error" in r for r in results) else 0


if __name__ == "__main__":
    sys.exit(main())
