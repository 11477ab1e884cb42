"""Codex's matcher: the verified 0.171.0 table for ``Bash``, Rust-only syntax, and properties."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hookwire.dialects.codex import matcher as m

# contract §5, verified on 0.171.0 for the input "Bash"
TABLE = [("Bash", True), ("exec_command", False), ("^Ba", True), ("bash", False),
         ("Bash|Edit", True), (".*", True), ("*", True), ("", True), ("Ba", False),
         ("B.sh", True), ("ash", False), ("as.", True), ("^Bash$", True),
         ("Bash | Edit", False), (None, True)]


@pytest.mark.parametrize(("pattern", "expected"), TABLE)
def test_verified_table_for_bash(pattern: str | None, expected: bool) -> None:
    assert m.matches(pattern, ["Bash"]) is expected


def test_invalid_regex_is_rejected_and_never_matches() -> None:
    with pytest.raises(m.MatcherError):
        m.validate("[")
    assert not m.matches("[", ["Bash"])


@pytest.mark.parametrize("pattern", ["(?=Bash)", "(?!x)Bash", "(?<=a)b", "(a)\\1", "(?>a)",
                                     "a*+", "a++"])
def test_python_only_constructs_are_invalid_as_in_rust(pattern: str) -> None:
    re.compile(pattern)  # Python accepts it...
    with pytest.raises(m.MatcherError):  # ...Codex's regex crate does not
        m.validate(pattern)


def test_rust_named_groups_and_end_of_text() -> None:
    assert m.matches(r"(?<n>Ba)sh\z", ["Bash"])
    assert m.matches(r"mcp__memory__.*", ["mcp__memory__create"])
    assert not m.matches("mcp__memory", ["mcp__memory__create"])


def test_aliases_match_once() -> None:
    assert m.matches("Write", ["apply_patch", "Write", "Edit"])
    assert m.matches("Agent", ["spawn_agent", "Agent"])


NAME = st.text(alphabet="abcXYZ019_", min_size=1, max_size=8)


@given(names=st.lists(NAME, min_size=1, max_size=4), probe=NAME)
def test_exact_list_matches_iff_name_is_listed(names: list[str], probe: str) -> None:
    pattern = "|".join(names)
    assert m.is_exact(pattern)
    assert m.matches(pattern, [probe]) is (probe in names)


@given(probe=st.text(max_size=12))
def test_match_all_matchers_match_anything(probe: str) -> None:
    for pattern in (None, "", "*"):
        assert m.matches(pattern, [probe])


@given(word=NAME, probe=st.text(alphabet="abcXYZ019_-", max_size=12))
def test_regex_is_an_unanchored_search(word: str, probe: str) -> None:
    pattern = re.escape(word) + "-?"  # "-" makes it a regex, never an exact list
    assert not m.is_exact(pattern)
    assert m.matches(pattern, [probe]) is (word in probe)
