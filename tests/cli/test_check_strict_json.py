"""`hookwire check` never says "runs" for a hook that cannot run; `--strict` and `--json`.
Real hooks files, real scripts, the real command, a private HOME."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from hookwire import Kernel
from hookwire.dialect import HookEntry

pytestmark = pytest.mark.skipif(not {"claude", "codex"} <= set(Kernel().dialects),
                                reason="the claude and codex dialects are not installed")


class Project:
    def __init__(self, root: Path, home: Path) -> None:
        self.root = root
        self.env = {**os.environ, "HOME": str(home), "XDG_CONFIG_HOME": str(home / ".config")}
        self.env.pop("CODEX_HOME", None)

    def hookwire(self, *args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "hookwire.cli", *args], cwd=self.root,
                              env=self.env, capture_output=True, text=True, timeout=60)

    def script(self, rel: str, *, executable: bool = True) -> Path:
        path = self.root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(f'#!/bin/sh\necho ran >> "{self.root / "ran.log"}"\n')
        path.chmod(0o755 if executable else 0o644)
        return path

    def hooks(self, text: str) -> Path:
        path = self.root / ".hookwire" / "hooks.yaml"
        path.parent.mkdir(exist_ok=True)
        path.write_text("version: 1\n" + text)
        return path

    def check_json(self, *args: str) -> tuple[int, dict[str, object]]:
        out = self.hookwire("check", "--json", *args)
        return out.returncode, json.loads(out.stdout)


@pytest.fixture
def project(tmp_path: Path) -> Project:
    (tmp_path / "home" / ".config").mkdir(parents=True)
    (tmp_path / "proj").mkdir()
    return Project(tmp_path / "proj", tmp_path / "home")


def hook(dialect: str, event: str, command: str, matcher: str | None = None,
         extra: str = "") -> str:
    text = f"  - dialect: {dialect}\n    event: {event}\n    type: command\n" \
           f"    command: {command}\n"
    if matcher is not None:
        text += f"    matcher: {json.dumps(matcher)}\n"
    return text + extra


def status_of(out: str, needle: str) -> str:
    lines = [line for line in out.splitlines() if needle in line]
    assert len(lines) == 1, out
    return lines[0]


def test_a_runnable_hook_runs_and_strict_exits_zero(project: Project) -> None:
    project.script("hooks/ok.sh")
    project.hooks("hooks:\n" + hook("claude", "PreToolUse", "[./hooks/ok.sh]", "Bash"))
    out = project.hookwire("check", "--strict")
    assert out.returncode == 0, out.stdout
    assert out.stdout.startswith("runs        .hookwire/hooks.yaml:3  claude:PreToolUse [Bash]")


@pytest.mark.parametrize(("dialect", "matcher", "says"), [
    ("claude", "(?i)bash", "not a valid JavaScript regular expression"),
    ("claude", "Bash(", "not a valid JavaScript regular expression"),
    ("codex", "(?=Bash)", "not a valid Rust regex"),
    ("codex", "[Bash", "not a valid Rust regex"),
])
def test_invalid_regex_matcher_is_invalid_and_fails_strict(project: Project, dialect: str,
                                                           matcher: str, says: str) -> None:
    project.script("hooks/ok.sh")
    project.hooks("hooks:\n" + hook(dialect, "PreToolUse", "[./hooks/ok.sh]", matcher))
    for args in (("check",), ("check", "--strict")):
        out = project.hookwire(*args)
        assert out.returncode == 1, out.stdout
        line = status_of(out.stdout, "PreToolUse")
        assert line.startswith("invalid     .hookwire/hooks.yaml:3") and says in line
        assert "runs " not in out.stdout


def test_valid_regex_of_each_dialect_runs(project: Project) -> None:
    project.script("hooks/ok.sh")
    project.hooks("hooks:\n"
                  + hook("claude", "PreToolUse", "[./hooks/ok.sh]", "^(Bash|Write)$")
                  + hook("codex", "PreToolUse", "[./hooks/ok.sh]", "^Ba.*")
                  # no matcher on Stop: whatever is written there is ignored
                  + hook("codex", "Stop", "[./hooks/ok.sh]", "[x"))
    out = project.hookwire("check", "--strict")
    assert out.returncode == 0, out.stdout
    assert out.stdout.count("\nruns ") + out.stdout.startswith("runs ") == 3


def test_missing_script_is_missing_and_fails_strict(project: Project) -> None:
    project.hooks("hooks:\n" + hook("claude", "PreToolUse", "[./hooks/nope.sh, -v]", "Bash"))
    out = project.hookwire("check")
    line = status_of(out.stdout, "PreToolUse")
    assert line.startswith("missing     .hookwire/hooks.yaml:3") and "'./hooks/nope.sh'" in line
    assert out.returncode == 0  # nothing invalid: only --strict fails on it
    strict = project.hookwire("check", "--strict")
    assert strict.returncode == 1 and strict.stdout == out.stdout


def test_missing_script_of_an_interpreter_and_missing_program(project: Project) -> None:
    project.hooks("hooks:\n"
                  + hook("claude", "Stop", "[python3, hooks/gone.py]")
                  + hook("codex", "Stop", "[no-such-program-hookwire-test]")
                  + hook("claude", "SessionStart", "[python3, -c, 'print(1)']"))
    out = project.hookwire("check", "--strict")
    assert out.returncode == 1
    assert "'hooks/gone.py' not found" in status_of(out.stdout, "claude:Stop")
    assert status_of(out.stdout, "claude:Stop").startswith("missing ")
    codex = status_of(out.stdout, "codex:Stop")
    assert codex.startswith("missing ") and "'no-such-program-hookwire-test' not found" in codex
    assert status_of(out.stdout, "SessionStart").startswith("runs ")


def test_not_executable_script(project: Project) -> None:
    project.script("hooks/plain.sh", executable=False)
    project.script("hooks/viash.sh", executable=False)
    project.hooks("hooks:\n" + hook("claude", "PreToolUse", "[./hooks/plain.sh]", "Bash")
                  + hook("claude", "Stop", "[sh, ./hooks/viash.sh]"))
    out = project.hookwire("check", "--strict")
    assert out.returncode == 1
    line = status_of(out.stdout, "PreToolUse")
    assert line.startswith("not executable .hookwire/hooks.yaml:3")
    assert str(project.root / "hooks" / "plain.sh") in line
    assert status_of(out.stdout, "claude:Stop").startswith("runs ")  # sh reads the script


def test_untrusted_and_not_emitted_fail_strict(project: Project) -> None:
    project.script("hooks/ok.sh")
    project.hooks("hooks:\n"
                  + hook("claude", "PreToolUse", "[./hooks/ok.sh]", "Bash",
                         "    source: imported:claude\n"))
    out = project.hookwire("check", "--strict")
    assert out.returncode == 1 and out.stdout.startswith("untrusted "), out.stdout
    project.hookwire("trust", "--all")
    assert project.hookwire("check", "--strict").returncode == 0
    project.hooks("hooks:\n" + hook("claude", "SubagentStop", "[./hooks/ok.sh]"))
    out = project.hookwire("check", "--strict")
    assert out.returncode == 1 and out.stdout.startswith("not emitted "), out.stdout
    assert project.hookwire("check").returncode == 0


def test_json_lists_every_hook_with_status_and_counts(project: Project) -> None:
    project.script("hooks/ok.sh")
    hooks_file = project.hooks("hooks:\n"
                               + hook("claude", "PreToolUse", "[./hooks/ok.sh]", "Bash")
                               + hook("claude", "PreToolUse", "[./hooks/ok.sh]", "(?i)bash")
                               + hook("codex", "PreToolUse", "[./hooks/nope.sh]", "Bash")
                               + hook("claude", "NoSuchEvent", "[./hooks/ok.sh]"))
    code, doc = project.check_json()
    assert code == 1  # an invalid hook
    assert doc["host"] == "reference"
    rows = doc["hooks"]
    assert isinstance(rows, list) and len(rows) == 4
    assert [r["status"] for r in rows] == ["runs", "invalid", "missing", "invalid"]
    assert [r["line"] for r in rows] == [3, 8, 13, 18]
    assert {r["file"] for r in rows} == {str(hooks_file)}
    first = rows[0]
    assert set(first) == {"status", "file", "line", "dialect", "event", "matcher", "command",
                          "detail", "provenance", "project", "id"}
    assert first["dialect"] == "claude" and first["event"] == "PreToolUse"
    assert first["matcher"] == "Bash" and first["command"] == ["./hooks/ok.sh"]
    assert first["provenance"] == "project" and len(str(first["id"])) == 12
    assert "JavaScript" in str(rows[1]["detail"])
    assert rows[2]["dialect"] == "codex" and "nope.sh" in str(rows[2]["detail"])
    assert rows[3]["event"] == "NoSuchEvent" and rows[3]["id"] is None
    summary = doc["summary"]
    assert isinstance(summary, dict)
    assert summary["total"] == 4 and summary["runs"] == 1 and summary["invalid"] == 2
    assert summary["missing"] == 1 and summary["not running"] == 3
    assert project.check_json("--strict")[0] == 1


def test_json_of_a_broken_hooks_file_exits_2(project: Project) -> None:
    project.hooks("hooks:\n  - dialect: claude\n    event: Stop\n    type: command\n"
                  "    command: ls -l\n")
    out = project.hookwire("check", "--json")
    assert out.returncode == 2
    doc = json.loads(out.stdout)
    (error,) = doc["errors"]
    assert error["line"] == 6 and error["file"].endswith("hooks.yaml")


def test_json_without_hooks_files_lists_the_harness_files_hooks(project: Project) -> None:
    (project.root / ".claude").mkdir()
    (project.root / ".claude" / "settings.json").write_text(json.dumps({"hooks": {"Stop": [
        {"hooks": [{"type": "command", "command": "true"}]}]}}))
    code, doc = project.check_json("--strict")
    assert code == 0 and doc["enforcement"] == "enforce"
    (row,) = doc["hooks"]
    assert row["file"].endswith(".claude/settings.json") and row["event"] == "Stop"
    assert row["status"] == "runs" and row["provenance"] == "project"
    assert row["project"] == str(project.root.resolve())


def test_trusted_non_executable_script_still_does_not_run(project: Project) -> None:
    """The trust gate runs a private copy; it must not turn a file the harness could not
    execute into one that runs."""
    project.script("hooks/plain.sh", executable=False)
    project.hooks("hooks:\n" + hook("claude", "PreToolUse", "[./hooks/plain.sh]", "Bash",
                                    "    source: imported:claude\n"))
    project.hookwire("trust", "--all")
    out = project.hookwire("check", "--strict")
    assert out.returncode == 1 and out.stdout.startswith("not executable "), out.stdout
    code = ("import anyio, json\n"
            "from hookwire import Kernel, ToolPre\n"
            "from hookwire.config import install\n"
            "k = Kernel(); install(k)\n"
            "async def go():\n"
            "    async with k.session(cwd='.') as s:\n"
            "        v = await s.dispatch(ToolPre(tool_name='Bash', tool_input={}))\n"
            "        print(json.dumps([h.outcome for h in v.hooks]))\n"
            "anyio.run(go)\n")
    ran = subprocess.run([sys.executable, "-c", code], cwd=project.root, env=project.env,
                         capture_output=True, text=True, timeout=60, check=True)
    assert json.loads(ran.stdout) == ["failed_to_start"]
    assert not (project.root / "ran.log").exists()


def test_matcher_problem_asks_the_dialect() -> None:
    kernel = Kernel()

    def problem(dialect: str, event: str, matcher: str | None) -> str | None:
        entry = HookEntry(dialect=dialect, event=event, command=("x",), matcher=matcher)
        return kernel.dialect(dialect).matcher_problem(entry)  # type: ignore[no-any-return]

    assert problem("claude", "PreToolUse", "Bash|Write") is None
    assert problem("claude", "PreToolUse", "mcp__.*") is None
    assert problem("claude", "PreToolUse", "(?<name>B)ash") is None  # JS named group
    assert problem("claude", "PreToolUse", "(?P<name>B)ash") is not None  # Python-only
    assert problem("claude", "UserPromptSubmit", "(?i)x") is None  # no matcher: ignored
    assert problem("codex", "PreToolUse", r"(\w)\1") is not None  # no back-references
    assert problem("codex", "PreToolUse", "(?<name>B)ash") is None  # Rust named group
    assert problem("codex", "UserPromptSubmit", "[") is None
    assert problem("portable", "pre-tool-use", "[") is None  # the base: no matcher syntax


def test_json_warnings_carry_their_problem_kind(project: Project) -> None:
    project.hooks("sources:\n  - dialect: codex\n    path: .codex/hooks.json\n"
                  "    optional: true\n")
    code, doc = project.check_json()
    assert code == 0
    (warning,) = doc["warnings"]  # type: ignore[misc]
    assert warning["kind"] == "config" and "does not exist: skipped" in warning["message"]
