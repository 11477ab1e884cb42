"""What a portable hook entry carries besides its command and timeout.

:class:`PortableHandler` is ``HookEntry.handler`` for this dialect. The reader fills it from a
plugin's ``hooks.json`` (the plugin's root and name, the handler's ``args``, ``env``, ``cwd``,
``context`` and its position); hookwire's own hooks file gives it as ``options``
(:func:`from_options`). An entry without one is a bare argv whose plugin root is the project.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping
from typing import Any

import attrs

from hookwire.dialect import Export, HookEntry
from hookwire.errors import ConfigError


@attrs.frozen(kw_only=True)
class PortableHandler:
    """``root``/``plugin``: the plugin's directory (``PLUGIN_ROOT``) and name (``None``: the
    project, named like a plugin directory). ``args``: the arguments before ``${...}``
    expansion (``None``: the rest of the entry's argv). ``env`` and ``cwd`` as the handler
    declares them; ``context``: the handler opted in to a context result; ``index``: its
    position among its event's handlers."""

    root: str | None = None
    plugin: str | None = None
    args: tuple[str, ...] | None = None
    env: dict[str, str] = attrs.field(factory=dict)
    cwd: str | None = None
    context: bool = False
    index: int = 0


DEFAULT_HANDLER = PortableHandler()


@functools.cache
def _converter() -> Any:
    from hookwire.dialects import _options

    return _options.make_converter(PortableHandler)


def from_options(options: Mapping[str, Any]) -> PortableHandler:
    """The handler an entry of hookwire's own file describes. Raises
    :class:`~hookwire.errors.ConfigError` naming an unknown key, and for ``onFailure:
    block`` (portable handlers only observe: nothing they do can block)."""
    from hookwire.dialects import _options

    data = dict(options)
    failure = data.pop("onFailure", None)
    if failure not in (None, "continue"):
        raise ConfigError(f"portable hooks take no onFailure (got {json.dumps(failure)}): "
                          "portable handlers only observe")
    return _options.structure(_converter(), data, PortableHandler, "portable")  # type: ignore


def handler_of(entry: HookEntry) -> PortableHandler:
    """The entry's handler (its defaults when it has none)."""
    found = entry.handler
    return found if isinstance(found, PortableHandler) else DEFAULT_HANDLER


def export(entry: HookEntry) -> Export:
    """What hookwire's file keeps of a handler read from a plugin's ``hooks.json``: its plugin
    (root and name, for ``PLUGIN_ROOT``/``PLUGIN_DATA``), ``env``, ``cwd`` and ``context``;
    the arguments are the rest of the written argv."""
    h = handler_of(entry)
    kept: dict[str, Any] = {}
    if h.root is not None:
        kept["root"] = h.root
    if h.plugin is not None:
        kept["plugin"] = h.plugin
    if h.env:
        kept["env"] = dict(h.env)
    if h.cwd is not None:
        kept["cwd"] = h.cwd
    if h.context:
        kept["context"] = True
    return Export(options=kept)

