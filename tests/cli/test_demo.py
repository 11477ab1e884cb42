"""`hookwire demo`: the reference host runs the sample Claude Code hooks for real."""

from __future__ import annotations

import json
import subprocess
import sys


def run_demo(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "hookwire.cli", "demo", *args],
                          capture_output=True, text=True, timeout=120)


def test_demo_prints_a_timeline_of_seams_hooks_and_verdicts() -> None:
    proc = run_demo()
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "Traceback" not in proc.stderr
    # the guard blocked rm -rf with exit 2, the rewrite took effect, the Stop hook sent the
    # agent back once, and the turn completed
    assert "guard-rm.sh" in out and "exit 2" in out
    assert "DENY: [" in out and "Refusing recursive forced delete" in out
    assert 'effective input: {"command": "ls -1"}' in out
    assert "CONTINUE the turn: Run the tests before you stop." in out
    assert "turn ended: completed after 6 model requests" in out
    # contexts reached the model labelled with their hook, never as the user's words
    assert any(line.lstrip().startswith("system") and "claude:UserPromptSubmit hook" in line
               for line in out.splitlines())
    assert "project files now: .tests-ran, build, hello.txt" in out


def test_demo_json_timeline() -> None:
    proc = run_demo("--json")
    assert proc.returncode == 0, proc.stderr
    rows = [json.loads(line) for line in proc.stdout.splitlines()]
    seams = [r["seam"] for r in rows]
    assert seams[0] == "session_start" and seams[1] == "prompt_submit"
    assert seams[-1] == "session_end"
    assert seams.count("stop") == 2
    denied = [r for r in rows if r["decision"] == "deny"]
    assert len(denied) == 1 and denied[0]["hooks"][0]["exit_code"] == 2
    stops = [r for r in rows if r["seam"] == "stop"]
    assert [s["continue"] for s in stops] == [True, False]
