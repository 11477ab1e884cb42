"""One door for declaring a plugin: :func:`declare` builds the object an entry point names.

pluggy registers any object whose attributes are hook implementations. Instead of a
one-method class per entry point, a plugin says which functions implement which hookspecs::

    plugin = declare(register_dialects=lambda: [MyDialect()])

Built-in dialects and plugins use it, and so may a third party; a class with ``@hookimpl``
methods works just as well.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from hookwire.hookspecs import hookimpl

__all__ = ["Declared", "declare"]


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
    ``declare(register_commands=add_parser)``. A misspelt hookspec name fails when the kernel
    loads the plugin (``check_pending``), like any unknown hook implementation."""
    return Declared(impls)
