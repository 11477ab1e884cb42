"""Gemini CLI's matchers (0.61.0): on ``BeforeTool``/``AfterTool`` a JavaScript regular
expression searched in the tool name (a pattern JavaScript rejects is compared as a literal
name); on ``SessionStart``/``SessionEnd``/``PreCompress`` an exact string; ignored elsewhere.
An empty matcher or ``*`` (after trimming) matches everything.

Python's ``re`` stands in for JavaScript's ``RegExp``: the two agree on the patterns hooks are
written with (names, alternations, ``.*``, classes, anchors); where they differ (lookbehind
and named-group syntax, ``\\d`` on non-ASCII digits) hookwire follows Python (D1).
"""

from __future__ import annotations

import functools
import re

from hookwire.dialects.gemini.events import TOOL_EVENTS, TRIGGER_EVENTS


@functools.lru_cache(maxsize=512)
def _compiled(pattern: str) -> re.Pattern[str] | None:
    try:
        return re.compile(pattern)
    except re.error:
        return None


def matches(matcher: str | None, event: str, value: str | None) -> bool:
    """Whether a hook of ``event`` with ``matcher`` runs for ``value`` (the tool name, or the
    trigger; ``None``: the event passes no matcher context, so every hook runs)."""
    if matcher is None or value is None:
        return True
    m = matcher.strip()
    if m in ("", "*"):
        return True
    if event in TOOL_EVENTS:
        regex = _compiled(m)
        return regex.search(value) is not None if regex is not None else m == value
    if event in TRIGGER_EVENTS:
        return m == value
    return True
