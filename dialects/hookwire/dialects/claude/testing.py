"""Helpers for tests of Claude Code hook suites: settings files written the Claude Code way."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any


def group(*commands: str | dict[str, Any], matcher: str | None = None) -> dict[str, Any]:
    """A matcher group; a string becomes ``{"type": "command", "command": s}``."""
    hooks = [c if isinstance(c, dict) else {"type": "command", "command": c} for c in commands]
    out: dict[str, Any] = {"hooks": hooks}
    if matcher is not None:
        out["matcher"] = matcher
    return out


def write_settings(path: Path, hooks: dict[str, Any] | None = None, **top: Any) -> Path:
    """Write a settings file (pretty-printed, as people do) with ``hooks`` and other keys."""
    path.parent.mkdir(parents=True, exist_ok=True)
    data = dict(top)
    if hooks is not None:
        data["hooks"] = hooks
    path.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    return path
