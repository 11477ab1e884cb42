"""Where Claude Code's file-based managed settings live, and the order they are read in.

Claude Code 2.1.332 reads ``managed-settings.json`` from a system folder (``/etc/claude-code``
on Linux, ``/Library/Application Support/ClaudeCode`` on macOS), then every ``*.json`` in
``managed-settings.d/`` beside it, sorted by name, hidden files left out; a later file wins a
scalar key, lists join, objects merge. ``$HOOKWIRE_CLAUDE_MANAGED_DIR`` (or the ``managed_dir``
argument of discovery) names another folder, for tests and for hosts that keep a copy.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from pathlib import Path

ENV = "HOOKWIRE_CLAUDE_MANAGED_DIR"


def managed_dir(env: Mapping[str, str] | None = None) -> Path:
    """The folder of the managed settings files: ``$HOOKWIRE_CLAUDE_MANAGED_DIR``, else the
    system folder Claude Code reads on this platform."""
    env = os.environ if env is None else env
    named = env.get(ENV)
    if named:
        return Path(os.path.expanduser(named))
    if sys.platform == "darwin":
        return Path("/Library/Application Support/ClaudeCode")
    return Path("/etc/claude-code")


def managed_files(folder: Path) -> list[Path]:
    """The managed settings files in ``folder`` that exist, in the order they merge."""
    found = [folder / "managed-settings.json"]
    drop_ins = folder / "managed-settings.d"
    try:
        names = sorted(p.name for p in drop_ins.iterdir())
    except OSError:
        names = []
    found += [drop_ins / n for n in names if n.endswith(".json") and not n.startswith(".")]
    return [p for p in found if p.is_file()]
