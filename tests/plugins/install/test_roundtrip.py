"""install → install → uninstall for every client: the documented file at the documented
place, idempotence, receipts, byte-exact restore, the user's own entries and later edits kept,
and --dry-run writing nothing."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from hookwire.plugins.install import InstallError, clients, install, uninstall
from hookwire.plugins.install import receipt as receipts

ALL = sorted(clients())
JSON_CLIENTS = ["claude-code", "codex", "cursor", "gemini-cli", "windsurf"]

#: Where each client's hook file lands, relative to the home (user) or project root.
USER_FILE = {
    "claude-code": ".claude/settings.json", "codex": ".codex/hooks.json",
    "cursor": ".cursor/hooks.json", "gemini-cli": ".gemini/settings.json",
    "windsurf": ".codeium/windsurf/hooks.json",
    "copilot-cli": ".copilot/hooks/hookwire-acme-recorder.json",
    "cline": "Documents/Cline/Hooks/PreToolUse",
    "opencode": ".config/opencode/plugins/hookwire-bridge.ts",
    "grok": ".grok/hooks/hookwire-acme-recorder.json",
    "kilo": ".config/kilo/plugin/hookwire-bridge.ts",
    "pi": ".pi/agent/extensions/hookwire-bridge.ts",
    "kiro": ".kiro/hooks/hookwire-acme-recorder.json",
}
PROJECT_FILE = {
    "claude-code": ".claude/settings.json", "codex": ".codex/hooks.json",
    "cursor": ".cursor/hooks.json", "gemini-cli": ".gemini/settings.json",
    "windsurf": ".windsurf/hooks.json",
    "copilot-cli": ".github/hooks/hookwire-acme-recorder.json",
    "cline": ".clinerules/hooks/PreToolUse",
    "opencode": ".opencode/plugins/hookwire-bridge.ts",
    "grok": ".grok/hooks/hookwire-acme-recorder.json",
    "kilo": ".kilo/plugin/hookwire-bridge.ts",
    "pi": ".pi/extensions/hookwire-bridge.ts",
    "kiro": ".kiro/hooks/hookwire-acme-recorder.json",
}

#: A config the user already had, with a hook of their own on an event we also use.
USER_OWN: dict[str, tuple[str, bytes]] = {
    "claude-code": (".claude/settings.json", b'{\n    "model": "opus",\n    "hooks": {\n'
                    b'        "PreToolUse": [\n            {"matcher": "Bash", "hooks": '
                    b'[{"type": "command", "command": "./guard.sh"}]}\n        ]\n    }\n}\n'),
    "codex": (".codex/hooks.json", b'{"hooks": {"Stop": [{"hooks": [{"type": "command", '
              b'"command": "notify"}]}]}}'),
    "cursor": (".cursor/hooks.json", b'{\n\t"version": 1,\n\t"hooks": {\n\t\t"stop": '
               b'[{"command": "./audit.sh"}]\n\t}\n}\n'),
    "gemini-cli": (".gemini/settings.json", b'{\n  "theme": "dark",\n  "hooks": {\n    '
                   b'"BeforeTool": [{"matcher": "write_file", "hooks": [{"name": "lint", '
                   b'"type": "command", "command": "lint"}]}]\n  }\n}\n'),
    "windsurf": (".codeium/windsurf/hooks.json", b'{"hooks": {"pre_run_command": '
                 b'[{"command": "guard", "show_output": true}]}}\n'),
}


def files_under(base: Path) -> dict[str, bytes]:
    return {str(p.relative_to(base)): p.read_bytes() for p in sorted(base.rglob("*"))
            if p.is_file() and ".config/hookwire" not in str(p) and ".local" not in str(p)}


@pytest.mark.parametrize("name", ALL)
def test_user_scope_round_trip_from_nothing(name: str, plugin: Path, home: Path) -> None:
    before = files_under(home)
    first = install(name, plugin, home=home)
    assert first.changed
    target = home / USER_FILE[name]
    assert target.is_file()
    written = files_under(home)
    second = install(name, plugin, home=home)
    assert not second.changed
    assert files_under(home) == written
    rec = receipts.load(first.receipt_path)
    assert rec is not None and rec.client == name and rec.plugin == "acme-recorder"
    assert rec.root == str(plugin) and rec.scope == "user"
    assert str(target) in [f.path for f in rec.files]
    assert all(f.created for f in rec.files)
    uninstall(name, plugin, home=home)
    assert files_under(home) == before
    assert not first.receipt_path.exists()


@pytest.mark.parametrize("name", ALL)
def test_project_scope_writes_into_the_project(name: str, plugin: Path, home: Path,
                                              project: Path) -> None:
    result = install(name, plugin, scope="project", home=home, project=project)
    assert (project / PROJECT_FILE[name]).is_file()
    assert not (home / USER_FILE[name]).exists()
    assert "project-" in str(result.receipt_path)
    uninstall(name, plugin, scope="project", home=home, project=project)
    assert files_under(project) == {}


@pytest.mark.parametrize("name", sorted(USER_OWN))
def test_user_entries_survive_and_original_bytes_come_back(name: str, plugin: Path,
                                                           home: Path) -> None:
    rel, original = USER_OWN[name]
    path = home / rel
    path.parent.mkdir(parents=True)
    path.write_bytes(original)
    os.chmod(path, 0o640)
    install(name, plugin, home=home)
    doc = json.loads(path.read_bytes())
    for event, items in json.loads(original)["hooks"].items():
        assert doc["hooks"][event][: len(items)] == items  # theirs first, untouched
    assert (path.stat().st_mode & 0o777) == 0o640
    install(name, plugin, home=home)
    uninstall(name, plugin, home=home)
    assert path.read_bytes() == original


@pytest.mark.parametrize("name", sorted(USER_OWN))
def test_edits_made_after_install_are_kept_on_uninstall(name: str, plugin: Path,
                                                        home: Path) -> None:
    rel, original = USER_OWN[name]
    path = home / rel
    path.parent.mkdir(parents=True)
    path.write_bytes(original)
    install(name, plugin, home=home)
    doc = json.loads(path.read_bytes())
    doc["userAddedLater"] = {"keep": True}
    first_event = next(iter(doc["hooks"]))
    doc["hooks"][first_event].append({"command": "mine-too"})
    path.write_text(json.dumps(doc, indent=2))
    uninstall(name, plugin, home=home)
    after = json.loads(path.read_bytes())
    expected = json.loads(original)
    expected["userAddedLater"] = {"keep": True}
    expected["hooks"].setdefault(first_event, []).append({"command": "mine-too"})
    assert after == expected
    assert "shim" not in path.read_text()


@pytest.mark.parametrize("name", sorted(USER_OWN))
def test_reinstall_after_user_edit_then_uninstall_keeps_the_edit(name: str, plugin: Path,
                                                                 home: Path) -> None:
    rel, original = USER_OWN[name]
    path = home / rel
    path.parent.mkdir(parents=True)
    path.write_bytes(original)
    install(name, plugin, home=home)
    doc = json.loads(path.read_bytes())
    doc["editedBetweenInstalls"] = 1
    path.write_text(json.dumps(doc, indent=2) + "\n")
    install(name, plugin, home=home)  # idempotent: nothing of ours changes
    assert json.loads(path.read_bytes())["editedBetweenInstalls"] == 1
    uninstall(name, plugin, home=home)
    after = json.loads(path.read_bytes())
    assert after == {**json.loads(original), "editedBetweenInstalls": 1}


@pytest.mark.parametrize("name", ALL)
def test_dry_run_writes_nothing_and_returns_the_diff(name: str, plugin: Path,
                                                     home: Path) -> None:
    from hookwire.plugins.install import diff

    before = files_under(home)
    result = install(name, plugin, home=home, dry_run=True)
    assert files_under(home) == before
    assert not result.receipt_path.exists()
    patch = diff.render(result.changes)
    assert f"+++ {home / USER_FILE[name]}" in patch
    assert "--- /dev/null" in patch
    install(name, plugin, home=home)
    written = files_under(home)
    result = uninstall(name, plugin, home=home, dry_run=True)
    assert files_under(home) == written and result.receipt_path.exists()
    assert "+++ /dev/null" in diff.render(result.changes)


def test_two_plugins_share_a_settings_file(plugin: Path, home: Path, tmp_path: Path) -> None:
    other = tmp_path / "plugins" / "other"
    other.mkdir(parents=True)
    (other / "hooks.json").write_text(json.dumps({
        "$schema": "https://hookwire.dev/schemas/portable-hooks/0.1.0/hooks.schema.json",
        "hooks": {"turn-end": [{"command": "true"}]}}))
    install("claude-code", plugin, home=home)
    install("claude-code", other, home=home)
    settings = home / ".claude" / "settings.json"
    stop = json.loads(settings.read_bytes())["hooks"]["Stop"]
    assert len(stop) == 2
    uninstall("claude-code", plugin, home=home)
    stop = json.loads(settings.read_bytes())["hooks"]["Stop"]
    assert len(stop) == 1 and str(other) in stop[0]["hooks"][0]["command"]
    uninstall("claude-code", other, home=home)
    assert json.loads(settings.read_bytes()) == {}


def test_cline_never_overwrites_a_hook_of_the_users(plugin: Path, home: Path) -> None:
    folder = home / "Documents" / "Cline" / "Hooks"
    folder.mkdir(parents=True)
    mine = b"#!/bin/sh\necho '{\"cancel\": false}'\n"
    (folder / "PreToolUse").write_bytes(mine)
    result = install("cline", plugin, home=home)
    assert result.skipped == ("PreToolUse",)
    assert "not installed (a hook file of your own is there): PreToolUse" in result.report
    assert (folder / "PreToolUse").read_bytes() == mine
    assert (folder / "PostToolUse").is_file()
    uninstall("cline", plugin, home=home)
    assert sorted(p.name for p in folder.iterdir()) == ["PreToolUse"]


def test_cline_shares_hook_files_between_plugins(plugin: Path, home: Path,
                                                 tmp_path: Path) -> None:
    other = tmp_path / "plugins" / "other"
    other.mkdir(parents=True)
    (other / "hooks.json").write_text(json.dumps({
        "$schema": "https://hookwire.dev/schemas/portable-hooks/0.1.0/hooks.schema.json",
        "hooks": {"pre-tool-use": [{"command": "true"}]}}))
    install("cline", plugin, home=home)
    install("cline", other, home=home)
    pre = home / "Documents" / "Cline" / "Hooks" / "PreToolUse"
    assert pre.read_text().count("# hookwire-plugin: ") == 2
    uninstall("cline", plugin, home=home)
    assert pre.read_text().count("# hookwire-plugin: ") == 1 and str(other) in pre.read_text()
    assert os.access(pre, os.X_OK)
    uninstall("cline", other, home=home)
    assert not pre.exists()


def test_codex_feature_flag_is_added_and_removed_exactly(plugin: Path, home: Path) -> None:
    config = home / ".codex" / "config.toml"
    config.parent.mkdir()
    original = b'model = "gpt-5"\n\n[features]\nweb_search = true\n\n[tui]\ntheme = "x"\n'
    config.write_bytes(original)
    install("codex", plugin, home=home)
    text = config.read_text()
    assert "[features]\nhooks = true" in text
    uninstall("codex", plugin, home=home)
    assert config.read_bytes() == original
    install("codex", plugin, home=home)
    config.write_text(config.read_text() + "\n[extra]\nkeep = 1\n")  # a later edit
    uninstall("codex", plugin, home=home)
    assert config.read_text() == original.decode() + "\n[extra]\nkeep = 1\n"


def test_codex_leaves_a_flag_the_user_set(plugin: Path, home: Path) -> None:
    config = home / ".codex" / "config.toml"
    config.parent.mkdir()
    config.write_text("[features]\nhooks = true\n")
    install("codex", plugin, home=home)
    assert config.read_text().startswith("[features]\nhooks = true\n\n[hooks.state.")
    uninstall("codex", plugin, home=home)
    assert config.read_text() == "[features]\nhooks = true\n"


def test_codex_warns_when_the_user_turned_hooks_off(plugin: Path, home: Path) -> None:
    config = home / ".codex" / "config.toml"
    config.parent.mkdir()
    config.write_text("[features]\nhooks = false\n")
    result = install("codex", plugin, home=home)
    assert "hooks = false: Codex will not run hooks" in result.report
    assert config.read_text().startswith("[features]\nhooks = false\n\n[hooks.state.")


def test_refusals_write_nothing(plugin: Path, home: Path, tmp_path: Path) -> None:
    settings = home / ".claude" / "settings.json"
    settings.parent.mkdir()
    settings.write_text("{ not json")
    with pytest.raises(InstallError, match="not valid JSON"):
        install("claude-code", plugin, home=home)
    assert settings.read_text() == "{ not json"
    bad = tmp_path / "bad"
    bad.mkdir()
    (bad / "hooks.json").write_text(json.dumps({
        "$schema": "https://hookwire.dev/schemas/portable-hooks/0.1.0/hooks.schema.json",
        "hooks": {"pre-tool-use": [{"command": "rm -rf /"}]}}))
    with pytest.raises(InstallError, match="one executable token"):
        install("cursor", bad, home=home)
    with pytest.raises(InstallError, match="unknown client"):
        install("emacs", plugin, home=home)
    with pytest.raises(InstallError, match="not installed"):
        uninstall("cursor", plugin, home=home)
    assert not (home / ".cursor").exists()

