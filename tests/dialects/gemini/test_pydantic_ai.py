"""Issue 24's acceptance: a Gemini CLI ``BeforeTool`` guard on ``run_shell_command``,
unmodified, in the project's ``.gemini/settings.json``, blocks ``rm -rf`` for a pydantic-ai
tool ``run_shell(cmd)`` mapped through the ``tools:`` key of hookwire's hooks file, and the
model reads Gemini CLI's own wording. Real guard script, real ``hookwire trust``; only the
model is pydantic-ai's ``FunctionModel``."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("pydantic_ai")

from pydantic_ai import Agent, Tool
from pydantic_ai.messages import (
    ModelMessage,
    ModelRequest,
    ModelResponse,
    TextPart,
    ToolCallPart,
    ToolReturnPart,
)
from pydantic_ai.models.function import AgentInfo, FunctionModel

from hookwire import Kernel
from hookwire.config import install
from hookwire.plugins.pydantic_ai import Hookwire
from hookwire.trust import TrustStore

pytestmark = pytest.mark.anyio

#: A guard as a Gemini CLI user writes it (reads stdin, exit 2 with the reason on stderr).
GUARD = """#!/bin/bash
input=$(cat)
command=$(printf '%s' "$input" | python3 -c 'import json,sys; \
print(json.load(sys.stdin)["tool_input"].get("command",""))')
case "$command" in
  *"rm -rf"*) echo "Refusing to run: $command" >&2; exit 2 ;;
esac
exit 0
"""

SETTINGS = """{
  "hooks": {
    "BeforeTool": [
      {"matcher": "run_shell_command",
       "hooks": [{"name": "no-rm", "type": "command",
                  "command": "$GEMINI_PROJECT_DIR/.gemini/hooks/guard.sh"}]}
    ]
  }
}
"""

HOOKS_FILE = """version: 1
tools:
  run_shell: {as: run_shell_command, input: {command: cmd}}
sources:
  - {dialect: gemini, path: .gemini/settings.json}
"""


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def _project(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    project, home = tmp_path / "project", tmp_path / "home"
    (project / ".gemini" / "hooks").mkdir(parents=True)
    (project / ".hookwire").mkdir()
    (home / ".config").mkdir(parents=True)
    guard = project / ".gemini" / "hooks" / "guard.sh"
    guard.write_text(GUARD)
    guard.chmod(0o755)
    (project / ".gemini" / "settings.json").write_text(SETTINGS)
    (project / ".hookwire" / "hooks.yaml").write_text(HOOKS_FILE)
    env = {**os.environ, "HOME": str(home), "XDG_CONFIG_HOME": str(home / ".config"),
           "XDG_DATA_HOME": str(home / ".local" / "share")}
    trusted = subprocess.run([sys.executable, "-m", "hookwire.cli", "trust", "--all"],
                             cwd=project, env=env, capture_output=True, text=True, timeout=60)
    assert trusted.returncode == 0, trusted.stderr
    return project, env


async def test_gemini_guard_blocks_a_pydantic_ai_tool_in_gemini_wording(
        tmp_path: Path) -> None:
    project, env = _project(tmp_path)
    kernel = Kernel()
    install(kernel, project, env=env, store=TrustStore(env=env))  # the store trust wrote
    ran: list[str] = []

    def run_shell(cmd: str) -> str:
        """Run a shell command."""
        ran.append(cmd)
        return subprocess.run(["sh", "-c", cmd], cwd=project, capture_output=True,
                              text=True, timeout=30).stdout

    requests: list[list[ModelMessage]] = []
    turns: list[Any] = [{"cmd": "rm -rf build"}, {"cmd": "echo fine"}, "done"]

    def respond(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        requests.append(list(messages))
        turn = turns.pop(0)
        if isinstance(turn, str):
            return ModelResponse(parts=[TextPart(turn)])
        return ModelResponse(parts=[ToolCallPart("run_shell", turn)])

    agent = Agent(FunctionModel(respond), tools=[Tool(run_shell, name="run_shell")],
                  capabilities=[Hookwire(kernel, cwd=str(project))])
    await agent.run("clean up the build")
    assert ran == ["echo fine"]  # rm -rf never ran; the other call did
    returns = [p for m in requests[1] if isinstance(m, ModelRequest) for p in m.parts
               if isinstance(p, ToolReturnPart)]
    assert [p.model_response_str(wrap_if_error=False) for p in returns] == [
        "Tool execution blocked: Refusing to run: rm -rf build"]
