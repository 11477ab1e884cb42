"""The fast installed entry (``entry.py`` + ``_entry/hookwire_entry.py``): the same envelope,
handlers and answer as the full shim for every client that has one; fails open by
construction; falls back to the shim when the plan is stale."""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from hookwire.plugins.install import clients, entry, install, receipt

FAST = sorted(name for name, c in clients().items() if c.fast_entry is not None)
PAYLOAD = {"session_id": "s1", "sessionId": "s1", "conversation_id": "s1", "cwd": "/tmp",
           "turn_id": "t1", "prompt_id": "t1", "generation_id": "t1", "version": "9.9",
           "source": "resume", "prompt": "hello", "tool_name": "Bash", "toolName": "Bash",
           "tool_input": {"command": "ls"}, "toolArgs": "{\"command\": \"ls\"}",
           "tool_use_id": "u1", "tool_response": {"ok": True}, "last_assistant_message": "bye",
           "prompt_response": "bye", "reason": "exit", "workspace_roots": ["/tmp"]}


def _run(command: str, payload: Any, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["/bin/sh", "-c", command], input=json.dumps(payload), text=True,
                          capture_output=True, env={**os.environ, **env}, timeout=60)


def _records(log: Path) -> list[dict[str, Any]]:
    out = []
    if log.exists():
        for line in log.read_text().splitlines():
            rec = json.loads(line)
            rec["payload"].pop("timestamp")
            out.append(rec)
        log.unlink()
    return out


def _plan_of(home: Path, client: str) -> Path:
    return entry.plan_path(receipt.location(home, client, "user", None, "acme-recorder"))


@pytest.mark.parametrize("name", FAST)
def test_fast_entry_matches_the_shim(name: str, plugin: Path, home: Path, log: Path) -> None:
    install(name, plugin, home=home)
    plan = _plan_of(home, name)
    natives = json.loads(plan.read_text())["client"]["natives"]
    shim = shlex.join([sys.executable, "-m", "hookwire.plugins.install.shim", "--client", name,
                       "--plugin", str(plugin), "--event"])
    for native in natives:
        fast = _run(entry.command(plan, name, native, str(plugin)), PAYLOAD)
        got = _records(log)
        slow = _run(f"{shim} {shlex.quote(native)}", PAYLOAD)
        want = _records(log)
        assert (fast.returncode, fast.stdout, got) == (slow.returncode, slow.stdout, want), native
        assert want, native  # every wired native event ran the plugin's handler


def test_installed_entry_is_fast_and_runs_no_hookwire(plugin: Path, home: Path) -> None:
    install("claude-code", plugin, home=home)
    command = json.loads((home / ".claude/settings.json").read_text())[
        "hooks"]["Stop"][0]["hooks"][0]["command"]
    assert entry.MARK in shlex.split(command) and command.endswith(" || true")
    # -I -S: no site-packages, so the entry could not import hookwire even if it tried
    assert shlex.split(command)[1:4] == ["-I", "-S", "-c"]


def test_missing_interpreter_or_hookwire_fails_open(plugin: Path, home: Path,
                                                    log: Path) -> None:
    install("claude-code", plugin, home=home)
    command = json.loads((home / ".claude/settings.json").read_text())[
        "hooks"]["UserPromptSubmit"][0]["hooks"][0]["command"]
    gone = command.replace(shlex.quote(sys.executable), "/nonexistent/python3", 1)
    done = _run(gone, {"prompt": "x"})
    assert (done.returncode, done.stdout) == (0, "")
    broken = command.replace(str(entry.ENTRY_DIR), "/nonexistent/entry")
    done = _run(broken, {"prompt": "x"})
    assert (done.returncode, done.stdout) == (0, "")
    assert not log.exists()


def test_stale_plan_falls_back_to_the_shim(plugin: Path, home: Path, log: Path) -> None:
    install("claude-code", plugin, home=home)
    command = json.loads((home / ".claude/settings.json").read_text())[
        "hooks"]["UserPromptSubmit"][0]["hooks"][0]["command"]
    hooks = json.loads((plugin / "hooks.json").read_text())
    hooks["hooks"]["turn-start"][0]["args"] = ["changed-after-install"]
    (plugin / "hooks.json").write_text(json.dumps(hooks))
    done = _run(command, {"session_id": "s", "cwd": str(home), "prompt": "hi"})
    assert done.returncode == 0 and "remember the plugin" in done.stdout
    (rec,) = _records(log)
    assert rec["argv"][1] == "changed-after-install"  # the shim read the new hooks.json


def test_uninstall_removes_the_plan(plugin: Path, home: Path) -> None:
    from hookwire.plugins.install import uninstall

    install("codex", plugin, home=home)
    plan = _plan_of(home, "codex")
    assert plan.is_file()
    uninstall("codex", plugin, home=home)
    assert not plan.exists()


def test_given_command_keeps_the_shim(plugin: Path, home: Path) -> None:
    install("claude-code", plugin, home=home, prefix=("hookwire", "portable-hook"))
    text = (home / ".claude/settings.json").read_text()
    assert entry.MARK not in text and not _plan_of(home, "claude-code").exists()


def test_handler_timeout_ends_its_group(tmp_path: Path, home: Path) -> None:
    root = tmp_path / "slow"
    (root / "bin").mkdir(parents=True)
    marker = tmp_path / "grandchild-alive"
    script = root / "bin" / "slow"
    script.write_text(f"#!/bin/sh\n(sleep 3; touch {marker}) &\nsleep 30\n")
    script.chmod(0o755)
    (root / "hooks.json").write_text(json.dumps({
        "$schema": "https://hookwire.dev/schemas/portable-hooks/0.1.0/hooks.schema.json",
        "hooks": {"turn-end": [{"command": "./bin/slow", "timeout": 1}]}}))
    install("claude-code", root, home=home)
    command = json.loads((home / ".claude/settings.json").read_text())[
        "hooks"]["Stop"][0]["hooks"][0]["command"]
    done = _run(command, {"session_id": "s"})
    assert (done.returncode, done.stdout) == (0, "") and "timed_out" in done.stderr
    import time

    time.sleep(3.5)
    assert not marker.exists()  # the handler's whole group was ended
