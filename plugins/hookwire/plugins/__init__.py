"""Built-in native plugins and runtime adapters, registered through ``hookwire.plugins``.

An entry point names a plugin object; the built-ins make theirs with :func:`declare` (hook
implementations by hookspec name; core's :func:`hookwire.declare`, re-exported here) or
:func:`hosts` (host profiles), instead of a one-method class each.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from hookwire.plugin import Declared, declare

if TYPE_CHECKING:
    from hookwire.hosts import HostProfile

__all__ = ["Declared", "declare", "hosts"]


def hosts(*profiles: HostProfile) -> Declared:
    """The plugin object of an entry point that declares host ``profiles``."""

    def register_hosts() -> list[HostProfile]:
        return list(profiles)

    return declare(register_hosts=register_hosts)
