"""The run log's switch: ``HOOKWIRE_RUN_LOG`` and where it says to record.

Apart from :mod:`.recorder` so that the entry point, loaded by every ``Kernel()``, reads the
switch without importing what recording needs (json, hashlib, the audit records).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pathlib import Path

#: ``HOOKWIRE_RUN_LOG=DIR`` turns the run log on (``1``: :func:`default_dir`).
ENV = "HOOKWIRE_RUN_LOG"
_OFF = ("", "0", "off", "false", "no")


def default_dir(env: Mapping[str, str] | None = None) -> Path:
    """``$XDG_STATE_HOME/hookwire/runs``, by default ``~/.local/state/hookwire/runs``."""
    from pathlib import Path

    env = os.environ if env is None else env
    state = env.get("XDG_STATE_HOME")
    if state and os.path.isabs(state):
        return Path(state) / "hookwire" / "runs"
    home = env.get("HOME") or os.path.expanduser("~")
    return Path(home) / ".local" / "state" / "hookwire" / "runs"


def log_dir(env: Mapping[str, str] | None = None) -> Path | None:
    """Where ``HOOKWIRE_RUN_LOG`` says to record, or ``None`` when it is off."""
    env = os.environ if env is None else env
    raw = env.get(ENV, "").strip()
    if raw.lower() in _OFF:
        return None
    from pathlib import Path

    return default_dir(env) if raw.lower() in ("1", "on", "true", "yes") else Path(raw)
