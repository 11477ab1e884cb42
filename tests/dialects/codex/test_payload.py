"""stdin bytes per event (compact, no trailing newline, exact key sets and order, schema-valid),
the user-shell command form, the environment and the cwd."""

from __future__ import annotations

import json
import os
import pwd
from pathlib import Path
from typing import Any

import pytest

from hookwire.dialects.codex import _schema
from hookwire.dialects.codex.outcome import _SLUGS
from hookwire.testing import ScriptFactory

Fire = Any

REFERENCE = Path("/work/shared/contracts/codex-schemas")


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


T = {"turn_id": "turn-7"}
CASES: list[tuple[str, dict[str, Any], list[str]]] = [
    ("PreToolUse", {**T, "tool_name": "exec_command", "tool_input": {"command": "ls", "x": 1},
                    "tool_use_id": "call_4"},
     ["session_id", "turn_id", "transcript_path", "cwd", "hook_event_name", "model",
      "permission_mode", "tool_name", "tool_input", "tool_use_id"]),
    ("PermissionRequest", {**T, "tool_name": "Bash", "tool_input": {"command": "touch x"}},
     ["session_id", "turn_id", "transcript_path", "cwd", "hook_event_name", "model",
      "permission_mode", "tool_name", "tool_input"]),
    ("PostToolUse", {**T, "tool_name": "Bash", "tool_input": {"command": "echo hi"},
                     "tool_response": "hi\n", "tool_use_id": "call_4"},
     ["session_id", "turn_id", "transcript_path", "cwd", "hook_event_name", "model",
      "permission_mode", "tool_name", "tool_input", "tool_response", "tool_use_id"]),
    ("PreCompact", {**T, "trigger": "auto"},
     ["session_id", "turn_id", "transcript_path", "cwd", "hook_event_name", "model",
      "trigger"]),
    ("PostCompact", {**T, "trigger": "manual"},
     ["session_id", "turn_id", "transcript_path", "cwd", "hook_event_name", "model",
      "trigger"]),
    ("SessionStart", {"source": "fork"},
     ["session_id", "transcript_path", "cwd", "hook_event_name", "model", "permission_mode",
      "source"]),
    ("SessionEnd", {},
     ["session_id", "transcript_path", "cwd", "hook_event_name", "reason"]),
    ("UserPromptSubmit", {**T, "prompt": "héllo"},
     ["session_id", "turn_id", "transcript_path", "cwd", "hook_event_name", "model",
      "permission_mode", "prompt"]),
    ("SubagentStart", {**T, "agent_id": "child", "agent_type": "explorer"},
     ["session_id", "turn_id", "agent_id", "agent_type", "transcript_path", "cwd",
      "hook_event_name", "model", "permission_mode"]),
    ("SubagentStop", {**T, "agent_id": "child", "agent_type": "default",
                      "agent_transcript_path": "/t/child.jsonl", "stop_hook_active": True,
                      "last_assistant_message": None},
     ["session_id", "turn_id", "agent_id", "agent_type", "transcript_path",
      "agent_transcript_path", "cwd", "hook_event_name", "model", "permission_mode",
      "stop_hook_active", "last_assistant_message"]),
    ("Stop", {**T, "stop_hook_active": False, "last_assistant_message": "done"},
     ["session_id", "turn_id", "transcript_path", "cwd", "hook_event_name", "model",
      "permission_mode", "stop_hook_active", "last_assistant_message"]),
]


@pytest.mark.anyio
@pytest.mark.parametrize(("event", "data", "keys"), CASES, ids=[c[0] for c in CASES])
async def test_stdin_bytes(fire: Fire, hook_script: ScriptFactory, tmp_path: Path,
                           event: str, data: dict[str, Any], keys: list[str]) -> None:
    out = tmp_path / "stdin.bin"
    script = hook_script(f"cat > {out}\n")
    await fire(event, data, str(script), session={"model": "gpt-x",
                                                  "permission_mode": "acceptEdits"})
    raw = out.read_bytes()
    assert raw.endswith(b"}") and not raw.endswith(b"\n")
    payload = json.loads(raw)
    assert list(payload) == keys
    assert raw == json.dumps(payload, separators=(",", ":"), ensure_ascii=False).encode()
    assert payload["hook_event_name"] == event
    assert payload["cwd"] == str(tmp_path)
    if "permission_mode" in payload:
        assert payload["permission_mode"] == "default"  # Codex's two values only
    assert _schema.errors(payload, _schema.load(f"{_SLUGS[event]}.input")) == []
    reference = REFERENCE / f"{_SLUGS[event]}.command.input.schema.json"
    if reference.is_file():  # Codex's published schema, when the contract folder is present
        ref = json.loads(reference.read_text())
        assert _schema.errors(payload, ref) == []


@pytest.mark.anyio
async def test_shell_tool_input_is_reduced_to_command_and_bypass_mode(
        fire: Fire, hook_script: ScriptFactory, tmp_path: Path) -> None:
    out = tmp_path / "stdin.json"
    script = hook_script(f"cat > {out}\n")
    await fire("PreToolUse", {"tool_name": "shell", "tool_input": {"command": ["ls", "-a b"],
                                                                    "timeout": 5}},
               str(script), session={"permission_mode": "bypassPermissions"})
    payload = json.loads(out.read_text())
    assert payload["tool_name"] == "Bash"
    assert payload["tool_input"] == {"command": "ls '-a b'"}
    assert payload["permission_mode"] == "bypassPermissions"


@pytest.mark.anyio
async def test_user_shell_command_form_env_and_cwd(fire: Fire, tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "proc.txt"
    monkeypatch.setenv("OPENAI_IDENTITY_TOKEN_FILE", "/secret")
    monkeypatch.setenv("NODE_REPL_AUTH_TOKEN", "secret")
    monkeypatch.setenv("HOOKWIRE_TEST_KEEP", "kept")
    monkeypatch.setenv("SHELL", "/bin/sh")
    command = (f"tr '\\0' '\\n' < /proc/$$/cmdline > {out}; echo ---- >> {out}; "
               f"pwd >> {out}; env >> {out}")
    await fire("SessionStart", {}, command)
    text = out.read_text()
    argv, rest = text.split("----\n", 1)
    shell = pwd.getpwuid(os.getuid()).pw_shell
    assert argv.splitlines() == [shell, "-c", command]  # the account's shell, not $SHELL
    cwd, env = rest.split("\n", 1)
    assert cwd == str(tmp_path)
    assert "HOOKWIRE_TEST_KEEP=kept" in env
    assert "OPENAI_IDENTITY_TOKEN_FILE" not in env and "NODE_REPL_AUTH_TOKEN" not in env
    assert "CLAUDE_PROJECT_DIR" not in env  # no hook-specific variables


@pytest.mark.anyio
async def test_hook_not_reading_stdin_is_fine(fire: Fire) -> None:
    verdict = await fire("Stop", {"last_assistant_message": "x"}, "exit 0")
    assert verdict.hooks[0].exit_code == 0 and not verdict.diagnostics
