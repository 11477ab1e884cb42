"""The run log: off by default and free; on, it records every seam, hook invocation (command,
stdin digest, env keys), outcome, decision, inputs and durations; ``hookwire log`` renders the
last session of ``hookwire demo``; DEBUG logging on the ``hookwire`` logger."""

from __future__ import annotations

import hashlib
import json
import logging
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest

from hookwire import Kernel
from hookwire.plugins.runlog import ENV, RunLog

GUARD = r'''
import json, os, sys
raw = sys.stdin.buffer.read()
open(os.environ["SEEN"], "wb").write(raw)
event = json.loads(raw)
if "rm -rf" in event["tool_input"]["command"]:
    print("no forced deletes", file=sys.stderr); sys.exit(2)
print(json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse",
      "permissionDecision": "allow", "updatedInput": {"command": "ls -1"}}}))
'''


@pytest.fixture
def settings(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "guard.py").write_text(GUARD)
    monkeypatch.setenv("SEEN", str(tmp_path / "seen.bin"))
    path = tmp_path / "settings.json"
    path.write_text(json.dumps({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
        {"type": "command", "command": f"{sys.executable} {tmp_path / 'guard.py'}",
         "statusMessage": "Guarding…"}]}]}}))
    return path


def run_session(kernel: Kernel, settings: Path, *commands: str) -> str:
    kernel.add_config("claude", settings)

    async def main() -> str:
        async with kernel.session(cwd=str(settings.parent)) as session:
            for command in commands:
                await session.tool_pre("Bash", {"command": command})
            return session.info.session_id

    return anyio.run(main)


def records(directory: Path, session_id: str) -> list[dict[str, Any]]:
    path = directory / f"{session_id}.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_off_by_default_it_adds_no_audit_observer(monkeypatch: pytest.MonkeyPatch,
                                                  tmp_path: Path, settings: Path) -> None:
    monkeypatch.delenv(ENV, raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))
    # tracing (another audit observer) may be on for the process: this test is about the log
    monkeypatch.setenv("HOOKWIRE_OTEL", "0")
    kernel = Kernel()
    assert not kernel.registry.audit  # the dispatch loop never builds an audit record
    run_session(kernel, settings, "ls")
    assert not (tmp_path / ".local").exists()


def test_the_environment_variable_records_every_seam_and_hook(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path, settings: Path) -> None:
    logs = tmp_path / "runs"
    monkeypatch.setenv(ENV, str(logs))
    sid = run_session(Kernel(), settings, "ls", "rm -rf /")
    rows = records(logs, sid)
    assert [r["type"] for r in rows] == ["session", "seam_started", "invoked", "result", "seam",
                                         "seam_started", "invoked", "result", "seam"]
    invoked, result, seam = rows[2:5]
    seen = (tmp_path / "seen.bin").read_bytes()  # the second run's stdin: compare the first's
    assert invoked["dialect"] == "claude" and invoked["matcher"] == "Bash"
    assert invoked["native_event"] == "PreToolUse" and invoked["shell"] is True
    assert invoked["command"].endswith("guard.py") and invoked["status_message"] == "Guarding…"
    assert "CLAUDE_PROJECT_DIR" in invoked["env_keys"] and "SEEN" in invoked["env_keys"]
    assert str(tmp_path / "seen.bin") not in json.dumps(invoked)  # keys, never values
    assert result["outcome"] == "exited" and result["exit_code"] == 0
    assert result["decision"] == "allow" and result["updated_input"] == {"command": "ls -1"}
    assert result["duration_ms"] > 0
    assert seam["verdict"]["original_input"] == {"command": "ls"}
    assert seam["verdict"]["effective_input"] == {"command": "ls -1"}
    assert seam["duration_ms"] >= result["duration_ms"]
    denied_invoked, denied = rows[6], rows[7]
    assert denied_invoked["stdin_sha256"] == hashlib.sha256(seen).hexdigest()
    assert denied_invoked["stdin_bytes"] == len(seen)
    assert invoked["stdin_sha256"] != denied_invoked["stdin_sha256"]
    assert denied["exit_code"] == 2 and denied["decision"] == "deny"
    assert rows[8]["verdict"]["decision"] == "deny"
    assert rows[8]["verdict"]["effective_input"] == {"command": "rm -rf /"}


def test_a_kernel_argument_records_without_the_variable(monkeypatch: pytest.MonkeyPatch,
                                                        tmp_path: Path, settings: Path) -> None:
    monkeypatch.delenv(ENV, raising=False)
    sid = run_session(Kernel(plugins=[RunLog(tmp_path / "mine")]), settings, "ls")
    assert [r["type"] for r in records(tmp_path / "mine", sid)][-1] == "seam"


def test_debug_logging_names_seam_hooks_outcomes_and_verdict(
        caplog: pytest.LogCaptureFixture, settings: Path) -> None:
    with caplog.at_level(logging.DEBUG, logger="hookwire"):
        run_session(Kernel(), settings, "rm -rf x")
    text = "\n".join(r.getMessage() for r in caplog.records if r.levelno == logging.DEBUG)
    assert "seam tool_pre fired: hooks selected ['claude:PreToolUse " in text
    assert "hook claude:PreToolUse " in text and ": exited (exit 2) in " in text
    assert "decision deny" in text
    assert "seam tool_pre verdict: deny (" in text and "no forced deletes" in text


def hookwire(*args: str, home: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in (ENV, "XDG_STATE_HOME")}
    return subprocess.run([sys.executable, "-m", "hookwire", *args], capture_output=True,
                          text=True, timeout=120, env={**env, "HOME": str(home)}, cwd=home)


def test_hookwire_log_renders_the_last_session_of_the_demo(tmp_path: Path) -> None:
    demo = hookwire("demo", home=tmp_path)
    assert demo.returncode == 0, demo.stderr
    assert "… Checking the command for forced deletes…" in demo.stdout  # statusMessage
    shown = hookwire("log", home=tmp_path)
    assert shown.returncode == 0, shown.stderr
    out = shown.stdout
    # the same timeline the demo printed, seam for seam
    live = [line for line in demo.stdout.splitlines() if line.startswith(("●", "    "))]
    again = [line for line in out.splitlines() if line.startswith(("●", "    "))]
    assert live and again == live
    assert out.startswith("session ") and "16 seams recorded in " in out
    assert "exit 2" in out and 'effective input: {"command": "ls -1"}' in out
    as_json = [json.loads(line) for line in hookwire("log", "--json", home=tmp_path)
               .stdout.splitlines()]
    sid = as_json[0]["session_id"]
    assert sum(r["type"] == "seam" for r in as_json) == 16
    assert hookwire("log", sid[:6], home=tmp_path).stdout == out
    missing = hookwire("log", "nope", home=tmp_path)
    assert missing.returncode == 2 and "matches no recorded session" in missing.stderr
