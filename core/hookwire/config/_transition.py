"""TRANSITIONAL: the kind of a problem whose reader did not give one, guessed as before.

``hookwire import`` decides by :attr:`~hookwire.ConfigProblem.kind` and ``severity``. Until the
dialects' readers give each problem its :class:`~hookwire.ProblemKind`, a problem left at the
default (``CONFIG``) is classified here the old way: by the raw file's handler ``type`` and
the wording of the message. Delete this module once the readers set ``kind``.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from hookwire.dialect import ConfigProblem, Dialect, ProblemKind

Lookup = Callable[[Any, str], Any]


def raw(path: Path) -> Any:
    """The file as JSON (``None`` when it is not)."""
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def _handler_type(problem: ConfigProblem, data: Any, lookup: Lookup) -> str | None:
    node = lookup(data, problem.location.pointer)
    kind = node.get("type") if isinstance(node, Mapping) else None
    return kind if isinstance(kind, str) and kind != "command" else None


def problem_kind(problem: ConfigProblem, data: Any, dialect: Dialect,
                 lookup: Lookup) -> ProblemKind:
    """``problem.kind``; for the default ``CONFIG``, the kind guessed from the file and text."""
    if problem.kind is not ProblemKind.CONFIG:
        return problem.kind
    if _handler_type(problem, data, lookup) is not None:
        return ProblemKind.UNSUPPORTED
    if problem.event is not None and problem.event not in dialect.events:
        return ProblemKind.UNKNOWN_EVENT
    if "ignored" in problem.message or "skipped" in problem.message:
        return ProblemKind.INVALID_HANDLER
    return ProblemKind.CONFIG


def unsupported_reason(problem: ConfigProblem, data: Any, lookup: Lookup) -> str:
    """The reason an unsupported handler is rejected (the reader's message, or the old one)."""
    kind = _handler_type(problem, data, lookup)
    if problem.kind is ProblemKind.CONFIG and kind is not None:
        return f"unsupported handler type {kind!r} (only `command` handlers can run)"
    return problem.message
