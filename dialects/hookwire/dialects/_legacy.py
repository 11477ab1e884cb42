"""TRANSITIONAL: the typed handler of an entry that core built with the deprecated ``options``.

Until core fills ``HookEntry.handler`` itself (through :meth:`Dialect.handler_from_options`),
entries of hookwire's own file arrive with ``options`` (plus ``onFailure`` and ``source``).
Each dialect reads its handler through :func:`handler_of`, which builds it from those options
once per entry object. Delete this module, and read ``entry.handler or DEFAULT`` directly, once
no caller passes ``options=`` any more.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from hookwire.dialect import HookEntry
from hookwire.errors import ConfigError

H = TypeVar("H")
log = logging.getLogger("hookwire")

#: id(entry) → (entry, handler); the entry is kept alive so its id is not reused while cached.
_CACHE: dict[int, tuple[HookEntry, Any]] = {}
#: Keys core adds to ``options`` that are fields of the entry, not of the handler.
_NOT_HANDLER = frozenset({"source"})


def handler_of(entry: HookEntry, default: H,
               build: Callable[[Mapping[str, Any]], H], known: frozenset[str]) -> H:
    """``entry.handler``; else, for an entry built with ``options``, the handler ``build`` makes
    of the ``known`` keys (others were never read, so they are ignored as before); else
    ``default``."""
    found = entry.handler
    if found is not None:
        return found  # type: ignore[no-any-return]
    if not entry.options:
        return default
    hit = _CACHE.get(id(entry))
    if hit is not None and hit[0] is entry:
        return hit[1]  # type: ignore[no-any-return]
    options = {k: v for k, v in entry.options.items() if k in known and k not in _NOT_HANDLER}
    try:
        made = build(options)
    except ConfigError as exc:  # options were never validated before: keep running
        log.warning("%s hook %s: %s; its defaults apply", entry.dialect, entry.location, exc)
        made = default
    if len(_CACHE) > 4096:
        _CACHE.clear()
    _CACHE[id(entry)] = (entry, made)
    return made
