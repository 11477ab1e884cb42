"""Claude Code's managed settings in discovery: ``managed-settings.json`` and
``managed-settings.d/*.json`` in the managed folder (here a ``tmp_path`` folder named by
``$HOOKWIRE_CLAUDE_MANAGED_DIR`` or ``discover(managed_dir=...)``), their hooks managed (they
need no approval), ``allowManagedHooksOnly`` and a managed ``disableAllHooks``. Real files, real
hook processes that leave a line in a log."""

from __future__ import annotations

import json
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


class Layout:
    """A home, a project and a managed folder under ``tmp_path``; hooks append their name to
    one log."""

    def __init__(self, tmp_path: Path) -> None:
        self.home, self.proj = tmp_path / "home", tmp_path / "proj"
        self.managed = tmp_path / "managed"
        self.config = self.home / ".claude"
        self.log = tmp_path / "ran.log"
        self.proj.mkdir()

    def hook(self, name: str) -> dict[str, Any]:
        return {"PreToolUse": [group(f"echo {name} >> '{self.log}'", matcher="Bash")]}

    def plugin(self, name: str) -> None:
        root = self.config / "plugins" / "cache" / "market" / name / "1.0.0"
        (root / ".claude-plugin").mkdir(parents=True)
        (root / ".claude-plugin" / "plugin.json").write_text(json.dumps({"name": name}))
        write_settings(root / "hooks" / "hooks.json", self.hook(f"plugin-{name}"))

    def ran(self) -> list[str]:
        return sorted(self.log.read_text().split()) if self.log.exists() else []

    async def fire(self, **discover_kw: Any) -> Any:
        kernel = Kernel(load_entry_points=False)
        kernel.add_dialect(ClaudeDialect())
        ((_, result),) = discover(kernel, self.proj, home=self.home, **discover_kw)
        async with kernel.session(cwd=str(self.proj), project_dir=str(self.proj)) as session:
            await session.tool_pre("Bash", {"command": "ls"})
        return result


@pytest.fixture
def layout(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Layout:
    found = Layout(tmp_path)
    monkeypatch.setenv("HOOKWIRE_CLAUDE_MANAGED_DIR", str(found.managed))
    return found


def test_the_base_file_then_the_fragments_by_name_hidden_and_other_files_left_out(
        layout: Layout) -> None:
    folder = layout.managed
    write_settings(folder / "managed-settings.json", layout.hook("base"))
    write_settings(folder / "managed-settings.d" / "20-second.json", layout.hook("second"))
    write_settings(folder / "managed-settings.d" / "10-first.json", layout.hook("first"))
    write_settings(folder / "managed-settings.d" / ".hidden.json", layout.hook("hidden"))
    write_settings(folder / "managed-settings.d" / "notes.txt", layout.hook("text"))
    write_settings(layout.config / "settings.json", layout.hook("user"))

    result = ClaudeDialect().discover(layout.proj, home=layout.home)

    assert [e.command.split()[1] for e in result.entries] == ["user", "base", "first",
                                                              "second"]
    managed = result.entries[1:]
    assert {(e.provenance, e.project, e.handler.scope) for e in managed} == {
        (Provenance.MANAGED, None, "managed")}
    assert result.problems == ()


def test_the_managed_folder_can_be_named_per_discovery_or_per_dialect(tmp_path: Path) -> None:
    proj, folder = tmp_path / "proj", tmp_path / "elsewhere"
    proj.mkdir()
    write_settings(folder / "managed-settings.json", {"Stop": [group("true")]})
    for dialect, kw in ((ClaudeDialect(), {"managed_dir": folder}),
                        (ClaudeDialect(managed_dir=folder), {})):
        result = dialect.discover(proj, home=tmp_path / "home", **kw)
        assert [(e.event, e.provenance) for e in result.entries] == [
            ("Stop", Provenance.MANAGED)]


@pytest.mark.anyio
async def test_managed_hooks_run_without_approval_where_the_repositorys_wait(
        layout: Layout, untrusted: None) -> None:
    write_settings(layout.managed / "managed-settings.json", layout.hook("managed"))
    write_settings(layout.proj / ".claude" / "settings.json", layout.hook("project"))
    await layout.fire()
    assert layout.ran() == ["managed"]


@pytest.mark.anyio
async def test_allow_managed_hooks_only_drops_the_users_project_and_plugin_hooks(
        layout: Layout) -> None:
    write_settings(layout.managed / "managed-settings.json", layout.hook("managed"),
                   allowManagedHooksOnly=True, enabledPlugins={"forced@market": True})
    write_settings(layout.config / "settings.json", layout.hook("user"),
                   enabledPlugins={"mine@market": True})
    write_settings(layout.proj / ".claude" / "settings.json", layout.hook("project"))
    write_settings(layout.proj / ".claude" / "settings.local.json", layout.hook("local"))
    layout.plugin("forced")
    layout.plugin("mine")

    result = await layout.fire()

    # every hook loads (hookwire check lists them); only the managed ones and the plugin the
    # managed settings turn on run
    assert len(result.entries) == 6
    assert layout.ran() == ["managed", "plugin-forced"]
    assert any("allowManagedHooksOnly is true" in p.message for p in result.problems)


@pytest.mark.anyio
async def test_allow_managed_hooks_only_counts_only_in_managed_settings(
        layout: Layout) -> None:
    write_settings(layout.config / "settings.json", layout.hook("user"),
                   allowManagedHooksOnly=True)
    result = await layout.fire()
    assert layout.ran() == ["user"]
    (problem,) = result.problems
    assert "counts only in managed settings" in problem.message
    assert problem.location.pointer == "$.allowManagedHooksOnly"


@pytest.mark.anyio
@pytest.mark.parametrize(("files", "ran"), [
    # the user's disableAllHooks turns off the user's hooks, never the managed ones
    ({"user": {"disableAllHooks": True}}, ["managed"]),
    # a managed one turns off every hook
    ({"managed-settings.json": {"disableAllHooks": True}}, []),
    # a later fragment wins a scalar over the base file
    ({"managed-settings.json": {"disableAllHooks": True},
      "managed-settings.d/50-on.json": {"disableAllHooks": False}}, ["managed", "user"]),
])
async def test_disable_all_hooks_at_the_managed_level(
        layout: Layout, files: dict[str, dict[str, Any]], ran: list[str]) -> None:
    write_settings(layout.config / "settings.json", layout.hook("user"),
                   **files.pop("user", {}))
    write_settings(layout.managed / "managed-settings.json", layout.hook("managed"),
                   **files.pop("managed-settings.json", {}))
    for name, top in files.items():
        write_settings(layout.managed / name, None, **top)
    await layout.fire()
    assert layout.ran() == ran


@pytest.mark.anyio
async def test_d33_allow_managed_hooks_only_keeps_a_file_the_host_names(
        layout: Layout, tmp_path: Path) -> None:
    """A settings file the host names itself (``add_config``: scope cli, as ``--settings``)
    keeps running under allowManagedHooksOnly, as the host's own hooks do; the user's stop."""
    write_settings(layout.managed / "managed-settings.json", layout.hook("managed"),
                   allowManagedHooksOnly=True)
    write_settings(layout.config / "settings.json", layout.hook("user"))
    named = write_settings(tmp_path / "named.json", layout.hook("named"))
    kernel = Kernel(load_entry_points=False)
    kernel.add_dialect(ClaudeDialect())
    discover(kernel, layout.proj, home=layout.home)
    kernel.add_config("claude", named)
    async with kernel.session(cwd=str(layout.proj), project_dir=str(layout.proj)) as session:
        await session.tool_pre("Bash", {"command": "ls"})
    assert layout.ran() == ["managed", "named"]


def test_check_says_disabled_for_the_hooks_the_managed_settings_turn_off(
        layout: Layout) -> None:
    # what `hookwire check` says runs is what a host runs: the user's hook that
    # allowManagedHooksOnly turns off is "disabled", naming the key; the managed one runs
    import os
    import subprocess
    import sys

    write_settings(layout.managed / "managed-settings.json", layout.hook("managed"),
                   allowManagedHooksOnly=True)
    write_settings(layout.config / "settings.json", layout.hook("user"))
    proc = subprocess.run(
        [sys.executable, "-m", "hookwire.cli", "check", "--json"], capture_output=True,
        text=True, timeout=120, cwd=layout.proj,
        env={**os.environ, "HOME": str(layout.home)})
    rows = {row["command"].split()[1]: row for row in json.loads(proc.stdout)["hooks"]}
    assert rows["managed"]["status"] == "runs", rows
    assert rows["user"]["status"] == "disabled", rows
    assert "allowManagedHooksOnly" in rows["user"]["detail"]


@pytest.mark.anyio
async def test_a_repository_hook_the_settings_turn_off_is_not_named_as_waiting(
        layout: Layout, monkeypatch: pytest.MonkeyPatch) -> None:
    # allowManagedHooksOnly turns the project's hook off: approving it would not make it run,
    # so the session does not name it as waiting for approval (check says "disabled")
    monkeypatch.delenv("HOOKWIRE_TRUSTED_FOLDERS", raising=False)  # the suite trusts tmp
    write_settings(layout.managed / "managed-settings.json", layout.hook("managed"),
                   allowManagedHooksOnly=True)
    write_settings(layout.proj / ".claude" / "settings.json", layout.hook("project"))
    kernel = Kernel(load_entry_points=False)
    kernel.add_dialect(ClaudeDialect())
    discover(kernel, layout.proj, home=layout.home)
    async with kernel.session(cwd=str(layout.proj), project_dir=str(layout.proj)) as session:
        await session.tool_pre("Bash", {"command": "ls"})
        pending = [p for p in session.problems if p.kind.value == "pending"]
    assert pending == []
    assert layout.ran() == ["managed"]
    # without the managed key the same hook is named, with the command that approves it
    write_settings(layout.managed / "managed-settings.json", layout.hook("managed"))
    kernel = Kernel(load_entry_points=False)
    kernel.add_dialect(ClaudeDialect())
    discover(kernel, layout.proj, home=layout.home)
    async with kernel.session(cwd=str(layout.proj), project_dir=str(layout.proj)) as session:
        (waiting,) = [p for p in session.problems if p.kind.value == "pending"]
    assert "project" in waiting.message and "hookwire trust" in waiting.message
