"""The command-line defects of issue 17, each with its test: flags without help, "did you
mean", typed ``--data``, disabled plugins, ``uninstall --help``, native plugins' names and rows,
a denied verdict without a parallel rewrite, closed pipes and Ctrl-C."""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from hookwire import Answer, Decision, Kernel, hookimpl
from hookwire.cli import build_parser, main


def hookwire(*args: str, env: dict[str, str] | None = None,
             cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "hookwire", *args], capture_output=True,
                          text=True, timeout=120, env={**os.environ, **(env or {})}, cwd=cwd)


@pytest.fixture
def settings(tmp_path: Path) -> Path:
    path = tmp_path / "settings.json"
    path.write_text('{"hooks": {}}')
    return path


def test_every_flag_of_every_command_has_help_text() -> None:
    parser = build_parser(with_plugins=True)
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    missing = [f"{name} {a.option_strings or a.dest}" for name, p in sub.choices.items()
               for a in p._actions if not a.help and not isinstance(a, argparse._HelpAction)]
    assert len(sub.choices) > 6 and missing == []


@pytest.mark.parametrize(("args", "hint"), [
    (["PreToolUs", "--dialect", "claude"], "has no event 'PreToolUs' (did you mean 'PreToolUse'?)"),
    (["PreToolUse", "--dialect", "claud"], "unknown dialect 'claud' (did you mean 'claude'?)"),
])
def test_misspelt_event_and_dialect_suggest_the_name(args: list[str], hint: str,
                                                     settings: Path) -> None:
    proc = hookwire("fire", *args, "--config", str(settings))
    assert proc.returncode == 2 and hint in proc.stderr, proc.stderr


def test_misspelt_key_in_hooks_file_suggests_the_key(tmp_path: Path) -> None:
    (tmp_path / ".hookwire").mkdir()
    (tmp_path / ".hookwire" / "hooks.yaml").write_text(
        "version: 1\nhooks:\n  - dialect: claude\n    event: Stop\n    type: command\n"
        "    command: [./a.sh]\n    timout: 5\n")
    proc = hookwire("check", cwd=tmp_path, env={"HOME": str(tmp_path)})
    assert proc.returncode == 2
    assert "unknown field 'timout' @ $.hooks[0] (did you mean 'timeout'?)" in proc.stdout


def test_misspelt_event_in_hooks_file_suggests_the_event(tmp_path: Path) -> None:
    (tmp_path / ".hookwire").mkdir()
    (tmp_path / ".hookwire" / "hooks.yaml").write_text(
        "version: 1\nhooks:\n  - dialect: claude\n    event: PreToolUs\n    type: command\n"
        "    command: [./a.sh]\n")
    proc = hookwire("check", cwd=tmp_path, env={"HOME": str(tmp_path)})
    assert proc.returncode != 0
    assert "no event 'PreToolUs' (did you mean 'PreToolUse'?)" in proc.stdout


def test_several_problems_are_reported_in_one_pass(tmp_path: Path) -> None:
    (tmp_path / ".hookwire").mkdir()
    (tmp_path / ".hookwire" / "hooks.yaml").write_text(
        "version: 1\nhooks:\n"
        "  - {dialect: claude, event: Stop, type: command, command: [./a.sh], timout: 5}\n"
        "  - {dialect: claude, event: Stop, command: []}\n"
        "  - {dialect: claude, event: Stop, type: command, command: [./b.sh], timeout: -1}\n")
    proc = hookwire("check", cwd=tmp_path, env={"HOME": str(tmp_path)})
    invalid = [line for line in proc.stdout.splitlines() if line.startswith("invalid")]
    assert proc.returncode == 2
    assert [line.split()[1].rpartition(":")[2] for line in invalid] == ["3", "4", "4", "5"]
    text = "\n".join(invalid)
    for expected in ("'timout'", "required field missing @ $.hooks[1].type",
                     "`command` must be a non-empty list", "`timeout` must be a positive"):
        assert expected in text


def test_data_of_the_wrong_type_is_a_clear_error(settings: Path) -> None:
    proc = hookwire("fire", "PreToolUse", "--dialect", "claude", "--config", str(settings),
                    "--data", '{"tool_name": 3}')
    assert proc.returncode == 2 and proc.stdout == ""
    assert "tool_name must be a string, not an integer (3) @ $.tool_name" in proc.stderr


def test_a_missing_field_is_named_without_python_wording(settings: Path) -> None:
    proc = hookwire("fire", "PreToolUse", "--dialect", "claude", "--config", str(settings),
                    "--data", '{"tool_input": {}}')
    assert proc.returncode == 2
    assert "PreToolUse needs the field 'tool_name'" in proc.stderr
    assert "__init__" not in proc.stderr and "keyword-only" not in proc.stderr


def test_a_disabled_dialect_is_reported_as_disabled(settings: Path) -> None:
    env = {"HOOKWIRE_DISABLE_PLUGINS": "claude,codexx"}
    proc = hookwire("fire", "PreToolUse", "--dialect", "claude", "--config", str(settings),
                    env=env)
    assert proc.returncode == 2
    assert "dialect 'claude' is disabled by HOOKWIRE_DISABLE_PLUGINS" in proc.stderr
    assert "not installed" not in proc.stderr
    assert ("HOOKWIRE_DISABLE_PLUGINS names 'codexx', which is no installed dialect or plugin "
            "(did you mean 'codex'?)") in proc.stderr
    listing = hookwire("dialects", env=env)
    assert "disabled by HOOKWIRE_DISABLE_PLUGINS:\n  claude       (dialect)" in listing.stdout
    assert "\n  claude  " not in listing.stdout.split("disabled by")[0]


def test_uninstall_help_says_from() -> None:
    out = " ".join(hookwire("uninstall", "--help").stdout.split())  # argparse wraps lines
    help_line = " ".join(hookwire("--help").stdout.split())
    assert "home directory to uninstall from" in out
    assert "uninstall a portable plugin's hooks.json from an agent client" in help_line
    assert "install a portable plugin's hooks.json into an agent client" in help_line


class Refuser:
    """A native plugin registered without a name."""

    @hookimpl
    def tool_pre(self, event: Any) -> Answer:
        return Answer(decision=Decision.DENY, reason="refused by Refuser")


class Broken:
    @hookimpl
    def tool_pre(self, event: Any) -> None:
        raise RuntimeError("boom")


def test_native_plugins_have_readable_names_and_rows_in_fire(
        settings: Path, capsys: pytest.CaptureFixture[str]) -> None:
    kernel = Kernel(plugins=[Refuser(), Broken(), Broken()])
    names = {kernel.pm.get_name(p) for p in kernel.pm.get_plugins()}
    assert {"Refuser", "Broken", "Broken#2"} <= names
    assert main(["fire", "PreToolUse", "--dialect", "claude", "--config", str(settings),
                 "--data", '{"tool_name": "Bash", "tool_input": {"command": "ls"}}'],
                kernel=kernel) == 0
    out = json.loads(capsys.readouterr().out)
    rows = [(p["name"], p["outcome"], p["decision"]) for p in out["plugins"]]
    assert rows == [("Broken#2", "raised", "none"), ("Broken", "raised", "none"),
                    ("Refuser", "answered", "deny")]
    assert "plugin 'Broken#2' failed in tool_pre: RuntimeError('boom')" in out["diagnostics"]
    assert out["decision"] == "deny"


def test_a_denied_verdict_carries_no_parallel_rewrite(tmp_path: Path, settings: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    rewrite = tmp_path / "rewrite.py"
    rewrite.write_text(
        "import json, sys\nevent = json.load(sys.stdin)\n"
        "print(json.dumps({'hookSpecificOutput': {'hookEventName': 'PreToolUse',"
        " 'permissionDecision': 'allow', 'updatedInput': {'command': 'echo rewritten'}}}))\n")
    deny = tmp_path / "deny.sh"
    deny.write_text("#!/bin/sh\ncat >/dev/null\necho 'no deletes' >&2\nexit 2\n")
    deny.chmod(0o755)
    settings.write_text(json.dumps({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
        {"type": "command", "command": f"{sys.executable} {rewrite}"},
        {"type": "command", "command": str(deny)}]}]}}))
    assert main(["fire", "PreToolUse", "--dialect", "claude", "--config", str(settings),
                 "--data", '{"tool_name": "Bash", "tool_input": {"command": "rm -rf x"}}']) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["decision"] == "deny" and "no deletes" in out["reason"]
    assert sorted(h["decision"] for h in out["hooks"]) == ["allow", "deny"]  # both ran
    assert out["updated_input"] is None


def _closed_pipe_run(*args: str, cwd: Path, env: dict[str, str]) -> tuple[int, str]:
    read, write = os.pipe()
    os.close(read)  # the reader is gone before the command writes a byte
    try:
        proc = subprocess.run([sys.executable, "-m", "hookwire", *args], stdout=write,
                              stderr=subprocess.PIPE, text=True, timeout=120, cwd=cwd,
                              env={**os.environ, **env})
    finally:
        os.close(write)
    return proc.returncode, proc.stderr


@pytest.mark.parametrize("args", [["trust"], ["dialects"], ["--help"], ["install-dry-run"]])
def test_a_closed_pipe_ends_the_command_quietly(args: list[str], tmp_path: Path) -> None:
    env = {"HOME": str(tmp_path), "XDG_CONFIG_HOME": str(tmp_path / ".config")}
    if args == ["install-dry-run"]:
        plugin = tmp_path / "plugin"
        plugin.mkdir()
        (plugin / "plugin.json").write_text('{"name": "p", "version": "1.0.0"}')
        (plugin / "hooks.json").write_text(json.dumps(
            {"$schema": "https://hookwire.dev/schemas/portable-hooks/0.1.0/hooks.schema.json",
             "hooks": {"session-start": [{"command": "./x"}]}}))
        args = ["install", "--client", "claude-code", str(plugin), "--dry-run"]
    status, stderr = _closed_pipe_run(*args, cwd=tmp_path, env=env)
    # argparse's own help printer swallows the error itself: quiet, whatever the status
    assert stderr == "" and status == (0 if args == ["--help"] else 141)


def test_ctrl_c_ends_a_running_hook_quietly(tmp_path: Path) -> None:
    started = tmp_path / "started"
    hook = tmp_path / "slow.sh"
    hook.write_text(f"#!/bin/sh\ncat >/dev/null\ntouch {started}\nexec sleep 60\n")
    hook.chmod(0o755)
    config = tmp_path / "settings.json"
    config.write_text(json.dumps({"hooks": {"Stop": [{"hooks": [
        {"type": "command", "command": str(hook)}]}]}}))
    # Ctrl-C in a terminal: SIGINT at its default, whatever this test run inherited (a job
    # started in the background by a shell without job control ignores SIGINT)
    proc = subprocess.Popen([sys.executable, "-m", "hookwire", "fire", "Stop", "--dialect",
                             "claude", "--config", str(config)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        deadline = time.monotonic() + 60  # a bound on waiting, not a timing assertion
        while not started.exists() and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)
        assert started.exists()
        proc.send_signal(signal.SIGINT)
        _, stderr = proc.communicate(timeout=60)
    finally:
        proc.kill()
    assert proc.returncode == 130
    assert "Traceback" not in stderr and "KeyboardInterrupt" not in stderr
