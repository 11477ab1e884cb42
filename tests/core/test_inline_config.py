"""Inline settings (issue #14): Claude Code 2.1.332 runs hooks given as ``--settings '<json>'``
like file-based ones; ``Kernel.add_config`` and ``hookwire fire --config`` take the JSON text."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from hookwire import Kernel
from hookwire.dialects.claude import ClaudeDialect


def settings(tmp_path: Path) -> str:
    guard = tmp_path / "guard.sh"
    guard.write_text("#!/bin/sh\necho 'no rm' >&2\nexit 2\n")
    guard.chmod(0o755)
    return json.dumps({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
        {"type": "command", "command": str(guard)}]}]}})


@pytest.mark.anyio
async def test_add_config_takes_a_json_string(tmp_path: Path) -> None:
    kernel = Kernel(load_entry_points=False)
    kernel.add_dialect(ClaudeDialect())
    result = kernel.add_config("claude", settings(tmp_path))
    assert len(result.entries) == 1 and not result.problems
    async with kernel.session(cwd=str(tmp_path)) as s:
        verdict = await s.tool_pre("Bash", {"command": "rm -rf x"})
    assert verdict.denied and verdict.reason.endswith("]: no rm\n")  # type: ignore[union-attr]


def test_fire_config_takes_a_json_string(tmp_path: Path) -> None:
    out = subprocess.run(
        [sys.executable, "-m", "hookwire.cli", "fire", "PreToolUse", "--dialect", "claude",
         "--config", settings(tmp_path), "--cwd", str(tmp_path), "--data",
         json.dumps({"tool_name": "Bash", "tool_input": {"command": "rm -rf x"}})],
        capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["decision"] == "deny"
