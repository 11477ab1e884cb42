"""The ``if`` filter (permission-rule syntax), evaluated on tool events."""

from __future__ import annotations

import pytest

from hookwire.dialects.claude.rules import allows, parse


def bash(rule: str, command: str) -> bool:
    return allows(rule, "Bash", {"command": command}, cwd="/p", project_dir="/p")


@pytest.mark.parametrize(("rule", "command", "expected"), [
    ("Bash(git *)", "git status", True),
    ("Bash(git *)", "git", True),
    ("Bash(git *)", "gitk", False),
    ("Bash(git commit:*)", "git commit -m x", True),
    ("Bash(git commit:*)", "git push", False),
    ("Bash(rm *)", "ls && rm -rf x", True),            # every subcommand
    ("Bash(rm *)", "ls; echo hi | rm x", True),
    ("Bash(rm *)", "FOO=1 rm x", True),                # leading assignment stripped
    ("Bash(rm *)", "ls -la", False),
    ("Bash(rm *)", "echo $(rm x)", True),              # inside $()
    ("Bash(git push *)", "git $CMD", True),            # dynamic: a long pattern runs anyway
    ("Bash(rm *)", "echo 'unterminated", True),        # unparsable: fail open
    ("Bash", "anything", True),
    ("Bash(*)", "anything", True),
    ("Read", "x", False),                              # other tool
])
def test_bash_rules(rule: str, command: str, expected: bool) -> None:
    assert bash(rule, command) is expected


@pytest.mark.parametrize(("rule", "path", "expected"), [
    ("Edit(*.ts)", "/p/src/deep/a.ts", True),
    ("Edit(*.ts)", "/p/src/a.js", False),
    ("Edit(src/**)", "/p/src/a/b.ts", True),
    ("Edit(src/**)", "/p/lib/src/b.ts", False),        # relative to cwd only (v2.1.214)
    ("Edit(**/src/**)", "/p/lib/src/b.ts", True),
    ("Edit(//etc/*)", "/etc/passwd", True),
    ("Edit(/docs/*.md)", "/p/docs/a.md", True),
])
def test_path_rules(rule: str, path: str, expected: bool) -> None:
    assert allows(rule, "Edit", {"file_path": path}, cwd="/p", project_dir="/p") is expected


def test_unparsable_rule_fails_open_and_mcp_server_rules() -> None:
    assert parse("Bash(") is None
    assert allows("Bash(", "Bash", {"command": "x"}, cwd="/", project_dir="/")
    assert allows("mcp__fs", "mcp__fs__write", {}, cwd="/", project_dir="/")
    assert not allows("mcp__fs", "mcp__git__log", {}, cwd="/", project_dir="/")
    assert allows("Task", "Agent", {"prompt": "x"}, cwd="/", project_dir="/")
    assert allows("WebFetch(domain:example.com)", "WebFetch",
                  {"url": "https://example.com/a"}, cwd="/", project_dir="/")
