"""Import → trust → fire, as a new user does it: a real project, real guard scripts, the real
``hookwire`` command and a host process that loads the hooks file with
:func:`hookwire.config.install` (the trust gate included). A private HOME throughout."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from hookwire import Kernel

pytestmark = pytest.mark.skipif(not {"claude", "codex"} <= set(Kernel().dialects),
                                reason="the claude and codex dialects are not installed")

GUARD = """\
#!/bin/bash
# A PreToolUse guard: refuses `rm -rf`, records every call it sees.
input=$(cat)
echo "$input" >> "{log}"
if printf '%s' "$input" | grep -q 'rm -rf'; then
  echo "guard: rm -rf is not allowed" >&2
  exit 2
fi
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
    async with kernel.session(cwd=".", project_dir=sys.argv[1]) as session:
        for command in sys.argv[2:]:
            v = await session.dispatch(ToolPre(tool_name="Bash",
                                               tool_input={"command": command}))
            out.append({"command": command, "decision": v.decision.value, "reason": v.reason,
                        "ran": [h.outcome for h in v.hooks]})
    print(json.dumps(out))

anyio.run(go)
"""


class Project:
    def __init__(self, root: Path, home: Path) -> None:
        self.root = root
        self.home = home
        self.log = root / "guard.log"
        self.env = {**os.environ, "HOME": str(home), "XDG_CONFIG_HOME": str(home / ".config"),
                    "XDG_DATA_HOME": str(home / ".local" / "share")}
        self.env.pop("CODEX_HOME", None)

    def hookwire(self, *args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "hookwire.cli", *args], cwd=self.root,
                              env=self.env, capture_output=True, text=True, timeout=60)

    def guard(self, rel: str = "hooks/guard.sh") -> Path:
        path = self.root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(GUARD.format(log=self.log))
        path.chmod(0o755)
        return path

    def calls(self) -> list[dict[str, object]]:
        if not self.log.exists():
            return []
        return [json.loads(line) for line in self.log.read_text().splitlines() if line]

    def fire(self, *commands: str) -> list[dict[str, object]]:
        out = subprocess.run([sys.executable, "-c", HOST, str(self.root), *commands],
                             cwd=self.root, env=self.env, capture_output=True, text=True,
                             timeout=60)
        assert out.returncode == 0, out.stderr
        return json.loads(out.stdout)  # type: ignore[no-any-return]

    def write(self, rel: str, data: object) -> Path:
        path = self.root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(data if isinstance(data, str) else json.dumps(data, indent=2))
        return path


@pytest.fixture
def project(tmp_path: Path) -> Project:
    (tmp_path / "home" / ".config").mkdir(parents=True)
    (tmp_path / "proj").mkdir()
    return Project(tmp_path / "proj", tmp_path / "home")


def _guard_hooks(command: str) -> dict[str, object]:
    return {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
        {"type": "command", "command": command}]}]}}


def _import_trust_fire(project: Project, dialect: str) -> None:
    imported = project.hookwire("import", dialect)
    assert imported.returncode == 0, imported.stderr
    assert "1 imported" in imported.stdout

    # imported, not yet approved: the gate refuses it, naming it, and the guard never runs
    before = project.fire("ls")
    assert before[0]["decision"] == "deny"
    assert "untrusted" in str(before[0]["reason"]) and "hookwire trust" in str(
        before[0]["reason"])
    assert project.calls() == []

    trusted = project.hookwire("trust", "--all")
    assert trusted.returncode == 0, trusted.stderr
    assert trusted.stdout.startswith("trusted ")
    check = project.hookwire("check", "--strict")
    assert check.returncode == 0, check.stdout
    assert check.stdout.startswith("runs "), check.stdout

    blocked, allowed = project.fire("rm -rf build", "ls -l")
    assert blocked["decision"] == "deny"
    assert "rm -rf is not allowed" in str(blocked["reason"])
    assert allowed["decision"] != "deny" and allowed["reason"] is None
    assert blocked["ran"] == ["exited"] and allowed["ran"] == ["exited"]
    seen = project.calls()
    assert [c["tool_input"] for c in seen] == [{"command": "rm -rf build"},
                                               {"command": "ls -l"}]
    assert {c["hook_event_name"] for c in seen} == {"PreToolUse"}


def test_codex_import_trust_fire_runs_the_guard(project: Project) -> None:
    project.guard()
    project.write(".codex/hooks.json", _guard_hooks("./hooks/guard.sh"))
    _import_trust_fire(project, "codex")
    text = (project.root / ".hookwire" / "hooks.yaml").read_text()
    # Codex's own bookkeeping (its untrusted state above all) is not copied
    for word in ("untrusted", "trust:", "hash:", "key:", "enabled:"):
        assert word not in text, text
    assert "command: [./hooks/guard.sh]" in text and "source: imported:codex" in text


def test_codex_guard_receives_codex_stdin(project: Project) -> None:
    project.guard()
    project.write(".codex/hooks.json", _guard_hooks("./hooks/guard.sh"))
    project.hookwire("import", "codex")
    project.hookwire("trust", "--all")
    project.fire("ls")
    (call,) = project.calls()
    # Codex's wire contract (not Claude Code's): turn_id, model and its permission modes
    assert call["hook_event_name"] == "PreToolUse" and "turn_id" in call
    assert call["tool_name"] == "Bash" and call["permission_mode"] == "default"


def test_claude_import_trust_fire_runs_the_guard(project: Project) -> None:
    project.guard(".claude/hooks/guard.sh")
    project.write(".claude/settings.json",
                  _guard_hooks('"$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.sh'))
    _import_trust_fire(project, "claude")
    text = (project.root / ".hookwire" / "hooks.yaml").read_text()
    assert "command: ['${CLAUDE_PROJECT_DIR}/.claude/hooks/guard.sh']" in text


def test_hooks_file_from_an_older_import_with_codex_state_runs_once_trusted(
        project: Project) -> None:
    """Entries an older import wrote with Codex's `trust: untrusted` are no permanent block."""
    project.guard()
    project.write(".hookwire/hooks.yaml", """\
version: 1
hooks:
  - dialect: codex
    event: PreToolUse
    matcher: Bash
    type: command
    command: [./hooks/guard.sh]
    timeout: 600.0
    options:
      managed: false
      key: /somewhere/.codex/hooks.json:pre_tool_use:0:0
      hash: sha256:f6a002fe3850237556eef883b0de191a8d67b5c8dc664e3ca10f6eea4aa41a49
      trust: untrusted
      enabled: true
    source: imported:codex
""")
    assert project.fire("ls")[0]["decision"] == "deny"  # pending in hookwire
    project.hookwire("trust", "--all")
    blocked, allowed = project.fire("rm -rf /", "ls")
    assert blocked["decision"] == "deny" and allowed["decision"] != "deny"
    assert len(project.calls()) == 2


def test_codex_import_rejects_a_hook_codex_disabled(project: Project) -> None:
    project.guard()
    hooks = project.write(".codex/hooks.json", _guard_hooks("./hooks/guard.sh"))
    key = f"{hooks}:pre_tool_use:0:0"
    project.write(".codex/config.toml", "")
    codex_home = project.home / ".codex"
    codex_home.mkdir()
    (codex_home / "config.toml").write_text(f'[hooks.state.{json.dumps(key)}]\n'
                                            'enabled = false\n')
    out = project.hookwire("import", "codex")
    assert out.returncode == 0, out.stderr
    assert "rejected" in out.stdout and "enabled = false" in out.stdout
    assert "0 entries written" in out.stdout


def test_live_codex_source_still_follows_codex_trust_records(project: Project) -> None:
    """Reading a Codex file live, Codex's own `[hooks.state]` decides, as in Codex."""
    project.guard()
    hooks = project.write(".codex/hooks.json", _guard_hooks("./hooks/guard.sh"))
    project.write(".hookwire/hooks.yaml", "version: 1\nsources:\n"
                                          "  - {dialect: codex, path: .codex/hooks.json}\n")
    check = project.hookwire("check", "--strict")
    assert check.returncode == 1 and check.stdout.startswith("untrusted "), check.stdout
    assert "config.toml" in check.stdout  # the command that trusts it in Codex
    assert project.fire("ls")[0]["ran"] == []  # the Codex dialect skips it
    from hookwire.dialects.codex import trust as codex_trust

    current = codex_trust.hook_hash("PreToolUse", "Bash", {
        "command": "./hooks/guard.sh", "timeout": 600, "async": False})
    (project.home / ".codex").mkdir()
    (project.home / ".codex" / "config.toml").write_text(
        codex_trust.trust_snippet(f"{hooks}:pre_tool_use:0:0", current))
    check = project.hookwire("check", "--strict")
    assert check.returncode == 0 and check.stdout.startswith("runs "), check.stdout
    blocked, allowed = project.fire("rm -rf /", "ls")
    assert blocked["decision"] == "deny" and allowed["ran"] == ["exited"]
