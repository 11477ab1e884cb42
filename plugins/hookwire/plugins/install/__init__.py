"""``hookwire install``/``uninstall``: compile a portable plugin's ``hooks.json`` into agent
clients' native hook configuration, with receipts, exact uninstall and a capability report.

One module per client (``claude_code``, ``codex``, ``cursor``, ``copilot_cli``, ``gemini_cli``,
``cline``, ``windsurf``, ``opencode``, ...); ``engine`` plans and applies; ``entry`` compiles the
plan that the installed entries (``_entry/``, standard library only) run, and ``shim`` is the
full path they fall back to (and what ``--command`` entries run); ``cli`` registers the
commands (see :func:`cli.add_parser`).
"""

from __future__ import annotations

from typing import Any

__all__ = ["InstallError", "Result", "client", "clients", "install", "uninstall"]


def __getattr__(name: str) -> Any:
    # Lazy: the entry point (``install.commands``) is imported by every Kernel(); the engine
    # and the client modules only when something is installed.
    if name == "InstallError":
        from hookwire.plugins.install.errors import InstallError

        return InstallError
    if name in __all__:
        from hookwire.plugins.install import engine

        return getattr(engine, name)
    raise AttributeError(name)
