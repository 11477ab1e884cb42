"""Loading plugins and dialects from entry points, each inside its own error boundary."""

from __future__ import annotations

import inspect
import logging
import os
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import attrs

from hookwire.errors import PluginLoadError

if TYPE_CHECKING:
    from importlib import metadata

log = logging.getLogger("hookwire")

DIALECT_GROUP = "hookwire.dialects"
PLUGIN_GROUP = "hookwire.plugins"
GROUPS = (DIALECT_GROUP, PLUGIN_GROUP)
#: Comma-separated entry-point names that must not be loaded (e.g. ``codex,audit-log``).
DENY_ENV = "HOOKWIRE_DISABLE_PLUGINS"


@attrs.frozen(kw_only=True)
class Loaded:
    """One entry point that loaded: its ``group`` and ``name``, the ``plugin`` object registered
    with the plugin manager, and the distribution that provides it."""

    group: str
    name: str
    plugin: Any
    dist: str | None
    version: str | None


def denied_names() -> frozenset[str]:
    raw = os.environ.get(DENY_ENV, "")
    return frozenset(n.strip() for n in raw.split(",") if n.strip())


_warned: set[str] = set()


def warn_unknown_denied(name: str, known: set[str]) -> None:
    """Warn (once per process) that ``HOOKWIRE_DISABLE_PLUGINS`` names no installed entry
    point: a misspelt name there would otherwise leave the plugin running silently."""
    if name in _warned:
        return
    _warned.add(name)
    from hookwire.errors import did_you_mean

    log.warning("%s names %r, which is no installed dialect or plugin%s (installed: %s)",
                DENY_ENV, name, did_you_mean(name, known), ", ".join(sorted(known)))


def iter_entry_points() -> Iterator[tuple[str, metadata.EntryPoint]]:
    """Every entry point of hookwire's groups, built-ins and third parties alike."""
    from importlib import metadata  # 20 ms: only when entry points are actually loaded

    eps = metadata.entry_points()
    for group in GROUPS:
        for ep in sorted(eps.select(group=group), key=lambda e: e.name):
            yield group, ep


def load(group: str, ep: metadata.EntryPoint) -> Loaded:
    """Load one entry point; a class is instantiated with no arguments. Raises
    :class:`PluginLoadError` naming the distribution and version."""
    dist = getattr(ep, "dist", None)
    dist_name = dist.metadata["Name"] if dist is not None else None
    version = dist.version if dist is not None else None
    try:
        obj = ep.load()
        if inspect.isclass(obj):
            obj = obj()
    except Exception as exc:
        raise PluginLoadError(group, ep.name, dist_name, version, exc) from exc
    return Loaded(group=group, name=ep.name, plugin=obj, dist=dist_name, version=version)
