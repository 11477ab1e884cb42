"""Matcher modes, row by row from the observed table (§8), plus properties."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hookwire.dialects.claude.matcher import check, is_regex, matches

# (matcher, matches Bash, matches Read) — observed on Claude Code 2.1.332.
OBSERVED = [
    ("Bash", True, False), ("bash", False, False), ("Ba.*", True, False),
    ("Bas", False, False), ("Bash|Read", True, True), ("ash", False, False),
    ("Read | Bash", True, True), ("bash|read", False, False), ("*", True, True),
    ("(?i)bash", False, False), ("", True, True), ("Bash(echo*)", False, False),
    (None, True, True), ("Read", False, True), (".*", True, True), ("^Bash$", True, False),
    (" Bash", True, False), ("Bash ", True, False), ("^Ba", True, False), ("B.*h", True, False),
    ("sh$", True, False), ("[Bb]ash", True, False), ("as.*", True, False),
    ("Nope|B.sh", True, False), ("B*", True, True),
]


@pytest.mark.parametrize(("matcher", "bash", "read"), OBSERVED)
def test_observed_matcher_table(matcher: str | None, bash: bool, read: bool) -> None:
    assert matches(matcher, "Bash") is bash
    assert matches(matcher, "Read") is read


def test_comma_lists_and_hyphens_are_exact() -> None:
    assert matches("Edit, Write", "Write")
    assert matches("Edit,Write", "Edit")
    assert not matches("Edit, Write", "NotebookEdit")
    assert matches("code-reviewer", "code-reviewer")
    assert not matches("code-reviewer", "senior-code-reviewer")


def test_regex_is_unanchored_and_case_sensitive() -> None:
    assert matches("Edit.*", "NotebookEdit")
    assert matches("mcp__memory__.*", "mcp__memory__create_entities")
    assert not matches("mcp__memory", "mcp__memory__create_entities")  # exact path
    assert matches("mcp__.*__write.*", "mcp__fs__write_file")
    assert not matches("MCP__.*", "mcp__fs__write_file")


def test_narrow_set_for_file_changed_and_stop_failure() -> None:
    assert matches("rate_limit|overloaded", "overloaded", narrow=True)
    # A hyphen sends the narrow matcher down the regex path: unanchored.
    assert matches("env-a", "xenv-ab", narrow=True)
    assert not matches("env-a", "xenv-ab")


def test_invalid_regex_never_matches_and_is_reported() -> None:
    assert not matches("Bash(", "Bash(")
    assert check("Bash(") is not None
    assert check("(?i)bash") is not None
    assert check("Bash|Read") is None
    assert matches("(?<tool>Ba)sh", "Bash")  # JavaScript named groups work


NAME = st.from_regex(r"[A-Za-z0-9_]{1,12}", fullmatch=True)


@given(st.lists(NAME, min_size=1, max_size=5), NAME, st.sampled_from(["|", ",", " | ", ", "]))
def test_word_lists_are_exact_membership(names: list[str], tool: str, sep: str) -> None:
    assert matches(sep.join(names), tool) is (tool in names)


@given(NAME)
def test_star_and_empty_match_everything(tool: str) -> None:
    assert matches("*", tool) and matches("", tool) and matches(None, tool)
    assert matches("  *  ", tool)


@given(NAME, NAME)
def test_regex_path_agrees_with_search(prefix: str, tool: str) -> None:
    pattern = prefix + ".*"
    assert is_regex(pattern)
    assert matches(pattern, tool) is (re.search(pattern, tool) is not None)


@given(NAME)
def test_anchored_regex_is_whole_name(tool: str) -> None:
    assert matches(f"^{tool}$", tool)
    assert not matches(f"^{tool}$", tool + "x")
