"""``ClaudeDialect.discover`` and the core discovery call with the Claude Code dialect: user
(``$CLAUDE_CONFIG_DIR`` or ``~/.claude``), project, local and enabled-plugin layers, in Claude
Code's order, with provenance; ``disableAllHooks`` resolved by precedence; a missing home.
Every file is real, under ``tmp_path``; hooks that run are real processes."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from hookwire import Kernel, Provenance
from hookwire.dialects.claude import ClaudeDialect
from hookwire.dialects.claude.testing import group, write_settings
from hookwire.discovery import discover


@pytest.fixture(autouse=True)
def _no_config_dir(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CLAUDE_CONFIG_DIR", raising=False)


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def pre(command: str, matcher: str = "Bash") -> dict[str, Any]:
    return {"PreToolUse": [group(command, matcher=matcher)]}


def write_json(path: Path, data: Any) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=2))
    return path


def make_plugin(root: Path, name: str, command: str) -> Path:
    write_json(root / ".claude-plugin" / "plugin.json", {"name": name, "version": "1.0.0"})
    write_json(root / "hooks" / "hooks.json", {"description": name, "hooks": pre(command)})
    return root


def commands(entries: Any) -> list[Any]:
    return [e.command for e in entries]


def test_user_project_local_and_plugin_layers_in_claude_codes_order(tmp_path: Path) -> None:
    home, proj = tmp_path / "home", tmp_path / "proj"
    config = home / ".claude"
    write_settings(config / "settings.json", pre("user"),
                   enabledPlugins={"guard@market": True})
    write_settings(proj / ".claude" / "settings.json", pre("project"))
    write_settings(proj / ".claude" / "settings.local.json", pre("local"))
    install = make_plugin(config / "plugins" / "cache" / "market" / "guard" / "1.0.0", "guard",
                          '"${CLAUDE_PLUGIN_ROOT}/check.sh"')
    write_json(config / "plugins" / "installed_plugins.json", {"version": 2, "plugins": {
        "guard@market": [{"scope": "user", "installPath": str(install), "version": "1.0.0"}]}})

    result = ClaudeDialect().discover(proj, home=home)

    assert result.problems == ()
    assert commands(result.entries) == ["user", "project", "local", f'"{install}/check.sh"']
    # the user's settings and the plugin the user enabled are the user's; the project's
    # files are the repository's (they wait for folder trust or approval: tests/trust)
    assert [e.provenance for e in result.entries] == [
        Provenance.USER, Provenance.PROJECT, Provenance.PROJECT, Provenance.USER]
    assert [e.project for e in result.entries] == [None, str(proj.resolve()),
                                                   str(proj.resolve()), None]
    assert [e.handler.scope for e in result.entries] == ["user", "project", "local",
                                                            "plugin"]
    assert [e.location.file for e in result.entries] == [
        str(config / "settings.json"), str(proj / ".claude" / "settings.json"),
        str(proj / ".claude" / "settings.local.json"), str(install / "hooks" / "hooks.json")]
    assert result.entries[3].handler.plugin["CLAUDE_PLUGIN_NAME"] == "guard"
    assert result.settings == {"disableAllHooks": False, "enabledPlugins": {"guard@market": True}}


def test_claude_config_dir_replaces_the_user_folder(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    home, proj, alt = tmp_path / "home", tmp_path / "proj", tmp_path / "alt-config"
    write_settings(home / ".claude" / "settings.json", pre("home-user"))
    write_settings(alt / "settings.json", pre("alt-user"),
                   enabledPlugins={"fmt@tools": True})
    make_plugin(alt / "plugins" / "cache" / "tools" / "fmt" / "2.0.0", "fmt", "fmt-hook")
    proj.mkdir()
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(alt))

    result = ClaudeDialect().discover(proj, home=home)

    assert commands(result.entries) == ["alt-user", "fmt-hook"]
    assert result.entries[0].handler.scope == "user"  # still the user level
    assert result.entries[1].handler.scope == "plugin"
    assert result.entries[1].provenance is Provenance.USER  # the user enabled it


def test_enabled_plugins_merge_by_precedence_and_missing_ones_are_reported(
        tmp_path: Path) -> None:
    home, proj = tmp_path / "home", tmp_path / "proj"
    config = home / ".claude"
    write_settings(config / "settings.json",
                   enabledPlugins={"a@m": True, "b@m": True, "gone@m": True})
    write_settings(proj / ".claude" / "settings.json", enabledPlugins={"b@m": False})
    write_settings(proj / ".claude" / "settings.local.json", enabledPlugins={"c@m": True})
    for name in ("a", "b", "c"):
        make_plugin(config / "plugins" / "cache" / "m" / name / "1.0.0", name, f"{name}-hook")

    result = ClaudeDialect().discover(proj, home=home)

    # b is switched off by the project; c is switched on by the local file
    assert commands(result.entries) == ["a-hook", "c-hook"]
    assert result.settings["enabledPlugins"] == {"a@m": True, "b@m": False, "gone@m": True,
                                                 "c@m": True}
    (problem,) = result.problems
    assert "'gone@m' is enabled but not installed" in problem.message
    assert problem.severity == "error"


def test_the_install_record_for_this_project_wins_over_the_newest_cached_version(
        tmp_path: Path) -> None:
    home, proj = tmp_path / "home", tmp_path / "proj"
    config = home / ".claude"
    write_settings(proj / ".claude" / "settings.json", enabledPlugins={"p@m": True})
    old = make_plugin(config / "plugins" / "cache" / "m" / "p" / "1.0.0", "p", "v1")
    newer = make_plugin(config / "plugins" / "cache" / "m" / "p" / "2.0.0", "p", "v2")
    os.utime(old, (1, 1))
    write_json(config / "plugins" / "installed_plugins.json", {"version": 2, "plugins": {
        "p@m": [{"scope": "user", "installPath": str(newer)},
                {"scope": "project", "projectPath": str(proj), "installPath": str(old)}]}})
    assert commands(ClaudeDialect().discover(proj, home=home).entries) == ["v1"]
    # without any record, the most recently written cached version is the one found
    (config / "plugins" / "installed_plugins.json").unlink()
    assert commands(ClaudeDialect().discover(proj, home=home).entries) == ["v2"]


def test_manifest_hooks_files_load_after_hooks_json_and_are_not_read_twice(
        tmp_path: Path) -> None:
    home, proj = tmp_path / "home", tmp_path / "proj"
    proj.mkdir()
    root = make_plugin(tmp_path / "plug", "plug", "default")
    write_json(root / ".claude-plugin" / "plugin.json",
               {"name": "plug", "hooks": ["./hooks/hooks.json", "./extra/more.json"]})
    write_json(root / "extra" / "more.json", {"hooks": pre('"${CLAUDE_PLUGIN_ROOT}/more"')})

    result = ClaudeDialect().discover(proj, home=home, plugins=[root])

    assert commands(result.entries) == ["default", f'"{root}/more"']
    assert [e.handler.scope for e in result.entries] == ["plugin", "plugin"]
    assert [e.handler.plugin["CLAUDE_PLUGIN_ROOT"] for e in result.entries] == [
        str(root)] * 2
    assert ["not loaded twice" in p.message for p in result.problems] == [True]


def test_a_missing_home_loads_the_project_alone(tmp_path: Path) -> None:
    proj = tmp_path / "proj"
    write_settings(proj / ".claude" / "settings.json", pre("project"))
    result = ClaudeDialect().discover(proj, home=tmp_path / "no-such-home")
    assert commands(result.entries) == ["project"] and result.problems == ()
    empty = ClaudeDialect().discover(tmp_path / "no-project", home=tmp_path / "no-such-home")
    assert empty.entries == () and empty.problems == ()


def test_an_unreadable_settings_file_is_skipped_and_reported(tmp_path: Path) -> None:
    home, proj = tmp_path / "home", tmp_path / "proj"
    bad = home / ".claude" / "settings.json"
    bad.parent.mkdir(parents=True)
    bad.write_text('{"hooks": ')
    write_settings(proj / ".claude" / "settings.json", pre("project"))
    result = ClaudeDialect().discover(proj, home=home)
    assert commands(result.entries) == ["project"]
    (problem,) = result.problems
    assert problem.severity == "error" and problem.location.file == str(bad)
    assert "invalid JSON" in problem.message


@pytest.mark.anyio
@pytest.mark.parametrize(("levels", "ran"), [
    ({}, {"user", "project", "plugin"}),
    ({"project": True}, set()),                    # the project turns every hook off
    ({"project": True, "local": False}, {"user", "project", "plugin"}),  # local turns them on
    ({"user": True}, set()),
])
async def test_disable_all_hooks_is_resolved_by_precedence(
        tmp_path: Path, levels: dict[str, bool], ran: set[str]) -> None:
    home, proj = tmp_path / "home", tmp_path / "proj"
    log = tmp_path / "ran.log"
    config = home / ".claude"

    def hook(name: str) -> str:
        return f"echo {name} >> '{log}'"

    def extra(level: str) -> dict[str, Any]:
        return {"disableAllHooks": levels[level]} if level in levels else {}

    write_settings(config / "settings.json", pre(hook("user")),
                   enabledPlugins={"p@m": True}, **extra("user"))
    write_settings(proj / ".claude" / "settings.json", pre(hook("project")), **extra("project"))
    write_settings(proj / ".claude" / "settings.local.json", {}, **extra("local"))
    make_plugin(config / "plugins" / "cache" / "m" / "p" / "1", "p", hook("plugin"))

    kernel = Kernel(load_entry_points=False)
    kernel.add_dialect(ClaudeDialect())
    ((name, result),) = discover(kernel, proj, home=home)
    assert name == "claude" and len(kernel.hooks) == 3  # disabled hooks load, but do not run
    assert result.settings["disableAllHooks"] is bool(ran == set())
    async with kernel.session(cwd=str(proj), project_dir=str(proj)) as session:
        await session.tool_pre("Bash", {"command": "ls"})
    assert set(log.read_text().split() if log.exists() else ()) == ran


@pytest.mark.anyio
async def test_one_discovery_call_runs_the_users_own_hooks(tmp_path: Path,
                                                           monkeypatch: pytest.MonkeyPatch
                                                           ) -> None:
    """The README's host: ``Kernel()`` with the installed dialects, then one discovery call.
    A guard in ``~/.claude/settings.json`` (not in the project) blocks."""
    home, proj = tmp_path / "home", tmp_path / "proj"
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.delenv("CODEX_HOME", raising=False)
    write_settings(home / ".claude" / "settings.json",
                   pre("echo 'no rm -rf here' >&2; exit 2"))
    write_settings(proj / ".claude" / "settings.json", {})
    kernel = Kernel()
    found = dict(kernel.discover(proj, dialects=["claude"], home=home))
    assert commands(found["claude"].entries) == ["echo 'no rm -rf here' >&2; exit 2"]
    async with kernel.session(cwd=str(proj), project_dir=str(proj)) as session:
        verdict = await session.tool_pre("Bash", {"command": "rm -rf build"})
    assert verdict.denied and "no rm -rf here" in (verdict.reason or "")
