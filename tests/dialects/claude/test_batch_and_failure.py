"""PostToolBatch (tool_batch seam) and StopFailure (stop_failure seam), through `hookwire fire`
with real hook processes: payload bytes and the outcome rules of the contract."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from hookwire.dialects.claude.testing import group, write_settings

CALLS = [{"tool_name": "Bash", "tool_input": {"command": "ls"}, "tool_use_id": "t1",
          "tool_response": "a.txt"}]


def fire(tmp_path: Path, event: str, hooks: dict[str, Any], data: dict[str, Any]) -> Any:
    settings = write_settings(tmp_path / "settings.json", hooks)
    base = {"session_id": "s1", "cwd": str(tmp_path), "transcript_path": "/t.jsonl",
            "prompt_id": "p1"}
    proc = subprocess.run(
        [sys.executable, "-m", "hookwire.cli", "fire", event, "--dialect", "claude",
         "--config", str(settings), "--data", json.dumps({**base, **data})],
        capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def test_post_tool_batch_payload_bytes(tmp_path: Path) -> None:
    rec = tmp_path / "stdin"
    out = fire(tmp_path, "PostToolBatch", {"PostToolBatch": [group(f"cat > {rec}")]},
               {"permission_mode": "default", "tool_calls": CALLS})
    assert out["seam"] == "tool_batch" and out["decision"] == "none"
    assert rec.read_bytes() == (
        '{"session_id":"s1","transcript_path":"/t.jsonl","cwd":"' + str(tmp_path) + '",'
        '"prompt_id":"p1","permission_mode":"default","hook_event_name":"PostToolBatch",'
        '"tool_calls":[{"tool_name":"Bash","tool_input":{"command":"ls"},"tool_use_id":"t1",'
        '"tool_response":"a.txt"}]}\n').encode()


def test_post_tool_batch_block_and_exit_2_stop_the_loop(tmp_path: Path) -> None:
    block = """echo '{"decision": "block", "reason": "stop after this batch"}'"""
    out = fire(tmp_path, "PostToolBatch", {"PostToolBatch": [group(block)]},
               {"tool_calls": CALLS})
    assert out["decision"] == "block" and out["reason"] == "stop after this batch"
    exit2 = "echo 'enough tools' >&2; exit 2"
    out = fire(tmp_path, "PostToolBatch", {"PostToolBatch": [group(exit2)]},
               {"tool_calls": CALLS})
    assert out["decision"] == "block" and out["reason"].endswith("]: enough tools\n")


def test_post_tool_batch_additional_context(tmp_path: Path) -> None:
    ctx = ('echo \'{"hookSpecificOutput": {"hookEventName": "PostToolBatch", '
           '"additionalContext": "3 files listed"}}\'')
    out = fire(tmp_path, "PostToolBatch", {"PostToolBatch": [group(ctx)]},
               {"tool_calls": CALLS})
    assert out["decision"] == "none"
    assert [c["text"] for c in out["contexts"]] == [
        "PostToolBatch hook additional context: 3 files listed"]


def test_stop_failure_payload_and_ignored_output(tmp_path: Path) -> None:
    rec = tmp_path / "stdin"
    hook = f"""cat > {rec}; echo '{{"decision": "block", "continue": false}}'; exit 2"""
    out = fire(tmp_path, "StopFailure", {"StopFailure": [group(hook, matcher="rate_limit")]},
               {"error": "rate_limit", "error_details": "429 Too Many Requests"})
    assert out["seam"] == "stop_failure"
    assert out["decision"] == "none" and out["halt"] is None  # output and exit code ignored
    assert rec.read_bytes() == (
        '{"session_id":"s1","transcript_path":"/t.jsonl","cwd":"' + str(tmp_path) + '",'
        '"prompt_id":"p1","hook_event_name":"StopFailure","error":"rate_limit",'
        '"error_details":"429 Too Many Requests"}\n').encode()
    # the matcher is tested against `error`
    rec.unlink()
    fire(tmp_path, "StopFailure", {"StopFailure": [group(f"cat > {rec}", matcher="overloaded")]},
         {"error": "rate_limit"})
    assert not rec.exists()
