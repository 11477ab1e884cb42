"""Codex's matcher: match-all, an exact ``|`` list, or an unanchored Rust regex.

1. omitted, ``""`` or ``"*"`` match everything;
2. only ASCII letters, digits, ``_`` and ``|`` → exact, case-sensitive comparison with each
   ``|``-separated name;
3. anything else is a Rust ``regex`` pattern searched anywhere in the input.

Rust's ``regex`` crate has no look-around, back-references, atomic groups or possessive
quantifiers: patterns using them are invalid in Codex (the whole group is skipped), and so
they are here, although Python's ``re`` would accept them.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable

_EXACT = re.compile(r"[A-Za-z0-9_|]*")
# Constructs Python accepts and Rust's regex crate rejects.
_RUST_REJECTS = re.compile(r"\(\?<?[=!]|\(\?>|\\[1-9]|[*+?}]\+")
_NAMED_GROUP = re.compile(r"\(\?<([A-Za-z_][A-Za-z0-9_]*)>")


class MatcherError(ValueError):
    """A matcher is not a valid Rust regex (``pattern``; the message says why)."""

    def __init__(self, pattern: str, message: str) -> None:
        self.pattern = pattern
        super().__init__(f"regex parse error: {message}")


def is_match_all(matcher: str | None) -> bool:
    return matcher is None or matcher in ("", "*")


def is_exact(matcher: str) -> bool:
    return _EXACT.fullmatch(matcher) is not None


@functools.lru_cache(maxsize=512)
def compile_regex(pattern: str) -> re.Pattern[str]:
    """Compile a Rust-syntax pattern with Python's ``re``; :class:`MatcherError` if invalid."""
    bad = _RUST_REJECTS.search(_strip_classes(pattern))
    if bad:
        raise MatcherError(pattern, f"unsupported construct {bad.group(0)!r}")
    py = _NAMED_GROUP.sub(r"(?P<\1>", pattern).replace(r"\z", r"\Z")
    try:
        return re.compile(py)
    except re.error as exc:
        raise MatcherError(pattern, str(exc)) from None


def _strip_classes(pattern: str) -> str:
    # Escaped characters cannot start a construct; drop them before looking for one.
    return re.sub(r"\\[^1-9]", "", pattern)


def validate(matcher: str | None) -> None:
    """Raise :class:`MatcherError` when Codex would skip the group of ``matcher``."""
    if is_match_all(matcher) or is_exact(matcher or ""):
        return
    assert matcher is not None
    compile_regex(matcher)


def matches(matcher: str | None, inputs: Iterable[str | None]) -> bool:
    """Whether ``matcher`` selects a hook for any of ``inputs`` (canonical name + aliases)."""
    if is_match_all(matcher):
        return True
    assert matcher is not None
    values = [v for v in inputs if v is not None]
    if is_exact(matcher):
        names = matcher.split("|")
        return any(v in names for v in values)
    try:
        regex = compile_regex(matcher)
    except MatcherError:
        return False
    return any(regex.search(v) is not None for v in values)
