"""The command line: install/uninstall through ``cli.add_parser``'s handlers, --dry-run's diff,
the capability report and the JSON result."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hookwire.plugins.install import cli


def test_dry_run_prints_the_diff_and_the_report_and_writes_nothing(
        plugin: Path, home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = cli.main(["install", "--client", "cursor", str(plugin), "--home", str(home),
                     "--dry-run"])
    out = capsys.readouterr().out
    assert code == 0
    assert f"+++ {home}/.cursor/hooks.json" in out and '+  "version": 1,' in out
    assert "Cursor: capability report" in out
    assert "session-start  partial      sessionStart" in out
    assert "new chats only" in out
    assert not (home / ".cursor").exists()


def test_install_twice_then_uninstall(plugin: Path, home: Path,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    args = ["--client", "gemini-cli", str(plugin), "--home", str(home)]
    assert cli.main(["install", *args]) == 0
    assert f"created {home}/.gemini/settings.json" in capsys.readouterr().out
    assert cli.main(["install", *args]) == 0
    assert "already installed for gemini-cli; nothing changed" in capsys.readouterr().out
    assert cli.main(["uninstall", *args]) == 0
    assert f"removed {home}/.gemini/settings.json" in capsys.readouterr().out
    assert cli.main(["uninstall", *args]) == 2
    assert "not installed" in capsys.readouterr().err


def test_json_output_and_project_scope(plugin: Path, home: Path, project: Path,
                                       capsys: pytest.CaptureFixture[str],
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(project)
    code = cli.main(["install", "--client", "codex", str(plugin), "--home", str(home),
                     "--scope", "project", "--json", "--command", "hookwire portable-hook"])
    result = json.loads(capsys.readouterr().out)
    assert code == 0 and result["changed"]
    assert sorted(result["files"]) == [f"{home}/.codex/config.toml",  # the trust records
                                       f"{project}/.codex/config.toml",
                                       f"{project}/.codex/hooks.json"]
    hooks = (project / ".codex" / "hooks.json").read_text()
    assert "hookwire portable-hook --client codex" in hooks


def test_add_parser_registers_three_commands() -> None:
    import argparse

    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers(dest="command")
    cli.add_parser(sub)
    args = parser.parse_args(["portable-hook", "--client", "cline", "--event", "PreToolUse",
                              "--plugin", "/p"])
    assert args.handler is cli._portable_hook  # runs shim.run, imported on first use
    assert parser.parse_args(["uninstall", "--client", "cline", "/p"]).handler is \
        cli.handle_uninstall
