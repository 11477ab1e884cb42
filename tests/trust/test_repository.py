"""Nothing a repository brings runs before someone approves it (#22).

A cloned repository carries a Claude Code project settings file and a hookwire hooks file, each
with a PreToolUse hook that writes a marker. The README's host example (run as written, in
that folder), ``hookwire fire`` and a host calling ``add_config`` run neither hook and warn,
naming both with the command that approves them. After ``hookwire trust --folder .``, or after
approving each hook, both run. Real files, real hook processes, the real CLI.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import anyio
import pytest

from hookwire import Decision, Kernel, ProblemKind
from hookwire.problems import Problem

ROOT = Path(__file__).resolve().parents[2]


def _readme_host() -> str:
    text = (ROOT / "README.md").read_text()
    match = re.search(r"## A host in 20 lines\n\n```python\n(.*?)```", text, re.S)
    assert match is not None, "the README's host example is gone"
    return match.group(1)


@pytest.fixture
def clone(tmp_path: Path, home: Path, untrusted: None) -> Path:
    """A repository as cloned: two hooks that each leave a marker outside it."""
    repo = tmp_path / "clone"
    (repo / ".claude").mkdir(parents=True)
    (repo / ".hookwire").mkdir()
    markers = tmp_path / "markers"
    markers.mkdir()
    (repo / ".claude" / "settings.json").write_text(json.dumps({"hooks": {"PreToolUse": [
        {"matcher": "Bash", "hooks": [
            {"type": "command", "command": f"touch {markers / 'from-claude-settings'}"}]}]}}))
    (repo / ".hookwire" / "hooks.yaml").write_text(
        "version: 1\nhooks:\n"
        "  - dialect: claude\n    event: PreToolUse\n    matcher: Bash\n    type: command\n"
        f"    command: [touch, {markers / 'from-hooks-yaml'}]\n")
    return repo


def _ran(clone: Path) -> set[str]:
    return {p.name for p in (clone.parent / "markers").iterdir()}


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env.pop("HOOKWIRE_TRUSTED_FOLDERS", None)
    return env


def _run(args: list[str], cwd: Path, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, cwd=cwd, env=_env(), input=stdin, capture_output=True,
                          text=True, timeout=120)


def _host(clone: Path) -> subprocess.CompletedProcess[str]:
    return _run([sys.executable, "-c", _readme_host()], clone)


def _hookwire(clone: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return _run([sys.executable, "-m", "hookwire", *args], clone)


def test_the_readme_host_runs_neither_and_names_both(clone: Path) -> None:
    proc = _host(clone)
    assert proc.returncode == 0, proc.stderr
    assert _ran(clone) == set()
    assert "tool refused" not in proc.stdout  # skipped, never a deny
    warned = [line for line in proc.stderr.splitlines() if "waits for approval" in line]
    assert any(".claude/settings.json" in line for line in warned), proc.stderr
    assert any(".hookwire/hooks.yaml" in line for line in warned), proc.stderr
    assert all("hookwire trust " in line and "hookwire trust --folder" in line
               for line in warned)


def test_trusting_the_folder_runs_both(clone: Path) -> None:
    trusted = _hookwire(clone, "trust", "--folder", ".")
    assert trusted.returncode == 0, trusted.stderr
    assert str(clone.resolve()) in trusted.stdout
    proc = _host(clone)
    assert proc.returncode == 0, proc.stderr
    assert _ran(clone) == {"from-claude-settings", "from-hooks-yaml"}
    assert "waits for approval" not in proc.stderr
    # and revoking it makes them wait again
    assert _hookwire(clone, "trust", "--folder", ".", "--revoke").returncode == 0
    for marker in (clone.parent / "markers").iterdir():
        marker.unlink()
    _host(clone)
    assert _ran(clone) == set()


def test_approving_each_hook_runs_both(clone: Path) -> None:
    listed = _hookwire(clone, "trust")
    assert listed.returncode == 0, listed.stderr
    assert listed.stdout.count("pending") == 2, listed.stdout
    check = _hookwire(clone, "check")
    assert "2 untrusted" in check.stdout and "pending approval" in check.stdout, check.stdout
    approved = _hookwire(clone, "trust", "--all")
    assert approved.returncode == 0, approved.stderr
    assert approved.stdout.count("trusted ") == 2, approved.stdout
    assert "2 runs" in _hookwire(clone, "check").stdout
    proc = _host(clone)
    assert _ran(clone) == {"from-claude-settings", "from-hooks-yaml"}, proc.stderr


def test_an_approved_hook_edited_in_the_repository_waits_again(clone: Path) -> None:
    assert _hookwire(clone, "trust", "--all").returncode == 0
    settings = clone / ".claude" / "settings.json"
    settings.write_text(settings.read_text().replace("touch", "touch -c"))
    _host(clone)
    assert _ran(clone) == {"from-hooks-yaml"}  # the edited command is a new, pending hook


def test_fire_runs_neither_and_names_both(clone: Path) -> None:
    data = json.dumps({"tool_name": "Bash", "tool_input": {"command": "ls"}})
    proc = _hookwire(clone, "fire", "PreToolUse", "--dialect", "claude", "--data", data)
    assert proc.returncode == 0, proc.stderr
    assert _ran(clone) == set()
    assert json.loads(proc.stdout)["decision"] == "none"
    assert ".claude/settings.json" in proc.stderr and ".hookwire/hooks.yaml" in proc.stderr
    # the one config file named on the command line is still the repository's
    named = _hookwire(clone, "fire", "PreToolUse", "--dialect", "claude", "--config",
                      ".claude/settings.json", "--data", data)
    assert named.returncode == 0 and _ran(clone) == set()
    assert "waits for approval" in named.stderr
    assert _hookwire(clone, "trust", "--folder", ".").returncode == 0
    _hookwire(clone, "fire", "PreToolUse", "--dialect", "claude", "--data", data)
    assert _ran(clone) == {"from-claude-settings", "from-hooks-yaml"}


async def _one_call(kernel: Kernel, clone: Path) -> tuple[Decision, tuple[Problem, ...]]:
    kernel.map_tool("run_shell", "Bash", input={"command": "cmd"})
    async with kernel.session(cwd=str(clone), project_dir=str(clone), host="reference",
                              tools=["run_shell"]) as session:
        verdict = await session.tool_pre("run_shell", {"cmd": "ls"})
        return verdict.decision, session.problems


@pytest.mark.parametrize("load", ["discover", "add_config"])
def test_a_host_kernel_waits_and_says_so_in_session_problems(clone: Path, load: str) -> None:
    kernel = Kernel()
    if load == "discover":
        kernel.discover(clone)
    else:
        kernel.add_config("claude", clone / ".claude" / "settings.json")
    decision, problems = anyio.run(_one_call, kernel, clone)
    assert _ran(clone) == set() and decision is Decision.NONE  # skipped, never a deny
    pending = [p for p in problems if p.kind is ProblemKind.PENDING]
    assert len(pending) == (2 if load == "discover" else 1)
    assert all("hookwire trust --folder" in p.message for p in pending)


def test_a_host_that_trusts_the_folder_or_asks_for_harness_behaviour(clone: Path) -> None:
    for kernel in (Kernel(trusted_folders=[clone]), Kernel(project_hooks="run")):
        kernel.discover(clone)
        anyio.run(_one_call, kernel, clone)
        assert _ran(clone) == {"from-claude-settings", "from-hooks-yaml"}
        for marker in (clone.parent / "markers").iterdir():
            marker.unlink()


def test_the_environment_trusts_a_ci_workspace(clone: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOOKWIRE_TRUSTED_FOLDERS", str(clone.parent))
    kernel = Kernel()
    kernel.discover(clone)
    anyio.run(_one_call, kernel, clone)
    assert _ran(clone) == {"from-claude-settings", "from-hooks-yaml"}


def test_user_level_settings_keep_running(clone: Path, home: Path) -> None:
    marker = clone.parent / "markers" / "from-user-settings"
    (home / ".claude").mkdir()
    (home / ".claude" / "settings.json").write_text(json.dumps({"hooks": {"PreToolUse": [
        {"matcher": "Bash", "hooks": [{"type": "command", "command": f"touch {marker}"}]}]}}))
    kernel = Kernel()
    kernel.discover(clone, home=home)
    anyio.run(_one_call, kernel, clone)
    assert _ran(clone) == {"from-user-settings"}


def test_a_repository_cannot_remap_the_users_tools(clone: Path, home: Path) -> None:
    (clone / ".hookwire" / "hooks.yaml").write_text(
        "version: 1\ntools:\n  run_shell: {as: Read, input: {file_path: cmd}}\n")
    kernel = Kernel()
    kernel.discover(clone)
    assert kernel.tools.get("run_shell") is None  # left out until trusted
    trusted = Kernel(trusted_folders=[clone])
    trusted.discover(clone)
    mapping = trusted.tools.get("run_shell")
    assert mapping is not None and mapping.harness == "Read"


def test_a_hook_imported_and_trusted_with_the_cli_runs_in_the_readme_host(
        tmp_path: Path, home: Path, untrusted: None) -> None:
    repo = tmp_path / "repo"
    (repo / ".claude").mkdir(parents=True)
    guard = repo / "guard.sh"
    guard.write_text("#!/bin/sh\ngrep -q 'rm -rf' && { echo 'no rm -rf' >&2; exit 2; }\n"
                     "exit 0\n")
    guard.chmod(0o755)
    (repo / ".claude" / "settings.json").write_text(json.dumps({"hooks": {"PreToolUse": [
        {"matcher": "Bash", "hooks": [{"type": "command", "command": "./guard.sh"}]}]}}))
    imported = _hookwire(repo, "import", "claude")
    assert imported.returncode == 0, imported.stderr
    listed = _hookwire(repo, "trust").stdout
    # the imported copy in .hookwire/hooks.yaml stands for the settings file's hook: one row
    blocks = [b for b in listed.split("\n") if b.startswith("pending")]
    assert len(blocks) == 1, listed
    rid = blocks[0].split()[1]
    assert _hookwire(repo, "trust", rid).returncode == 0
    assert "1 runs" in _hookwire(repo, "check").stdout
    proc = _host(repo)
    assert "tool refused:" in proc.stdout and "no rm -rf" in proc.stdout, (proc.stdout,
                                                                          proc.stderr)
    assert "waits for approval" not in proc.stderr
