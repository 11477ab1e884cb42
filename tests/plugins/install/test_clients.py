"""Each client's output: golden files for a sample plugin, the client's documented shape
(what its own loader accepts), the capability report, and the installed commands run for real
with the client's native payloads (the shim)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from hookwire.plugins.install import clients, install
from hookwire.plugins.install.capability import LEVELS

GOLDEN = Path(__file__).parent / "golden"
PREFIX = ("hookwire", "portable-hook")
UPDATE = os.environ.get("HOOKWIRE_UPDATE_GOLDEN") == "1"


def snapshot(base: Path, plugin: Path) -> str:
    out = []
    for path in sorted(base.rglob("*")):
        if path.is_file() and ".config/hookwire" not in str(path):
            text = path.read_text().replace(str(plugin), "<PLUGIN_ROOT>").replace(
                str(base), "<HOME>")
            text = re.sub(r"sha256:[0-9a-f]{64}", "sha256:<HASH>", text)  # of a temp path
            mode = " (executable)" if os.access(path, os.X_OK) else ""
            out.append(f"=== {path.relative_to(base)}{mode}\n{text}")
    return "".join(out)


@pytest.mark.parametrize("name", sorted(clients()))
def test_golden_output(name: str, plugin: Path, home: Path) -> None:
    install(name, plugin, home=home, prefix=PREFIX)
    got = snapshot(home, plugin)
    golden = GOLDEN / f"{name}.txt"
    if UPDATE:
        golden.parent.mkdir(exist_ok=True)
        golden.write_text(got)
    assert got == golden.read_text()


# -- the clients' documented shapes ------------------------------------------------------------

CLAUDE_EVENTS = {"SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse",
                 "PostToolUseFailure", "Stop", "SessionEnd"}
CODEX_EVENTS = {"SessionStart", "UserPromptSubmit", "PreToolUse", "PermissionRequest",
                "PostToolUse", "Stop", "PreCompact", "PostCompact", "SessionEnd",
                "SubagentStart", "SubagentStop"}
CURSOR_EVENTS = {"sessionStart", "sessionEnd", "beforeSubmitPrompt", "afterAgentResponse",
                 "afterAgentThought", "stop", "preToolUse", "postToolUse", "postToolUseFailure",
                 "beforeShellExecution", "afterShellExecution", "beforeMCPExecution",
                 "afterMCPExecution", "beforeReadFile", "afterFileEdit", "beforeTabFileRead",
                 "afterTabFileEdit", "preCompact", "subagentStart", "subagentStop",
                 "workspaceOpen"}
COPILOT_EVENTS = {"sessionStart", "sessionEnd", "userPromptSubmitted", "agentStop",
                  "preToolUse", "postToolUse", "postToolUseFailure", "subagentStart",
                  "subagentStop", "preCompact", "errorOccurred", "permissionRequest",
                  "notification"}
GEMINI_EVENTS = {"SessionStart", "SessionEnd", "BeforeAgent", "AfterAgent", "BeforeModel",
                 "AfterModel", "BeforeToolSelection", "BeforeTool", "AfterTool", "PreCompress",
                 "Notification"}
WINDSURF_EVENTS = {"pre_read_code", "post_read_code", "pre_write_code", "post_write_code",
                   "pre_run_command", "post_run_command", "pre_mcp_tool_use",
                   "post_mcp_tool_use", "pre_user_prompt", "post_cascade_response",
                   "post_cascade_response_with_transcript", "post_setup_worktree"}
#: Cline CLI 3.0.65's hook names (its hook-name → runtime event table)
CLINE_HOOKS = {"TaskStart", "TaskResume", "TaskCancel", "TaskComplete", "TaskError",
               "PreToolUse", "PostToolUse", "UserPromptSubmit", "PreCompact", "SessionShutdown"}


def groups(doc: dict[str, Any], events: set[str], handler_keys: set[str],
           timeout_ms: bool = False) -> None:
    assert set(doc["hooks"]) <= events
    for items in doc["hooks"].values():
        for group in items:
            assert set(group) <= {"matcher", "hooks"}
            assert isinstance(group.get("matcher", ""), str)
            for h in group["hooks"]:
                assert set(h) <= handler_keys and h["type"] == "command"
                assert isinstance(h["command"], str)
                assert isinstance(h["timeout"], int) and h["timeout"] > 0
                if timeout_ms:
                    assert h["timeout"] >= 1000


def flat(doc: dict[str, Any], events: set[str], keys: set[str], command: str) -> None:
    assert set(doc["hooks"]) <= events
    for items in doc["hooks"].values():
        for h in items:
            assert set(h) <= keys and isinstance(h[command], str)


def check_shape(name: str, home: Path) -> None:
    if name == "claude-code":
        groups(json.loads((home / ".claude/settings.json").read_text()), CLAUDE_EVENTS,
               {"type", "command", "timeout"})
    elif name == "codex":
        doc = json.loads((home / ".codex/hooks.json").read_text())
        groups(doc, CODEX_EVENTS, {"type", "command", "timeout", "statusMessage"})
        assert doc["hooks"]["SessionEnd"][0]["hooks"][0]["timeout"] <= 3
        assert re.search(r"(?m)^\[features\][^\n]*\nhooks = true",
                         (home / ".codex/config.toml").read_text())
    elif name == "cursor":
        doc = json.loads((home / ".cursor/hooks.json").read_text())
        assert doc["version"] == 1 and set(doc) == {"version", "hooks"}
        flat(doc, CURSOR_EVENTS, {"command", "type", "timeout", "matcher", "loop_limit",
                                  "failClosed"}, "command")
    elif name == "copilot-cli":
        doc = json.loads((home / ".copilot/hooks/hookwire-acme-recorder.json").read_text())
        assert doc["version"] == 1
        flat(doc, COPILOT_EVENTS, {"type", "bash", "powershell", "cwd", "env", "timeoutSec"},
             "bash")
    elif name == "gemini-cli":
        groups(json.loads((home / ".gemini/settings.json").read_text()), GEMINI_EVENTS,
               {"name", "type", "command", "timeout", "sequential"}, timeout_ms=True)
    elif name == "windsurf":
        doc = json.loads((home / ".codeium/windsurf/hooks.json").read_text())
        assert set(doc) == {"hooks"}
        flat(doc, WINDSURF_EVENTS, {"command", "powershell", "show_output",
                                    "working_directory"}, "command")
    elif name == "cline":
        folder = home / "Documents/Cline/Hooks"
        for path in folder.iterdir():
            assert path.name in CLINE_HOOKS  # exact hook names: Cline finds nothing else
            assert os.access(path, os.X_OK) and path.read_text().startswith("#!/bin/sh\n")
    elif name == "opencode":
        (ts,) = (home / ".config/opencode/plugins").iterdir()
        text = ts.read_text()
        assert re.search(r"export const \w+ = async \(\{ directory \}", text)
        assert not (home / ".config/opencode/opencode.json").exists()


@pytest.mark.parametrize("name", sorted(clients()))
def test_documented_shape(name: str, plugin: Path, home: Path) -> None:
    install(name, plugin, home=home)
    check_shape(name, home)


def test_opencode_plugin_is_valid_javascript_once_types_are_stripped(plugin: Path,
                                                                     home: Path) -> None:
    node = subprocess.run(["which", "node"], capture_output=True, text=True).stdout.strip()
    if not node:
        pytest.skip("node is not installed")
    install("opencode", plugin, home=home)
    (ts,) = (home / ".config/opencode/plugins").iterdir()
    js = re.sub(r": (string\[\]|string|Promise<void>|Record<string, unknown>|any|"
                r"\{ directory: string \}|\{ event: \{ type: string; properties\?: any \} \})",
                "", ts.read_text())
    check = subprocess.run([node, "--input-type=module", "--check"], input=js, text=True,
                           capture_output=True)
    assert check.returncode == 0, check.stderr


@pytest.mark.parametrize("name", sorted(clients()))
def test_capability_report(name: str, plugin: Path, home: Path) -> None:
    result = install(name, plugin, home=home)
    report = result.report
    caps = clients()[name].capabilities
    for event, support in caps.events.items():
        assert support.level in LEVELS
        line = next(ln for ln in report.splitlines() if ln.strip().startswith(event + " "))
        assert support.level in line
        for native in support.natives:
            assert native in line
    assert "context results reach the agent on:" in report


def test_capability_levels_per_client() -> None:
    levels = {n: {e: s.level for e, s in c.capabilities.events.items()}
              for n, c in clients().items()}
    assert levels["windsurf"]["session-start"] == "synthesised"
    assert levels["windsurf"]["session-end"] == "unsupported"
    assert levels["cursor"]["session-start"] == "partial"
    assert levels["claude-code"]["turn-start"] == "native"
    assert not clients()["copilot-cli"].capabilities.context
    assert "PreToolUse" not in clients()["codex"].capabilities.context


# -- the shim, run as the client runs it -------------------------------------------------------

def run_installed(command: str, payload: dict[str, Any],
                  **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["/bin/sh", "-c", command], input=json.dumps(payload), text=True,
                          capture_output=True, env={**os.environ, **env}, timeout=60)


def read(log: Path) -> list[dict[str, Any]]:
    return [json.loads(x) for x in log.read_text().splitlines()] if log.exists() else []


def claude_command(home: Path, event: str) -> str:
    doc = json.loads((home / ".claude/settings.json").read_text())
    return str(doc["hooks"][event][0]["hooks"][0]["command"])


def test_claude_code_entries_run_the_portable_handlers(plugin: Path, home: Path,
                                                       log: Path, schema_payload) -> None:
    install("claude-code", plugin, home=home)
    done = run_installed(claude_command(home, "UserPromptSubmit"), {
        "session_id": "s1", "cwd": str(home), "hook_event_name": "UserPromptSubmit",
        "prompt": "hello"})
    assert done.returncode == 0  # the handler exited 2: observe-only, never a block
    assert json.loads(done.stdout) == {"hookSpecificOutput": {
        "hookEventName": "UserPromptSubmit", "additionalContext": "remember the plugin"}}
    done = run_installed(claude_command(home, "PostToolUseFailure"), {
        "session_id": "s1", "cwd": str(home), "hook_event_name": "PostToolUseFailure",
        "tool_name": "Bash", "tool_input": {"command": "false"}, "tool_use_id": "t1",
        "error": "Exit code 1"})
    assert done.returncode == 0 and done.stdout == ""
    (prompt, post) = read(log)
    assert prompt["payload"]["prompt"] == "hello" and prompt["argv"][1] == "turn-start"
    assert prompt["payload"]["client"] == {"name": "claude-code", "version": None,
                                           "event": "UserPromptSubmit"}
    assert post["payload"]["tool"] == {"name": "Bash", "use_id": "t1",
                                       "input": {"command": "false"}}
    assert post["payload"]["result"]["status"] == "failed"
    for record in (prompt, post):
        assert not schema_payload(record["payload"])


def test_claude_copy_is_skipped_under_cursor_when_installed_for_cursor(plugin: Path,
                                                                       home: Path,
                                                                       log: Path) -> None:
    install("claude-code", plugin, home=home)
    command = claude_command(home, "Stop")
    payload = {"session_id": "s", "cwd": str(home)}
    run_installed(command, payload, CURSOR_VERSION="2.0")
    assert len(read(log)) == 1  # not installed for Cursor: the Claude copy is the only one
    install("cursor", plugin, home=home)
    run_installed(command, payload, CURSOR_VERSION="2.0")
    assert len(read(log)) == 1  # Cursor fires its own entry; the Claude copy stays quiet
    run_installed(command, payload)
    assert len(read(log)) == 2


def test_cursor_prints_json_for_permission_hooks(plugin: Path, home: Path, log: Path) -> None:
    install("cursor", plugin, home=home)
    doc = json.loads((home / ".cursor/hooks.json").read_text())
    done = run_installed(doc["hooks"]["preToolUse"][0]["command"], {
        "conversation_id": "c1", "hook_event_name": "preToolUse", "tool_name": "Shell",
        "tool_input": {"command": "ls"}, "workspace_roots": [str(home)]})
    assert done.returncode == 0 and json.loads(done.stdout) == {}  # no "permission": allow
    (rec,) = read(log)
    assert rec["payload"]["tool"]["name"] == "Shell"  # never normalised to Bash
    assert rec["payload"]["cwd"] == str(home)


def test_copilot_tool_args_string_is_decoded(plugin: Path, home: Path, log: Path) -> None:
    install("copilot-cli", plugin, home=home)
    doc = json.loads((home / ".copilot/hooks/hookwire-acme-recorder.json").read_text())
    run_installed(doc["hooks"]["postToolUse"][0]["bash"], {
        "sessionId": "s", "timestamp": 1, "cwd": str(home), "toolName": "bash",
        "toolArgs": "{\"command\": \"ls\"}",
        "toolResult": {"resultType": "success", "textResultForLlm": "a"}})
    (rec,) = read(log)
    assert rec["payload"]["tool"]["input"] == {"command": "ls"}
    assert rec["payload"]["result"]["status"] == "succeeded"


def test_windsurf_synthesises_session_start_once_per_trajectory(plugin: Path, home: Path,
                                                                log: Path) -> None:
    install("windsurf", plugin, home=home)
    doc = json.loads((home / ".codeium/windsurf/hooks.json").read_text())
    command = doc["hooks"]["pre_user_prompt"][0]["command"]
    for prompt in ("one", "two"):
        done = run_installed(command, {"agent_action_name": "pre_user_prompt",
                                       "trajectory_id": "traj-1", "execution_id": "e",
                                       "tool_info": {"user_prompt": prompt}})
        assert done.returncode == 0
    run_installed(command, {"trajectory_id": "traj-2", "tool_info": {"user_prompt": "x"}})
    events = [(r["payload"]["event"], r["payload"]["session_id"]) for r in read(log)]
    assert events == [("session-start", "traj-1"), ("turn-start", "traj-1"),
                      ("turn-start", "traj-1"), ("session-start", "traj-2"),
                      ("turn-start", "traj-2")]


def test_cline_hook_answers_json_with_context(plugin: Path, home: Path, log: Path) -> None:
    install("cline", plugin, home=home)
    hook = home / "Documents/Cline/Hooks/UserPromptSubmit"
    done = subprocess.run([str(hook)], input=json.dumps({
        "taskId": "task-1", "hookName": "UserPromptSubmit", "workspaceRoots": [str(home)],
        "userPromptSubmit": {"prompt": "hi"}}), text=True, capture_output=True, timeout=60)
    assert done.returncode == 0
    assert json.loads(done.stdout) == {"cancel": False,
                                       "contextModification": "remember the plugin"}
    (rec,) = read(log)
    assert rec["payload"]["session_id"] == "task-1" and rec["payload"]["prompt"] == "hi"


def test_shim_never_fails_the_client(home: Path, tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "hookwire.plugins.install.shim", "--client",
                           "claude-code", "--event", "Stop", "--plugin", str(tmp_path / "gone")],
                          input="not json", text=True, capture_output=True, timeout=60)
    assert done.returncode == 0 and "not run" in done.stderr
