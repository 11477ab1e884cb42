"""`hookwire check` says, for each prompt, agent and mcp_tool hook, whether the host lends what
it runs on (a model, MCP sessions): real settings files, the real command, a private HOME."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from hookwire import Kernel

pytestmark = pytest.mark.skipif("claude" not in Kernel().dialects,
                                reason="the claude dialect is not installed")


def hookwire(root: Path, home: Path, *args: str) -> str:
    env = {**os.environ, "HOME": str(home), "XDG_CONFIG_HOME": str(home / ".config")}
    return subprocess.run([sys.executable, "-m", "hookwire.cli", *args], cwd=root, env=env,
                          capture_output=True, text=True, timeout=60).stdout


def test_model_and_mcp_hooks_run_only_where_the_host_lends_them(tmp_path: Path) -> None:
    home, root = tmp_path / "home", tmp_path / "proj"
    (home / ".config").mkdir(parents=True)
    (root / ".hookwire").mkdir(parents=True)
    (root / "hooks.json").write_text(json.dumps({"hooks": {"PreToolUse": [{
        "matcher": "Bash", "hooks": [
            {"type": "prompt", "prompt": "Is this safe? $ARGUMENTS"},
            {"type": "mcp_tool", "server": "guard", "tool": "check"}]}]}}))
    (root / ".hookwire" / "hooks.yaml").write_text(
        "version: 1\nsources:\n  - {dialect: claude, path: hooks.json}\n")

    def statuses(host: str) -> list[tuple[object, object]]:
        rows = json.loads(hookwire(root, home, "check", "--json", "--host", host))["hooks"]
        return [(r["status"], r["detail"]) for r in rows]

    # read live, the hooks wait for approval first: approving needs no program on disk
    assert [s for s, _ in statuses("pydantic-ai")] == ["untrusted", "untrusted"]
    assert hookwire(root, home, "trust", "--all").count("trusted ") == 2

    (prompt, mcp) = statuses("reference")
    assert prompt[0] == "not lent" and "host's model" in str(prompt[1])
    assert mcp[0] == "not lent" and "MCP session" in str(mcp[1])
    (prompt, mcp) = statuses("langchain")
    assert prompt[0] == "runs" and "on the host's model" in str(prompt[1])
    assert mcp[0] == "not lent"
    assert [s for s, _ in statuses("pydantic-ai")] == ["runs", "runs"]
