"""Built-in native plugins and runtime adapters, registered through ``hookwire.plugins``.

An entry point names a plugin object; the built-ins make theirs with :func:`declare` (hook
implementations by hookspec name) or :func:`hosts` (host profiles), instead of a one-method
class each.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from hookwire.hookspecs import hookimpl

if TYPE_CHECKING:
    from hookwire.hosts import HostProfile

__all__ = ["Declared", "declare", "hosts"]


class Declared:
    """A plugin object holding hook implementations as attributes (pluggy registers it as it
    registers a module: the functions are called as they are, without ``self``)."""

    def __init__(self, impls: dict[str, Callable[..., Any]]) -> None:
        self._hooks = tuple(impls)
        for hook, function in impls.items():
            setattr(self, hook, hookimpl(function))

    def __repr__(self) -> str:
        return f"<plugin {', '.join(self._hooks)}>"


def declare(**impls: Callable[..., Any]) -> Declared:
    """The plugin object of an entry point: ``impls`` maps hookspec names to functions, as in
    ``declare(register_commands=add_parser)``."""
    return Declared(impls)


def hosts(*profiles: HostProfile) -> Declared:
    """The plugin object of an entry point that declares host ``profiles``."""

    def register_hosts() -> list[HostProfile]:
        return list(profiles)

    return declare(register_hosts=register_hosts)
