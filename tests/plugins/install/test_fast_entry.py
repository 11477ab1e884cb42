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
           "prompt_response": "bye", "reason": "exit", "workspace_roots": ["/tmp"],
           "project_dir": "/tmp/project", "tool_output": "out"}
#: Cline 3.0.65's payloads: the hook's own nested object beside the raw tool call or result
CLINE = {"clineVersion": "3.0.65", "taskId": "task-1", "workspaceRoots": ["/tmp"],
         "userId": "u", "agent_id": "a"}
CALL = {"id": "call_1", "name": "run_commands", "input": {"commands": ["ls"], "timeout": 5}}
WINDSURF = {"trajectory_id": "traj-1", "execution_id": "e1", "timestamp": "2026-01-01"}
MCP = {"mcp_server_name": "s", "mcp_tool_name": "search", "mcp_tool_arguments": {"q": "x"},
       "mcp_result": "found"}
GROK = {"sessionId": "g1", "cwd": "/tmp", "workspaceRoot": "/tmp/ws", "toolName": "bash",
        "toolInput": {"command": "ls"}, "toolUseId": "c1", "toolResult": {"stdout": "a"}}
#: client → [(native event, payload, the portable events it fires)], run in order (markers of
#: synthesised session starts carry over from one case to the next, as in a real session)
CASES: dict[str, list[tuple[str, dict[str, Any], list[str]]]] = {
    "cline": [
        ("TaskStart", {**CLINE, "taskStart": {"taskMetadata": {}, "task": "list"}},
         ["session-start"]),
        ("TaskStart", {**CLINE, "taskStart": {}}, []),  # a later run of the same task
        ("TaskResume", {**CLINE, "taskId": "task-2", "taskResume": {}}, ["session-start"]),
        ("UserPromptSubmit", {**CLINE, "userPromptSubmit": {"prompt": "list",
                                                            "attachments": []}},
         ["turn-start"]),
        ("PreToolUse", {**CLINE, "tool_call": CALL, "preToolUse": {
            "toolName": "run_commands", "parameters": {"commands": '["ls"]', "timeout": "5",
                                                       "flag": "true", "bad": "{no"}}},
         ["pre-tool-use"]),
        ("PreToolUse", {**CLINE, "workspaceRoots": [], "preToolUse": {
            "tool": "read_file", "parameters": {"path": "a", "opts": '{"x": [1]}'}}},
         ["pre-tool-use"]),
        ("PostToolUse", {**CLINE, "tool_result": {**CALL, "toolCallId": "call_2"},
                         "postToolUse": {"toolName": "run_commands", "parameters": {},
                                         "result": "a\nb", "success": True}},
         ["post-tool-use"]),
        ("PostToolUse", {**CLINE, "postToolUse": {"tool": "run_commands", "parameters": {},
                                                  "result": {"code": 1}, "success": False}},
         ["post-tool-use"]),
        ("TaskComplete", {**CLINE, "turn": {"outputText": "done", "status": "completed"}},
         ["turn-end"]),
        ("TaskError", {**CLINE, "turn": {"outputText": 3}}, ["turn-end"]),
        ("TaskCancel", CLINE, ["turn-end"]),
        ("SessionShutdown", {**CLINE, "reason": "exit"}, ["session-end"]),
        ("SessionShutdown", {**CLINE, "reason": ""}, ["session-end"]),
    ],
    "windsurf": [
        ("pre_user_prompt", {**WINDSURF, "tool_info": {"user_prompt": "hi"}},
         ["session-start", "turn-start"]),
        ("pre_user_prompt", {**WINDSURF, "tool_info": {"user_prompt": "again"}},
         ["turn-start"]),
        ("pre_run_command", {**WINDSURF, "tool_info": {"command_line": "ls", "cwd": "/tmp"}},
         ["pre-tool-use"]),
        ("post_run_command", {**WINDSURF, "tool_info": {"command_line": "ls", "cwd": "/tmp"}},
         ["post-tool-use"]),
        ("pre_write_code", {**WINDSURF, "tool_info": {"file_path": "/tmp/a", "edits": [
            {"old_string": "a", "new_string": "b"}]}}, ["pre-tool-use"]),
        ("post_write_code", {**WINDSURF, "tool_info": {"file_path": "/tmp/a"}},
         ["post-tool-use"]),
        ("pre_read_code", {**WINDSURF, "tool_info": {"file_path": "/tmp/a"}}, ["pre-tool-use"]),
        ("post_read_code", {**WINDSURF, "tool_info": {"file_path": "/tmp/a"}},
         ["post-tool-use"]),
        ("pre_mcp_tool_use", {**WINDSURF, "tool_info": MCP}, ["pre-tool-use"]),
        ("post_mcp_tool_use", {**WINDSURF, "tool_info": MCP}, ["post-tool-use"]),
        ("post_cascade_response", {**WINDSURF, "tool_info": {"response": "done"}},
         ["turn-end"]),
        ("pre_user_prompt", {**WINDSURF, "trajectory_id": "traj-2", "tool_info": "odd"},
         ["session-start", "turn-start"]),
    ],
    "grok": [
        ("SessionStart", {**GROK, "hookEventName": "SessionStart", "source": "startup"},
         ["session-start"]),
        ("UserPromptSubmit", {**GROK, "prompt": "  <user_query>\n list </user_query>\n"},
         ["turn-start"]),
        ("UserPromptSubmit", {**GROK, "prompt": "<user_query>a</user_query> b"},
         ["turn-start"]),
        ("PreToolUse", GROK, ["pre-tool-use"]),
        ("PostToolUse", GROK, ["post-tool-use"]),
        ("PostToolUseFailure", {**GROK, "error": "boom"}, ["post-tool-use"]),
        ("Stop", {**GROK, "reason": "end_turn", "lastAssistantMessage": "bye"}, ["turn-end"]),
        ("Stop", {**GROK, "reason": "shutdown"}, []),  # the session closing: not a turn end
        ("SessionEnd", {**GROK, "reason": "channel_closed"}, ["session-end"]),
    ],
    "gemini-cli": [
        ("AfterTool", {**PAYLOAD, "tool_response": {"error": "exit 1", "llmContent": ""}},
         ["post-tool-use"]),
    ],
    "kiro": [
        ("UserPromptSubmit", {"hook_event_name": "userPromptSubmit", "cwd": "/tmp",
                              "prompt": "hi"}, ["turn-start"]),
    ],
}


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


def _plan_of(home: Path, client: str, plugin: str = "acme-recorder") -> Path:
    return entry.plan_path(receipt.location(home, client, "user", None, plugin))


def _markers(home: Path) -> set[Path]:
    """The session markers of synthesised session starts (Cline, Windsurf)."""
    state = home / ".local/share/hookwire/plugin-data"
    return {p for p in state.rglob("*") if p.is_file()} if state.exists() else set()


def _cases(name: str, natives: dict[str, str]) -> list[tuple[str, dict[str, Any], list[str]]]:
    """Every native event with the generic payload, then the client's own cases."""
    cases = CASES.get(name, [])
    generic = [(n, PAYLOAD, [e]) for n, e in natives.items()
               if name not in ("cline", "windsurf", "grok")]
    return generic + cases


@pytest.mark.parametrize("name", FAST)
def test_fast_entry_matches_the_shim(name: str, plugin: Path, home: Path, log: Path) -> None:
    """The same envelopes (timestamps aside), handler runs, answer, exit status and session
    markers as the full shim, for every native event of every client."""
    install(name, plugin, home=home)
    plan = _plan_of(home, name)
    natives = json.loads(plan.read_text())["client"]["natives"]
    shim = shlex.join([sys.executable, "-m", "hookwire.plugins.install.shim", "--client", name,
                       "--plugin", str(plugin), "--event"])
    covered = set()
    for native, payload, fires in _cases(name, natives):
        before = _markers(home)
        fast = _run(entry.command(plan, name, native, str(plugin)), payload)
        got, made = _records(log), _markers(home)
        for marker in made - before:
            marker.unlink()  # the shim runs from the same state
        slow = _run(f"{shim} {shlex.quote(native)}", payload)
        want = _records(log)
        assert (fast.returncode, fast.stdout, got) == (slow.returncode, slow.stdout, want), native
        assert made == _markers(home), native
        assert [r["payload"]["event"] for r in want] == fires, native
        covered.add(native)
    assert covered == set(natives)


def test_a_payload_that_is_not_json_is_read_as_empty(plugin: Path, home: Path,
                                                      log: Path) -> None:
    """As the shim: the handlers still run, with an envelope built from nothing."""
    install("claude-code", plugin, home=home)
    plan = _plan_of(home, "claude-code")
    shim = [sys.executable, "-m", "hookwire.plugins.install.shim", "--client", "claude-code",
            "--event", "Stop", "--plugin", str(plugin)]
    for raw in ('{"session_id": "s", "cwd": ', "[1, {", "not json", ""):
        fast = subprocess.run(["/bin/sh", "-c", entry.command(plan, "claude-code", "Stop",
                                                              str(plugin))],
                              input=raw, capture_output=True, text=True, timeout=60)
        got = _records(log)
        slow = subprocess.run(shim, input=raw, capture_output=True, text=True, timeout=60)
        want = _records(log)
        assert (fast.returncode, fast.stdout, got) == (slow.returncode, slow.stdout, want), raw
        assert [r["payload"]["session_id"] for r in want] == ["unknown"], raw


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
