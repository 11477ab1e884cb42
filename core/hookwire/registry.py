"""The registry: the plugin manager, entry points, installed dialects and declared hosts.

Everything that is *installed* lives here; what is *configured* is the :mod:`index`'s, and
what happens on a seam is :mod:`dispatch`'s.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any, cast

import attrs
import pluggy

from hookwire import _entrypoints, hookspecs
from hookwire._entrypoints import log
from hookwire.errors import PluginLoadError, UnknownDialectError

if TYPE_CHECKING:
    from hookwire.dialect import Dialect
    from hookwire.events import Seam
    from hookwire.hosts import HostProfile


@attrs.frozen(kw_only=True)
class DialectInfo:
    """An installed dialect and the distribution that provides it."""

    dialect: Dialect
    dist: str | None
    version: str | None
    entry_point: str | None


class Registry:
    """Loads ``hookwire.dialects`` and ``hookwire.plugins`` entry points (each in its own error
    boundary: a broken one is kept in :attr:`load_errors`), registers in-process plugins, and
    keeps the dialects they provide and the seam implementations in pluggy's call order."""

    def __init__(self, *, load_entry_points: bool = True) -> None:
        self.pm = pluggy.PluginManager(hookspecs.PROJECT)
        self.pm.add_hookspecs(hookspecs)
        self._load_errors: list[PluginLoadError] = []
        self._loaded: list[_entrypoints.Loaded] = []
        self._dialects: dict[str, DialectInfo] = {}
        self.impls: dict[Seam, tuple[Any, ...]] = {}
        self._disabled: list[tuple[str, str]] = []
        # Dialect entry points are imported on first use (a dialect asked for, a plugin
        # registered, the plugin manager from outside, the first dispatch), not here; plugin
        # entry points load now, as they may read the environment the host set for them.
        self._pending: list[tuple[str, _entrypoints.EntryPoint]] = []
        #: :attr:`audit` as a plain attribute for the dispatch loop; also True while dialect
        #: entry points are pending, so the first dispatch takes the path that loads them.
        self.observed = False
        if load_entry_points:
            self._load_entry_points()

    def ensure_loaded(self) -> None:
        """Import the pending dialect entry points now (idempotent)."""
        if self._pending:
            pending, self._pending = self._pending, []
            for group, ep in pending:
                self._load_one(group, ep)
            self.invalidate()
            self.pm.check_pending()

    @property
    def audit(self) -> bool:
        """Whether any observer implements the audit plane."""
        self.ensure_loaded()
        return self.observed

    @property
    def dialects(self) -> dict[str, DialectInfo]:
        self.ensure_loaded()
        return self._dialects

    @property
    def loaded(self) -> list[_entrypoints.Loaded]:
        self.ensure_loaded()
        return self._loaded

    @property
    def load_errors(self) -> list[PluginLoadError]:
        self.ensure_loaded()
        return self._load_errors

    @property
    def disabled(self) -> list[tuple[str, str]]:
        """Entry points ``HOOKWIRE_DISABLE_PLUGINS`` kept from loading, as ``(group, name)``."""
        self.ensure_loaded()
        return self._disabled

    def _load_entry_points(self) -> None:
        denied = _entrypoints.denied_names()
        names: set[str] = set()
        for group, ep in _entrypoints.iter_entry_points():
            names.add(ep.name)
            if ep.name in denied:
                log().info("entry point %s:%s disabled by %s", group, ep.name,
                           _entrypoints.DENY_ENV)
                self._disabled.append((group, ep.name))
            elif group == _entrypoints.DIALECT_GROUP:
                self._pending.append((group, ep))
            else:
                self._load_one(group, ep)
        for name in sorted(denied - names):
            _entrypoints.warn_unknown_denied(name, names)
        self.invalidate()

    def _load_one(self, group: str, ep: _entrypoints.EntryPoint) -> None:
        try:
            loaded = _entrypoints.load(group, ep)
            self.register(loaded.plugin, name=f"{group}:{ep.name}", origin=loaded)
        except PluginLoadError as exc:
            self._load_errors.append(exc)
            log().warning("%s", exc)
        except Exception as exc:  # registration or register_dialects failed
            err = _entrypoints.load_error(group, ep, exc)
            self._load_errors.append(err)
            log().warning("%s", err)
        else:
            self._loaded.append(loaded)

    def register(self, plugin: object, *, name: str | None = None,
                 origin: _entrypoints.Loaded | None = None) -> None:
        """Register ``plugin`` and the dialects its ``register_dialects`` returns; on any
        failure nothing of it stays registered. Without ``name`` the plugin is named for
        people (its ``hookwire_name`` attribute, else its module or class name, numbered when
        taken), not by ``id()`` as pluggy would."""
        if origin is None:
            self.ensure_loaded()  # entry points first: pluggy's call order depends on it
        if name is None and self.pm.get_name(plugin) is None:
            name = _readable_name(self.pm, plugin)
        registered = self.pm.register(plugin, name=name)
        try:
            for impl in self.pm.hook.register_dialects.get_hookimpls():
                if impl.plugin is not plugin:
                    continue
                # pluggy types a hookimpl's result `object`; the hookspec says what it is
                for dialect in cast("list[Dialect] | None", impl.function()) or ():
                    self.add_dialect(dialect, origin)
        except Exception:
            self.pm.unregister(plugin)
            raise
        if registered is not None:
            self.invalidate()
        if origin is None:
            self.pm.check_pending()  # a misspelt hook implementation fails here, loudly

    def activate(self, dialect: Dialect) -> None:
        """Register the companion plugins of ``dialect`` (its first hook was configured)."""
        for companion in dialect.companions():
            self.register(companion, name=f"{dialect.name}:{type(companion).__name__}")

    def unregister(self, plugin: object) -> None:
        self.ensure_loaded()
        self.pm.unregister(plugin)
        self.invalidate()

    def add_dialect(self, dialect: Dialect, origin: _entrypoints.Loaded | None = None) -> None:
        from hookwire.dialect import Dialect

        if not isinstance(dialect, Dialect) or not dialect.name:
            raise TypeError(f"register_dialects returned {dialect!r}, not a named Dialect")
        if origin is None:
            self.ensure_loaded()
        if dialect.name in self._dialects:
            other = self._dialects[dialect.name]
            raise ValueError(
                f"dialect {dialect.name!r} is provided twice: by {other.dist or 'in-process'} "
                f"and by {origin.dist if origin else 'in-process'}"
            )
        self._dialects[dialect.name] = DialectInfo(
            dialect=dialect,
            dist=origin.dist if origin else None,
            version=origin.version if origin else None,
            entry_point=origin.name if origin else None,
        )

    def dialect(self, name: str) -> Dialect:
        try:
            return self.dialects[name].dialect
        except KeyError:
            disabled = (_entrypoints.DIALECT_GROUP, name) in self.disabled
            raise UnknownDialectError(name, list(self.dialects), disabled=disabled) from None

    def vocabularies(self) -> Mapping[str, Any]:
        """Each installed dialect's tool vocabulary, by dialect name."""
        return {name: info.dialect.tools for name, info in self.dialects.items()}

    def hosts(self) -> dict[str, HostProfile]:
        from hookwire.hosts import reference

        self.ensure_loaded()
        found: dict[str, HostProfile] = {"reference": reference()}
        for impl in self.pm.hook.register_hosts.get_hookimpls():
            try:
                profiles = cast("list[HostProfile] | None", impl.function()) or ()
            except Exception as exc:
                log().warning("plugin %s cannot declare its hosts: %r", impl.plugin_name, exc)
                continue
            for profile in profiles:
                found[profile.name] = profile
        return found

    def invalidate(self) -> None:
        """Forget the cached seam implementations (a plugin came or went)."""
        self.impls.clear()
        self.observed = bool(self._pending) or any(
            getattr(self.pm.hook, name).get_hookimpls() for name in hookspecs.AUDIT_SPECS)

    def seam_impls(self, seam: Seam) -> tuple[Any, ...]:
        """The native implementations of ``seam``, in pluggy's call order (last registered
        first), wrappers left out."""
        impls = self.impls.get(seam)
        if impls is None:
            self.ensure_loaded()
            found = getattr(self.pm.hook, seam.value).get_hookimpls()
            impls = tuple(i for i in reversed(found) if not (i.hookwrapper or i.wrapper))
            self.impls[seam] = impls
        return impls

    def audit_call(self, name: str, **kwargs: Any) -> None:
        """Tell the audit observers; one that raises is logged, never propagated."""
        self.ensure_loaded()
        try:
            getattr(self.pm.hook, name)(**kwargs)
        except Exception:
            log().exception("audit observer failed in %s", name)

    def register_all(self, plugins: Iterable[object]) -> None:
        for plugin in plugins:
            self.register(plugin)


def _readable_name(pm: pluggy.PluginManager, plugin: object) -> str:
    base = (getattr(plugin, "hookwire_name", None) or getattr(plugin, "__name__", None)
            or type(plugin).__qualname__)
    name, n = str(base), 1
    while pm.has_plugin(name):
        n += 1
        name = f"{base}#{n}"
    return name
