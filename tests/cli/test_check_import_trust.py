"""`hookwire import`, `trust` and `check` as a user runs them: real processes, real scripts,
a private HOME (the real one is never touched)."""

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


class Project:
    def __init__(self, root: Path, home: Path) -> None:
        self.root = root
        self.home = home
        self.env = {**os.environ, "HOME": str(home), "XDG_CONFIG_HOME": str(home / ".config")}

    def hookwire(self, *args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "hookwire.cli", *args], cwd=self.root,
                              env=self.env, capture_output=True, text=True, timeout=60)

    def script(self, rel: str, word: str) -> Path:
        path = self.root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(f'#!/bin/sh\necho {word} >> "{self.root / "marker"}"\n')
        path.chmod(0o755)
        return path

    def marks(self) -> list[str]:
        marker = self.root / "marker"
        return marker.read_text().split() if marker.exists() else []

    def fire_pre_tool(self) -> dict[str, object]:
        code = (
            "import anyio, json\n"
            "from hookwire import Kernel, ToolPre\n"
            "from hookwire.config import install\n"
            "k = Kernel(); install(k)\n"
            "async def go():\n"
            f"    async with k.session(cwd='.', project_dir={str(self.root)!r}) as s:\n"
            "        v = await s.dispatch(ToolPre(tool_name='Bash', tool_input={}))\n"
            "        print(json.dumps({'decision': v.decision.value, 'reason': v.reason,\n"
            "                          'outcomes': [h.outcome for h in v.hooks]}))\n"
            "anyio.run(go)\n")
        out = subprocess.run([sys.executable, "-c", code], cwd=self.root, env=self.env,
                             capture_output=True, text=True, timeout=60, check=True)
        return json.loads(out.stdout)  # type: ignore[no-any-return]


@pytest.fixture
def project(tmp_path: Path) -> Project:
    (tmp_path / "home" / ".config").mkdir(parents=True)
    (tmp_path / "proj").mkdir()
    return Project(tmp_path / "proj", tmp_path / "home")


def claude_settings(project: Project, hooks: dict[str, object]) -> Path:
    path = project.root / ".claude" / "settings.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"hooks": hooks}, indent=2))
    return path


def handler(command: str, **kw: object) -> dict[str, object]:
    return {"type": "command", "command": command, **kw}


def write_hooks(project: Project, text: str) -> Path:
    path = project.root / ".hookwire" / "hooks.yaml"
    path.parent.mkdir(exist_ok=True)
    path.write_text(text)
    return path


def line_of(out: str, needle: str) -> str:
    found = [line for line in out.splitlines() if needle in line]
    assert found, f"{needle!r} not in:\n{out}"
    return found[0]


def test_check_reports_each_state_with_file_and_line(project: Project) -> None:
    project.script("hooks/own.sh", "own")
    project.script("hooks/live.sh", "live")
    claude_settings(project, {
        "PreToolUse": [{"matcher": "Bash", "hooks": [handler("./hooks/live.sh")]}],
        "SubagentStop": [{"hooks": [handler("./hooks/live.sh")]}],
        "Stop": [{"hooks": [{"type": "command"}]}],
    })
    write_hooks(project, """\
sources:
  - {dialect: claude, path: .claude/settings.json}
hooks:
  - dialect: claude
    event: PreToolUse
    type: command
    command: [./hooks/own.sh]
  - dialect: claude
    event: NoSuchEvent
    type: command
    command: [./hooks/own.sh]
""")
    result = project.hookwire("check")
    out = result.stdout
    assert line_of(out, "runs").startswith("runs        .hookwire/hooks.yaml:4  claude:PreToolUse")
    assert ".hookwire/hooks.yaml:8" in line_of(out, "invalid ") and "NoSuchEvent" in out
    untrusted = line_of(out, "untrusted ")
    assert ".claude/settings.json:" in untrusted and "live, pending approval" in untrusted
    assert "hookwire trust " in untrusted
    emitted = line_of(out, "not emitted")
    assert "SubagentStop" in emitted and "no sub-agents" in emitted
    stop = line_of(out, "claude:Stop")  # a handler without a command
    assert stop.startswith("invalid     .claude/settings.json:27") and "$.hooks.Stop" in stop
    assert result.returncode == 1


def test_check_exits_zero_when_nothing_is_invalid(project: Project) -> None:
    project.script("hooks/own.sh", "own")
    write_hooks(project, "hooks:\n  - {dialect: claude, event: Stop, type: command, "
                         "command: [./hooks/own.sh]}\n")
    result = project.hookwire("check")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "1 runs" in result.stdout


def test_check_with_an_invalid_hooks_file_exits_2_naming_file_and_line(
        project: Project) -> None:
    write_hooks(project, "hooks:\n  - dialect: claude\n    event: Stop\n    type: command\n"
                         "    command: ./run.sh\n")
    result = project.hookwire("check")
    assert result.returncode == 2
    assert "hooks.yaml:5" in result.stdout and "$.hooks[0].command" in result.stdout
    assert "event Stop" in result.stdout


def test_check_unknown_host(project: Project) -> None:
    result = project.hookwire("check", "--host", "nope")
    assert result.returncode == 2 and "unknown host 'nope'" in result.stderr


def test_acceptance_import_trust_change(project: Project) -> None:
    """A project with .claude/settings.json, .codex/hooks.json and a hookwire file."""
    project.script(".claude/hooks/guard.sh", "guard")
    claude_settings(project, {
        "PreToolUse": [{"matcher": "Bash", "hooks": [
            handler('"$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.sh'),
            handler("cat | jq ."),
        ]}],
    })
    codex = project.root / ".codex" / "hooks.json"
    codex.parent.mkdir()
    codex.write_text(json.dumps({"hooks": {"Stop": [{"hooks": [handler("echo hi")]}]}}))
    write_hooks(project, "# the team's hooks\nsources:\n"
                         "  - {dialect: codex, path: .codex/hooks.json}\n")

    # import: a report, and a file that loads, comments kept
    result = project.hookwire("import", "claude")
    assert result.returncode == 0, result.stderr
    assert line_of(result.stdout, "imported ").count("guard.sh") == 1
    assert "cannot be tokenised safely" in line_of(result.stdout, "rejected ")
    text = (project.root / ".hookwire" / "hooks.yaml").read_text()
    assert text.startswith("# the team's hooks\n") and "source: imported:claude" in text
    again = project.hookwire("import", "claude")
    assert "0 entries written" in again.stdout
    assert (project.root / ".hookwire" / "hooks.yaml").read_text() == text

    # check tells the truth about each hook
    check = project.hookwire("check").stdout
    assert "untrusted" in line_of(check, "guard.sh")
    if "codex" in Kernel().dialects:  # untrusted by Codex's own records, as Codex does
        codex_line = line_of(check, "codex:Stop")
        assert codex_line.startswith("untrusted   .codex/hooks.json:")
        assert "codex's own trust record" in codex_line
    else:
        assert line_of(check, ".hookwire/hooks.yaml:3").startswith("invalid")

    # nothing imported runs before `hookwire trust`
    fired = project.fire_pre_tool()
    assert fired["decision"] == "deny" and fired["outcomes"] == ["untrusted"]
    assert project.marks() == []

    listing = project.hookwire("trust").stdout
    pending = line_of(listing, "guard.sh")
    assert pending.startswith("pending")
    rid = pending.split()[1]
    approved = project.hookwire("trust", rid[:6])
    assert approved.returncode == 0 and "trusted" in approved.stdout
    assert "runs " in line_of(project.hookwire("check").stdout, "guard.sh")
    fired = project.fire_pre_tool()
    assert fired["decision"] == "none" and project.marks() == ["guard"]

    # a changed script stops running until re-trusted
    project.script(".claude/hooks/guard.sh", "changed")
    assert "changed" in line_of(project.hookwire("check").stdout, "guard.sh")
    assert line_of(project.hookwire("trust").stdout, "guard.sh").startswith("changed")
    fired = project.fire_pre_tool()
    assert fired["decision"] == "deny" and project.marks() == ["guard"]
    assert project.hookwire("trust", "--all").returncode == 0
    project.fire_pre_tool()
    assert project.marks() == ["guard", "changed"]

    # revoke: pending again
    revoked = project.hookwire("trust", "--revoke", rid)
    assert revoked.returncode == 0 and rid in revoked.stdout
    assert line_of(project.hookwire("trust").stdout, "guard.sh").startswith("pending")
    trust_file = project.home / ".config" / "hookwire" / "trust.json"
    assert trust_file.stat().st_mode & 0o777 == 0o600


def test_trust_has_no_bypass_and_rejects_unknown_ids(project: Project) -> None:
    result = project.hookwire("trust", "--yes")
    assert result.returncode == 2
    result = project.hookwire("trust", "deadbeef0000")
    assert result.returncode == 2 and "matches no configured hook" in result.stderr


def test_import_errors_exit_2(project: Project) -> None:
    assert project.hookwire("import", "claude").returncode == 2  # no .claude/settings.json
    assert "unknown dialect" in project.hookwire("import", "nope", "x.json").stderr
    bad = project.root / "bad.json"
    bad.write_text("{nope")
    result = project.hookwire("import", "claude", str(bad))
    assert result.returncode == 2 and "bad.json:1" in result.stderr


def test_check_without_a_hooks_file_lists_what_discovery_loads(project: Project) -> None:
    """No hookwire file: ``check`` still lists the hooks a host's ``discover()`` loads from
    the harnesses' own files (#22: what check says runs is what a host runs)."""
    claude_settings(project, {"Stop": [{"hooks": [{"type": "command", "command": "./s.sh"}]}]})
    proc = project.hookwire("check")
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    rows = [line for line in lines if ".claude/settings.json" in line]
    assert len(rows) == 1 and "claude:Stop" in rows[0] and "./s.sh" in rows[0], lines
    assert lines[-1].startswith("1 hook for host reference")


def test_trust_says_a_prefix_is_too_short(project: Project) -> None:
    result = project.hookwire("trust", "59")
    assert result.returncode == 2
    assert "too short" in result.stderr and "matches no configured hook" not in result.stderr
