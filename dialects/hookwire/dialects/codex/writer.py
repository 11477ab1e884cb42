"""Writing Codex's ``hooks.json``: the inverse of :func:`.config.read_hooks_json` for command
hooks.

The document is ``{"hooks": {Event: [{"matcher"?, "hooks": [handler, ...]}, ...]}}``, one group
per consecutive run of one event and matcher. Handlers keep the command as written in the file
they were read from, and only the fields that were set there (``timeout``, ``async``,
``statusMessage``, ``additionalContextLimit``); Codex's trust bookkeeping is never written.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from hookwire.dialect import HookEntry
from hookwire.dialects.codex import config


def write_config(entries: Sequence[HookEntry]) -> dict[str, Any]:
    """The ``hooks.json`` document holding ``entries``, as Codex reads it."""
    # the reader's inverse lives beside the reader while its fields are being typed
    return config.to_hooks_json(entries)
