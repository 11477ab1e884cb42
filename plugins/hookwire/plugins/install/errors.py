"""Errors of ``hookwire install``/``uninstall``."""

from __future__ import annotations

from hookwire.errors import HookwireError


class InstallError(HookwireError, RuntimeError):
    """An install or uninstall cannot go ahead; nothing was written (the message says why)."""
