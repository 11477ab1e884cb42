"""``hookwire install``/``uninstall``: compile a portable plugin's ``hooks.json`` into agent
clients' native hook configuration, with receipts, exact uninstall and a capability report.

One module per client (``claude_code``, ``codex``, ``cursor``, ``copilot_cli``, ``gemini_cli``,
``cline``, ``windsurf``, ``opencode``); ``engine`` plans and applies; ``shim`` is what the
installed entries run; ``cli`` registers the commands (see :func:`cli.add_parser`).
"""

from __future__ import annotations

from hookwire.plugins.install.engine import Result, client, clients, install, uninstall
from hookwire.plugins.install.errors import InstallError

__all__ = ["InstallError", "Result", "client", "clients", "install", "uninstall"]
