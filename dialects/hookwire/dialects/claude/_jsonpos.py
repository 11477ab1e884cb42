"""JSON with the line of each value: :mod:`hookwire.wire`, kept under its old name.

``loads_with_lines`` gives the value (duplicate keys: the last wins, as ``JSON.parse``) and
``lines``, each value's path (a tuple of keys and indices, ``()`` for the root) → 1-based line.
"""

from __future__ import annotations

from typing import Any

from hookwire.wire import Path, line_for, pointer, read_json

__all__ = ["Path", "line_for", "loads_with_lines", "pointer"]


def loads_with_lines(text: str) -> tuple[Any, dict[Path, int]]:
    """Parse ``text``; raise :class:`~hookwire.errors.WireError` (with ``line``) when invalid."""
    doc = read_json(text)
    return doc.value, dict(doc.lines)
