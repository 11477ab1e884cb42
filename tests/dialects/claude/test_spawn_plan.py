"""The spawn plan (#16): a hook's environment is built and encoded once per (entry, session)
and rebuilt when ``Session.set_cwd`` moves the session. Real hooks record where they ran."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hookwire import Kernel, SessionInfo
from hookwire import events as ev
from hookwire.dialects.claude.env import environment
from hookwire.runner import Environment

pytestmark = pytest.mark.anyio


async def test_set_cwd_gives_a_new_plan(tmp_path: Path) -> None:
    out = tmp_path / "out.txt"
    hook = tmp_path / "where.sh"
    hook.write_text(f'#!/bin/sh\nprintf "%s %s\\n" "$(pwd)" "$PWD" >> "{out}"\n')
    hook.chmod(0o755)
    settings = tmp_path / "settings.json"
    settings.write_text(json.dumps({"hooks": {"PreToolUse": [
        {"matcher": "Bash", "hooks": [{"type": "command", "command": str(hook)}]}]}}))
    first, second = tmp_path / "a", tmp_path / "b"
    first.mkdir()
    second.mkdir()
    kernel = Kernel()
    kernel.add_config("claude", settings)
    async with kernel.session(cwd=str(first), project_dir=str(tmp_path)) as session:
        await session.tool_pre("Bash", {"command": "ls"})
        await session.tool_pre("Bash", {"command": "ls"})
        session.set_cwd(str(second))
        await session.tool_pre("Bash", {"command": "ls"})
    assert out.read_text().splitlines() == [f"{first} {first}"] * 2 + [f"{second} {second}"]


def test_the_environment_is_encoded_once_per_entry_and_session(tmp_path: Path) -> None:
    kernel = Kernel()
    settings = tmp_path / "settings.json"
    settings.write_text(json.dumps({"hooks": {"PreToolUse": [
        {"matcher": "Bash", "hooks": [{"type": "command", "command": "true"}]}]}}))
    kernel.add_config("claude", settings)
    entry = kernel.hooks[0]
    info = SessionInfo(session_id="s", cwd=str(tmp_path), project_dir=str(tmp_path))
    event = ev.ToolPre(tool_name="Bash", tool_input={})
    env = environment(entry, event, "PreToolUse", info)
    assert isinstance(env, Environment) and env is environment(entry, event, "PreToolUse", info)
    assert env.as_bytes[b"PWD"] == str(tmp_path).encode()
    moved = SessionInfo(session_id="s", cwd="/", project_dir=str(tmp_path))
    assert environment(entry, event, "PreToolUse", moved)["PWD"] == "/"
    start = environment(entry, ev.SessionStart(source="startup"), "SessionStart", info)
    assert "CLAUDE_ENV_FILE" in start  # SessionStart: built each time, with its env file
    assert start is not environment(entry, ev.SessionStart(source="startup"), "SessionStart",
                                    info)


@pytest.mark.parametrize("form", ["shell", "argv", "elided"])
async def test_a_cwd_removed_falls_back_as_claude_code_does(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, form: str) -> None:
    """The plan keeps no ``stat`` of the cwd per call: the runner falls back (project root,
    then ``$HOME``, then the temp dir) when the hook's chdir finds no directory, with ``PWD``
    following, in exec form and with shell elision too."""
    out = tmp_path / "out.txt"
    hook = tmp_path / "where.sh"
    hook.write_text(f'#!/bin/sh\nprintf "%s %s\\n" "$(pwd)" "$PWD" >> "{out}"\n')
    hook.chmod(0o755)
    handler: dict[str, object] = {"type": "command", "command": str(hook)}
    if form == "argv":
        handler = {"type": "command", "command": str(hook), "args": []}
    settings = tmp_path / "settings.json"
    settings.write_text(json.dumps({"hooks": {"PreToolUse": [
        {"matcher": "Bash", "hooks": [handler]}]}}))
    cwd, project, home = tmp_path / "cwd", tmp_path / "project", tmp_path / "home"
    for folder in (cwd, project, home):
        folder.mkdir()
    monkeypatch.setenv("HOME", str(home))
    kernel = Kernel(shell_elision=form == "elided")
    kernel.add_config("claude", settings)
    async with kernel.session(cwd=str(cwd), project_dir=str(project)) as session:
        await session.tool_pre("Bash", {"command": "ls"})  # the plan is made here
        cwd.rmdir()
        first = await session.tool_pre("Bash", {"command": "ls"})
        project.rmdir()
        second = await session.tool_pre("Bash", {"command": "ls"})
    assert [h.outcome for h in (*first.hooks, *second.hooks)] == ["exited", "exited"]
    assert out.read_text().splitlines() == [f"{cwd} {cwd}", f"{project} {project}",
                                            f"{home} {home}"]
