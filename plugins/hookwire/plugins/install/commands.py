"""The ``hookwire.plugins`` entry point ``install``: adds ``install``, ``uninstall`` and
``portable-hook`` to the ``hookwire`` command line.

Kept apart from :mod:`hookwire.plugins.install.cli` so that loading the entry point (every
``Kernel()``) costs nothing until the command line is actually built.
"""

from __future__ import annotations

from typing import Any

from hookwire import hookimpl


class _Commands:
    @hookimpl
    def register_commands(self, subparsers: Any) -> None:
        from hookwire.plugins.install.cli import add_parser

        add_parser(subparsers)


plugin = _Commands()
