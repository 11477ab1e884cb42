"""Loading plugins and dialects from entry points, each inside its own error boundary.

Finding them does what ``importlib.metadata.entry_points()`` does, for hookwire's two groups
only: every distribution on ``sys.path`` in order, the first of each normalized name winning,
its ``entry_points.txt`` read. It lists the ``sys.path`` folders itself and reads only the
``entry_points.txt`` files, because importing importlib.metadata (email, zipfile, csv, pathlib)
and parsing every distribution's entry points costs each ``Kernel()`` tens of milliseconds.
A ``sys.path`` entry that is no plain folder (a zip file, an ``.egg``) is still read through
importlib.metadata, and so is everything when another import finder declares distributions of
its own. A distribution's name and version are read from its metadata on first use (a load
error, ``hookwire dialects``).
"""

from __future__ import annotations

import importlib
import inspect
import os
import re
import sys
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Any

import attrs

from hookwire.errors import PluginLoadError

if TYPE_CHECKING:
    from importlib import metadata

DIALECT_GROUP = "hookwire.dialects"
PLUGIN_GROUP = "hookwire.plugins"
GROUPS = (DIALECT_GROUP, PLUGIN_GROUP)
#: Comma-separated entry-point names that must not be loaded (e.g. ``codex,audit-log``).
DENY_ENV = "HOOKWIRE_DISABLE_PLUGINS"

#: importlib.metadata's syntax of an entry point's value: ``module:attr.attr [extras]``.
_VALUE = re.compile(r"(?P<module>[\w.]+)\s*(:\s*(?P<attr>[\w.]+)\s*)?((?P<extras>\[.*\])\s*)?$")
_INFO = (".dist-info", ".egg-info")


class Dist:
    """A distribution providing entry points: ``name`` and ``version`` as its metadata says,
    read on first use. ``path`` is its ``.dist-info``/``.egg-info``; ``found`` the
    importlib.metadata distribution it came from, if any."""

    def __init__(self, path: str | None, found: metadata.Distribution | None = None) -> None:
        self.path = path
        self.found = found
        self._meta: tuple[str | None, str | None] | None = None

    @property
    def name(self) -> str | None:
        return self._metadata()[0]

    @property
    def version(self) -> str | None:
        return self._metadata()[1]

    def _metadata(self) -> tuple[str | None, str | None]:
        if self._meta is None:
            if self.found is not None:
                self._meta = (self.found.metadata["Name"], self.found.version)
            else:
                self._meta = _name_and_version(self.path or "")
        return self._meta


class EntryPoint:
    """One entry point of hookwire's groups (``importlib.metadata.EntryPoint``'s fields)."""

    def __init__(self, name: str, value: str, group: str, dist: Dist | None) -> None:
        self.name = name
        self.value = value
        self.group = group
        self.dist = dist

    def load(self) -> Any:
        """The object the value names (the module itself when it names no attribute)."""
        match = _VALUE.match(self.value)
        if match is None:
            raise ValueError(f"malformed entry point value {self.value!r}")
        obj: Any = importlib.import_module(match["module"])
        for attr in filter(None, (match["attr"] or "").split(".")):
            obj = getattr(obj, attr)
        return obj

    def __repr__(self) -> str:
        return f"EntryPoint(name={self.name!r}, value={self.value!r}, group={self.group!r})"


@attrs.frozen(kw_only=True)
class Loaded:
    """One entry point that loaded: its ``group`` and ``name``, the ``plugin`` object registered
    with the plugin manager, and the distribution that provides it (``origin``; its name and
    version as :attr:`dist` and :attr:`version`)."""

    group: str
    name: str
    plugin: Any
    origin: Dist | None = attrs.field(default=None, eq=False, repr=False)

    @property
    def dist(self) -> str | None:
        return self.origin.name if self.origin is not None else None

    @property
    def version(self) -> str | None:
        return self.origin.version if self.origin is not None else None


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

    log().warning("%s names %r, which is no installed dialect or plugin%s (installed: %s)",
                  DENY_ENV, name, did_you_mean(name, known), ", ".join(sorted(known)))


def log() -> Any:
    """The ``hookwire`` logger; logging is imported only when there is something to say."""
    import logging

    return logging.getLogger("hookwire")


def iter_entry_points() -> Iterator[tuple[str, EntryPoint]]:
    """Every entry point of hookwire's groups, built-ins and third parties alike, by group and
    then by name (in distribution order for one name)."""
    found = _from_importlib(None, set()) if _other_finders() else _scan(sys.path)
    for group in GROUPS:
        for ep in sorted((e for e in found if e.group == group), key=lambda e: e.name):
            yield group, ep


def load(group: str, ep: EntryPoint) -> Loaded:
    """Load one entry point; a class is instantiated with no arguments. Raises
    :class:`PluginLoadError` naming the distribution and version."""
    try:
        obj = ep.load()
        if inspect.isclass(obj):
            obj = obj()
    except Exception as exc:
        raise load_error(group, ep, exc) from exc
    return Loaded(group=group, name=ep.name, plugin=obj, origin=ep.dist)


def load_error(group: str, ep: EntryPoint, exc: BaseException) -> PluginLoadError:
    """The error of ``ep`` failing with ``exc``, naming its distribution and version."""
    dist = ep.dist
    return PluginLoadError(group, ep.name, dist.name if dist else None,
                           dist.version if dist else None, exc)


def _normalize(name: str) -> str:
    """importlib.metadata's ``Prepared.normalize``: PEP 503, with underscores."""
    name = name.lower().replace("-", "_").replace(".", "_")
    while "__" in name:  # cheaper than a regular expression per distribution
        name = name.replace("__", "_")
    return name


def _other_finders() -> bool:
    """Whether an import finder besides the standard path finder declares distributions."""
    from importlib.machinery import PathFinder

    return any(getattr(finder, "find_distributions", None) is not None
               and finder is not PathFinder for finder in sys.meta_path)


def _scan(path: Iterable[Any]) -> list[EntryPoint]:
    seen: set[str] = set()
    found: list[EntryPoint] = []
    for entry in path:
        try:
            root = os.fspath(entry) or "."
            children = os.listdir(root) if isinstance(root, str) else []
        except (OSError, TypeError):
            if isinstance(entry, str) and os.path.isfile(entry):  # a zip file
                found.extend(_from_importlib([entry], seen))
            continue
        if os.path.basename(root).lower().endswith(".egg"):  # an unpacked egg
            found.extend(_from_importlib([root], seen))
            continue
        first: dict[str, str] = {}
        for child in children:
            low = child.lower()
            if low.endswith(_INFO):
                first.setdefault(_normalize(low.rpartition(".")[0].partition("-")[0]), child)
        for name, child in first.items():
            if name not in seen:
                seen.add(name)
                info = f"{root}{os.sep}{child}"
                text = _read(f"{info}{os.sep}entry_points.txt")
                if "[hookwire." in text:
                    found.extend(_parse(text, info))
    return found


def _from_importlib(path: list[str] | None, seen: set[str]) -> list[EntryPoint]:
    from importlib import metadata

    found: list[EntryPoint] = []
    dists = metadata.distributions() if path is None else metadata.distributions(path=path)
    for found_dist in dists:
        name = _normalize(getattr(found_dist, "_normalized_name", None)
                          or found_dist.metadata["Name"] or "")
        if name in seen:
            continue
        seen.add(name)
        dist = Dist(None, found_dist)
        found.extend(EntryPoint(ep.name, ep.value, ep.group, dist)
                     for ep in found_dist.entry_points if ep.group in GROUPS)
    return found


def _read(path: str) -> str:
    """The text of the file at ``path``, ``""`` when there is none (``os.open``: most
    distributions have no ``entry_points.txt``, and ``open()`` costs more to fail)."""
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:  # none; NotADirectoryError: an egg-info file
        return ""
    try:
        chunks = []
        while chunk := os.read(fd, 65536):
            chunks.append(chunk)
    except OSError:  # IsADirectoryError: an egg-info folder
        return ""
    finally:
        os.close(fd)
    data = b"".join(chunks)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        if b"[hookwire." in data:  # a dialect or plugin would be lost without a word
            log().warning("%s is not UTF-8 (%s): its hookwire entry points are not loaded",
                          path, exc)
        return ""


def _parse(text: str, info: str) -> list[EntryPoint]:
    """The entry points of hookwire's groups in an ``entry_points.txt`` (importlib.metadata's
    reading of it). A line of hookwire's groups without ``=`` is skipped with a warning that
    names it, where importlib.metadata would raise and lose every entry point: a plugin that
    does not load must not go unnoticed."""
    found: list[EntryPoint] = []
    dist = Dist(info)
    group = None
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("[") and line.endswith("]"):
            group = line.strip("[]")
        elif group in GROUPS:
            name, sep, value = line.partition("=")
            if sep:
                found.append(EntryPoint(name.strip(), value.strip(), group, dist))
            else:
                log().warning("%s: entry point %r of [%s] has no '=': not loaded",
                              os.path.join(info, "entry_points.txt"), line, group)
    return found


def _name_and_version(info: str) -> tuple[str | None, str | None]:
    """``Name`` and ``Version`` from a distribution's metadata headers (``METADATA``, else
    ``PKG-INFO``, else an ``.egg-info`` file itself), as ``dist.metadata[...]`` gives them."""
    text = (_read(os.path.join(info, "METADATA")) or _read(os.path.join(info, "PKG-INFO"))
            or _read(info))
    found: dict[str, str] = {}
    for line in text.splitlines():
        if not line.strip():
            break  # the headers end at the first empty line
        key, sep, value = line.partition(":")
        key = key.lower()
        if sep and not line[0].isspace() and key in ("name", "version"):
            found.setdefault(key, value.strip())
    return found.get("name"), found.get("version")
