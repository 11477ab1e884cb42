"""``hookwire import gemini``, ``trust``, ``check`` and ``fire`` on Gemini CLI settings, as a
user runs them: the real ``hookwire`` command, real guard scripts, a private HOME."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

GUARD = """\
#!/bin/bash
input=$(cat)
echo "$input" >> "{log}"
case "$input" in *"rm -rf"*) echo "guard: rm -rf is not allowed" >&2; exit 2;; esac
exit 0
"""

HOST = """\
import anyio, json, sys
from hookwire import Kernel, ToolPre
from hookwire.config import install

kernel = Kernel()
install(kernel)

async def go():
    out = []
    async with kernel.session(cwd=sys.argv[1], project_dir=sys.argv[1]) as session:
        for command in sys.argv[2:]:
            v = await session.dispatch(ToolPre(tool_name="run_shell_command",
                                               tool_input={"command": command}))
            out.append({"decision": v.decision.value, "reason": v.reason})
    print(json.dumps(out))

anyio.run(go)
"""


class Project:
    def __init__(self, root: Path, home: Path) -> None:
        self.root, self.home = root, home
        self.log = root / "guard.log"
        self.env = {**os.environ, "HOME": str(home), "XDG_CONFIG_HOME": str(home / ".config"),
                    "XDG_DATA_HOME": str(home / ".local" / "share"),
                    "GEMINI_CLI_SYSTEM_SETTINGS_PATH": str(home / "none.json"),
                    "GEMINI_CLI_SYSTEM_DEFAULTS_PATH": str(home / "none.json")}

    def hookwire(self, *args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "hookwire.cli", *args], cwd=self.root,
                              env=self.env, capture_output=True, text=True, timeout=60)

    def settings(self, hooks: dict[str, Any], **top: Any) -> Path:
        path = self.root / ".gemini" / "settings.json"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps({**top, "hooks": hooks}, indent=2))
        guard = self.root / ".gemini" / "hooks" / "guard.sh"
        guard.parent.mkdir(parents=True, exist_ok=True)
        guard.write_text(GUARD.format(log=self.log))
        guard.chmod(0o755)
        return path

    def fire(self, *commands: str) -> list[dict[str, Any]]:
        out = subprocess.run([sys.executable, "-c", HOST, str(self.root), *commands],
                             cwd=self.root, env=self.env, capture_output=True, text=True,
                             timeout=60)
        assert out.returncode == 0, out.stderr
        return json.loads(out.stdout)  # type: ignore[no-any-return]


@pytest.fixture
def project(tmp_path: Path) -> Project:
    (tmp_path / "home" / ".config").mkdir(parents=True)
    (tmp_path / "proj").mkdir()
    return Project(tmp_path / "proj", tmp_path / "home")


GUARDED = {"BeforeTool": [{"matcher": "run_shell_command", "hooks": [
    {"type": "command", "name": "guard", "timeout": 5000,
     "command": "$GEMINI_PROJECT_DIR/.gemini/hooks/guard.sh"}]}]}


def test_import_trust_check_fire(project: Project) -> None:
    project.settings(GUARDED)
    imported = project.hookwire("import", "gemini")
    assert imported.returncode == 0, imported.stderr
    assert "1 imported" in imported.stdout
    text = (project.root / ".hookwire" / "hooks.yaml").read_text()
    assert "command: [$GEMINI_PROJECT_DIR/.gemini/hooks/guard.sh]" in text
    assert "source: imported:gemini" in text and "name: guard" in text
    assert "timeout: 5.0" in text

    pending = project.fire("ls")  # imported, not approved: refused, the guard never ran
    assert pending[0]["decision"] == "deny" and "untrusted" in str(pending[0]["reason"])
    assert not project.log.exists()

    trusted = project.hookwire("trust", "--all")
    assert trusted.returncode == 0, trusted.stderr
    check = project.hookwire("check", "--strict")
    assert check.returncode == 0, check.stdout
    assert check.stdout.startswith("runs "), check.stdout

    blocked, allowed = project.fire("rm -rf build", "ls -l")
    assert blocked == {"decision": "deny", "reason": "guard: rm -rf is not allowed"}
    assert allowed["decision"] == "none"
    seen = [json.loads(line) for line in project.log.read_text().splitlines()]
    assert [s["tool_input"] for s in seen] == [{"command": "rm -rf build"},
                                               {"command": "ls -l"}]
    assert {s["hook_event_name"] for s in seen} == {"BeforeTool"}


def test_check_reports_a_hook_gemini_disabled(project: Project) -> None:
    project.settings(GUARDED, hooksConfig={"disabled": ["guard"]})
    hooks_file = project.root / ".hookwire" / "hooks.yaml"
    hooks_file.parent.mkdir()
    hooks_file.write_text("version: 1\nsources:\n"
                          "  - {dialect: gemini, path: .gemini/settings.json}\n")
    check = project.hookwire("check", "--json")
    rows = json.loads(check.stdout)
    found = [r for r in rows.get("hooks", rows) if isinstance(r, dict)
             and r.get("dialect") == "gemini"]
    assert found and found[0]["status"] == "disabled", check.stdout
    assert "hooksConfig.disabled" in json.dumps(found[0])


def test_fire_runs_a_gemini_settings_file(project: Project) -> None:
    path = project.settings(GUARDED)
    data = json.dumps({"tool_name": "run_shell_command", "tool_input": {"command": "rm -rf /"}})
    fired = project.hookwire("fire", "BeforeTool", "--dialect", "gemini", "--config", str(path),
                             "--data", data)
    assert fired.returncode == 0, fired.stderr
    out = json.loads(fired.stdout)
    assert out["decision"] == "deny" and out["reason"] == "guard: rm -rf is not allowed"
    bad = project.hookwire("fire", "BeforeModel", "--dialect", "gemini", "--config", str(path),
                           "--data", "{}")
    assert bad.returncode == 2 and "no hookwire host emits" in bad.stderr


def test_dialects_lists_gemini(project: Project) -> None:
    out = project.hookwire("dialects")
    assert "gemini       Gemini CLI 0.61.0" in out.stdout
