"""Codex's matcher: the verified 0.171.0 table for ``Bash``, Rust-only syntax, and properties."""

from __future__ import annotations

import re
from typing import Any

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


@pytest.mark.parametrize(("pattern", "name", "expected"), [
    (r"^\p{Greek}+$", "Ωμέγα", True), (r"^\p{Greek}+$", "Bash", False),
    (r"mcp__\pL+__\p{Lu}", "mcp__mem__Create", True), (r"\P{L}", "Bash", False),
    (r"^[\p{Script=Han}\d]+$", "工具2", True), (r"\p{Lu}\p{Ll}+", "bash", False),
    (r"\\p", "\\p", True),  # an escaped backslash, then a plain p: Python's re
])
def test_unicode_property_classes_match_as_in_rust(pattern: str, name: str,
                                                   expected: bool) -> None:
    m.validate(pattern)
    assert m.matches(pattern, [name]) is expected


def test_unicode_property_classes_keep_rusts_rules() -> None:
    for invalid in (r"\p{NoSuchProperty}", r"\p{Greek}++", r"(?=\p{L})x", r"(\pL)\1"):
        with pytest.raises(m.MatcherError):
            m.validate(invalid)
    assert not m.matches(r"\p{NoSuchProperty}", ["Bash"])


@pytest.mark.anyio
async def test_a_property_class_matcher_runs_its_hook(tmp_path: Any, codex_home: Any) -> None:
    r"""Through the kernel: a hook behind ``\p{Lu}`` runs for ``Bash`` and not for ``bash``."""
    import json
    from pathlib import Path

    from hookwire import Kernel
    from hookwire.dialects.codex import CodexDialect

    log = Path(tmp_path) / "ran"
    path = Path(tmp_path) / "hooks.json"
    path.write_text(json.dumps({"hooks": {"PreToolUse": [{"matcher": r"^\p{Lu}\p{Ll}+$",
        "hooks": [{"type": "command", "command": f"cat >/dev/null; echo ran >> {log}"}]}]}}))
    kernel = Kernel(load_entry_points=False)
    kernel.add_dialect(CodexDialect(codex_home=codex_home))
    kernel.add_config("codex", path)
    async with kernel.session(cwd=str(tmp_path)) as s:
        await s.tool_pre("bash", {"command": "ls"})
        assert not log.exists()
        await s.tool_pre("Bash", {"command": "ls"})
    assert log.read_text() == "ran\n"


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
