r"""Codex's matcher: match-all, an exact ``|`` list, or an unanchored Rust regex.

1. omitted, ``""`` or ``"*"`` match everything;
2. only ASCII letters, digits, ``_`` and ``|`` → exact, case-sensitive comparison with each
   ``|``-separated name;
3. anything else is a Rust ``regex`` pattern searched anywhere in the input.

Rust's ``regex`` crate has no look-around, back-references, atomic groups or possessive
quantifiers: patterns using them are invalid in Codex (the whole group is skipped), and so
they are here, although Python's ``re`` would accept them.

Rust's Unicode property classes (``\p{Greek}``, ``\pL``, ``\P{Lu}``, ``\p{Script=Han}``),
which ``re`` does not have, run on the ``regex`` package (PyPI), which has them; every other
pattern runs on ``re``. An unknown property is invalid in both.
"""

from __future__ import annotations

import functools
import importlib
import re
from collections.abc import Iterable
from typing import Any, Protocol

_EXACT = re.compile(r"[A-Za-z0-9_|]*")
# Constructs Python accepts and Rust's regex crate rejects.
_RUST_REJECTS = re.compile(r"\(\?<?[=!]|\(\?>|\\[1-9]|[*+?}]\+")
_NAMED_GROUP = re.compile(r"\(\?<([A-Za-z_][A-Za-z0-9_]*)>")


class Searcher(Protocol):
    """A compiled pattern (``re`` or the ``regex`` package's)."""

    def search(self, string: str) -> Any: ...


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
def compile_regex(pattern: str) -> Searcher:
    """Compile a Rust-syntax pattern with Python's ``re`` (the ``regex`` package when it has a
    Unicode property class); :class:`MatcherError` if invalid."""
    bad = _RUST_REJECTS.search(_strip_classes(pattern))
    if bad:
        raise MatcherError(pattern, f"unsupported construct {bad.group(0)!r}")
    py = _NAMED_GROUP.sub(r"(?P<\1>", pattern).replace(r"\z", r"\Z")
    if not _has_property_class(pattern):
        try:
            return re.compile(py)
        except re.error as exc:
            raise MatcherError(pattern, str(exc)) from None
    engine: Any = importlib.import_module("regex")  # imported only for such a pattern
    try:
        compiled: Searcher = engine.compile(py)
    except engine.error as exc:
        raise MatcherError(pattern, str(exc)) from None
    return compiled


def _has_property_class(pattern: str) -> bool:
    r"""Whether ``pattern`` has a ``\p``/``\P`` escape (escapes read left to right, so an
    escaped backslash followed by ``p`` is not one)."""
    return any(m.group(0) in ("\\p", "\\P") for m in re.finditer(r"\\.", pattern, re.DOTALL))


def _strip_classes(pattern: str) -> str:
    # Escaped characters (and a property class's braces) cannot start a construct; drop them
    # before looking for one.
    return re.sub(r"\\[pP]\{[^}]*\}|\\[^1-9]", "", pattern)


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
