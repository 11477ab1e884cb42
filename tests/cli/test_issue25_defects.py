"""The eight small defects of issue #25, each found by trying hookwire as a new user would."""

from __future__ import annotations

import os
import subprocess
import sys


def _cli(*args: str, env: dict[str, str] | None = None,
         cwd: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "hookwire.cli", *args], capture_output=True,
                          text=True, timeout=120, env={**os.environ, **(env or {})}, cwd=cwd)


def test_demo_with_claude_disabled_says_disabled_not_missing() -> None:
    proc = _cli("demo", env={"HOOKWIRE_DISABLE_PLUGINS": "claude"})
    assert proc.returncode == 1
    assert "not installed" not in proc.stdout
    assert "'claude' is disabled by HOOKWIRE_DISABLE_PLUGINS" in proc.stdout


def test_fire_on_a_codex_file_it_cannot_read_exits_2_and_says_so_once(tmp_path) -> None:
    deep = tmp_path / "hooks.json"
    deep.write_text('{"hooks":' + "[" * 100_000 + "]" * 100_000 + "}")
    data = '{"tool_name": "Bash", "tool_input": {"command": "ls"}}'
    for dialect in ("codex", "claude"):
        proc = _cli("fire", "PreToolUse", "--dialect", dialect, "--config", str(deep),
                    "--data", data)
        assert proc.returncode == 2, (dialect, proc.stdout, proc.stderr)
        assert proc.stdout == ""  # no verdict for a config that was never read
        assert proc.stderr.count("nested deeper than") == 1, proc.stderr
        assert "WARNING" not in proc.stderr


def test_fire_prints_each_config_warning_once(tmp_path) -> None:
    config = tmp_path / "hooks.json"
    config.write_text('{"hooks": {"PreToolUse": [{"matcher": "(", "hooks": [{"type": "command",'
                      ' "command": "true"}]}]}}')
    proc = _cli("fire", "PreToolUse", "--dialect", "codex", "--config", str(config),
                "--data", '{"tool_name": "Bash", "tool_input": {"command": "ls"}}')
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr.count('invalid matcher "("') == 1, proc.stderr


def test_updated_input_on_post_tool_use_is_ignored_with_a_diagnostic(tmp_path) -> None:
    import json

    hook = tmp_path / "post.sh"
    hook.write_text("#!/bin/sh\necho '{\"hookSpecificOutput\": {\"hookEventName\": "
                    "\"PostToolUse\", \"updatedInput\": {\"command\": \"rm -rf /\"}}}'\n")
    hook.chmod(0o755)
    config = tmp_path / "settings.json"
    config.write_text(json.dumps({"hooks": {"PostToolUse": [
        {"matcher": "Bash", "hooks": [{"type": "command", "command": str(hook)}]}]}}))
    data = {"tool_name": "Bash", "tool_input": {"command": "ls"}, "tool_use_id": "t1",
            "tool_response": {"stdout": "a", "stderr": ""}}
    for dialect, needle in (("claude", "updatedInput is ignored on PostToolUse"),
                            ("codex", "invalid post-tool-use JSON output")):
        proc = _cli("fire", "PostToolUse", "--dialect", dialect, "--config", str(config),
                    "--data", json.dumps(data), "--cwd", str(tmp_path))
        assert proc.returncode == 0, proc.stderr
        verdict = json.loads(proc.stdout)
        assert verdict["updated_input"] is None and verdict["decision"] == "none"
        [run] = verdict["hooks"]
        assert any(needle in d for d in run["diagnostics"]), (dialect, run)


def test_check_summary_names_only_the_statuses_that_occur(tmp_path) -> None:
    (tmp_path / ".hookwire").mkdir()
    ok = tmp_path / "ok.sh"
    ok.write_text("#!/bin/sh\nexit 0\n")
    ok.chmod(0o755)
    (tmp_path / ".hookwire" / "hooks.yaml").write_text(
        "hooks:\n"
        f"  - {{dialect: claude, event: PreToolUse, type: command, command: [{ok}]}}\n"
        "  - {dialect: claude, event: PreToolUse, type: command, command: [./gone.sh]}\n")
    proc = _cli("check", cwd=str(tmp_path), env={"HOME": str(tmp_path),
                                                 "XDG_CONFIG_HOME": str(tmp_path / "cfg")})
    summary = proc.stdout.splitlines()[-1]
    assert summary.startswith("2 hooks for host reference: "), proc.stdout
    counts = dict(reversed(part.split(" ", 1)) for part in summary.split(": ", 1)[1].split(", "))
    assert counts["missing"] == "1"
    assert all(int(n) > 0 for n in counts.values()), summary  # never "0 untrusted"
    assert sum(int(n) for n in counts.values()) == 2


def test_a_hook_that_cannot_start_or_is_killed_is_a_logged_warning(tmp_path, caplog) -> None:
    import json
    import logging

    import anyio

    from hookwire import Kernel

    settings = tmp_path / "settings.json"
    settings.write_text(json.dumps({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
        {"type": "command", "command": "/nonexistent/hook-binary"},
        {"type": "command", "command": "kill -9 $$"}]}]}}))
    kernel = Kernel()
    kernel.add_config("claude", settings)

    async def go() -> object:
        async with kernel.session(cwd=str(tmp_path)) as session:
            return await session.tool_pre("Bash", {"command": "ls"})

    with caplog.at_level(logging.WARNING, logger="hookwire"):
        verdict = anyio.run(go)
    assert not verdict.denied  # Claude Code: non-blocking, the call goes ahead
    warned = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    nothing = "A hook gave no usable answer, so it didn't check this action."
    assert any("/nonexistent/hook-binary could not start" in w and nothing in w
               for w in warned), warned
    assert any("kill -9 $$ was killed by a signal" in w and nothing in w for w in warned), warned


def test_trust_refuses_a_hook_whose_program_does_not_exist(tmp_path) -> None:
    """Issue #22 item 4: approving a missing target recorded a text-only pin, and a guard that
    never started then looked approved."""
    import json

    (tmp_path / ".claude").mkdir()
    (tmp_path / ".hookwire").mkdir()
    (tmp_path / ".hookwire" / "hooks.yaml").write_text(
        "sources:\n  - {dialect: claude, path: .claude/settings.json}\n")
    guard = tmp_path / "guard.sh"
    (tmp_path / ".claude" / "settings.json").write_text(json.dumps({"hooks": {"PreToolUse": [
        {"matcher": "Bash", "hooks": [{"type": "command", "command": str(guard)}]}]}}))
    env = {"HOME": str(tmp_path), "XDG_CONFIG_HOME": str(tmp_path / "cfg")}
    refused = _cli("trust", "--all", cwd=str(tmp_path), env=env)
    assert refused.returncode == 1
    assert "refused" in refused.stderr and f"'{guard}' not found" in refused.stderr
    assert "1 missing" in _cli("check", cwd=str(tmp_path), env=env).stdout
    guard.write_text("#!/bin/sh\nexit 0\n")
    guard.chmod(0o755)
    # nothing was recorded by the refused approval: the hook now waits for one
    assert _cli("check", cwd=str(tmp_path), env=env).stdout.splitlines()[-1].endswith(
        "1 untrusted")
    approved = _cli("trust", "--all", cwd=str(tmp_path), env=env)
    assert approved.returncode == 0 and approved.stdout.startswith("trusted"), approved.stderr
    assert _cli("check", cwd=str(tmp_path), env=env).stdout.splitlines()[-1].endswith("1 runs")
