"""The ``hookwire.plugins`` entry point ``install``: adds ``install``, ``uninstall`` and
``portable-hook`` to the ``hookwire`` command line.

Kept apart from :mod:`hookwire.plugins.install.cli` so that loading the entry point (every
``Kernel()``) costs nothing until the command line is actually built.
"""

from __future__ import annotations

from typing import Any

from hookwire.plugins import declare


def register_commands(subparsers: Any) -> None:
    from hookwire.plugins.install.cli import add_parser

    add_parser(subparsers)


plugin = declare(register_commands=register_commands)
