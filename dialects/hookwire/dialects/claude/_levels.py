"""The settings keys that govern hooks besides ``hooks``, per file and resolved across levels.

Each file the dialect reads is recorded (:meth:`Levels.record`) with its level (scope) and
what it sets of these keys, and they resolve as Claude Code 2.1.332 documents them:

* ``disableAllHooks``: by precedence, managed > cli > local > project > user, a higher level
  able to set it back to ``false``; only a managed file's value turns off managed hooks;
* ``allowManagedHooksOnly``: honoured from managed files only (the last one that sets it); when
  true, user, project, local and plugin hooks do not run, except the hooks of plugins that the
  managed ``enabledPlugins`` turn on;
* ``allowedHttpHookUrls`` and ``httpHookAllowedEnvVars``: lists merged (joined, without
  repeats) across every file that sets them; unset in every file means no restriction. They
  apply to http hooks from every source.

Files of one level keep the order they were read in: of two managed files (the base file and
a ``managed-settings.d`` fragment) the later one wins, as a later fragment does.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import attrs

#: disableAllHooks precedence: a higher number overrides a lower one.
SCOPE_RANK: Mapping[str, int] = {
    "user": 1, "project": 2, "local": 3, "cli": 4, "managed": 5, "plugin": 0,
}
#: The levels allowManagedHooksOnly turns off.
NOT_MANAGED = frozenset({"user", "project", "local", "plugin"})
_LISTS = ("allowedHttpHookUrls", "httpHookAllowedEnvVars")


@attrs.frozen(kw_only=True)
class HttpPolicy:
    """What the settings allow http hooks: ``urls`` (patterns, ``*`` matching any run of
    characters) and ``env_vars`` (the names a header may interpolate); ``None``: unrestricted."""

    urls: tuple[str, ...] | None = None
    env_vars: tuple[str, ...] | None = None


UNRESTRICTED = HttpPolicy()


def read_keys(data: Mapping[str, Any], scope: str,
              problem: Callable[[str, str], None]) -> dict[str, Any]:
    """The hook policy keys ``data`` (one settings file) sets, checked: a key of the wrong type
    is reported through ``problem(message, key)`` and left out."""
    found: dict[str, Any] = {}
    if scope == "plugin":
        return found
    for key in _LISTS:
        value = data.get(key)
        if value is None:
            continue
        if isinstance(value, list) and all(isinstance(v, str) for v in value):
            found[key] = tuple(value)
        else:
            problem(f"`{key}` must be an array of strings; ignored", key)
    managed_only = data.get("allowManagedHooksOnly")
    if managed_only is not None:
        if not isinstance(managed_only, bool):
            problem("`allowManagedHooksOnly` must be true or false; ignored",
                    "allowManagedHooksOnly")
        elif scope != "managed":
            problem("`allowManagedHooksOnly` counts only in managed settings; ignored here "
                    "(as in Claude Code)", "allowManagedHooksOnly")
        else:
            found["allowManagedHooksOnly"] = managed_only
            if managed_only:
                problem("allowManagedHooksOnly is true: user, project, local and plugin hooks "
                        "do not run (plugins the managed enabledPlugins turn on excepted)",
                        "allowManagedHooksOnly")
    return found


@attrs.define
class Levels:
    """The policy keys of every file read, by path (a file read again replaces its record)."""

    _files: dict[str, tuple[str, Mapping[str, Any]]] = attrs.Factory(dict)
    #: Plugin roots whose hooks allowManagedHooksOnly lets run (managed enabledPlugins).
    exempt_roots: set[str] = attrs.Factory(set)
    _cache: dict[str, Any] = attrs.Factory(dict)

    def record(self, path: str, scope: str, keys: Mapping[str, Any]) -> None:
        """Remember what ``path`` (a file of level ``scope``) sets."""
        if keys:
            self._files[path] = (scope, dict(keys))
        else:
            self._files.pop(path, None)
        self._cache.clear()

    @property
    def active(self) -> bool:
        """Whether any file turns some hooks off (a cheap test for every dispatch)."""
        found = self._cache.get("active")
        if found is None:
            found = self._cache["active"] = (self.disabled("managed") or self.disabled("user")
                                             or self.managed_only)
        return bool(found)

    def disabled(self, scope: str) -> bool:
        """Whether ``disableAllHooks`` turns off hooks of level ``scope``."""
        key = "off:" + ("managed" if scope == "managed" else "other")
        found = self._cache.get(key)
        if found is None:
            values = [(SCOPE_RANK[s], k["disableAllHooks"]) for s, k in self._files.values()
                      if "disableAllHooks" in k and (scope != "managed" or s == "managed")]
            values.sort(key=lambda rv: rv[0])  # stable: a later file of one level wins
            found = self._cache[key] = bool(values) and values[-1][1]
        return bool(found)

    @property
    def managed_only(self) -> bool:
        """``allowManagedHooksOnly`` of the managed files (the last one that sets it)."""
        values = [k["allowManagedHooksOnly"] for s, k in self._files.values()
                  if s == "managed" and "allowManagedHooksOnly" in k]
        return bool(values) and values[-1]

    def blocks(self, scope: str, plugin_root: str | None) -> bool:
        """Whether a hook of level ``scope`` (of the plugin at ``plugin_root``) is turned off."""
        if self.disabled(scope):
            return True
        return (self.managed_only and scope in NOT_MANAGED
                and (plugin_root is None or plugin_root not in self.exempt_roots))

    def http(self) -> HttpPolicy:
        """The merged http hook allowlists."""
        found = self._cache.get("http")
        if found is None:
            merged: dict[str, tuple[str, ...] | None] = {}
            for key in _LISTS:
                lists = [k[key] for _, k in self._files.values() if key in k]
                merged[key] = (tuple(dict.fromkeys(v for one in lists for v in one))
                               if lists else None)
            found = self._cache["http"] = HttpPolicy(urls=merged["allowedHttpHookUrls"],
                                                     env_vars=merged["httpHookAllowedEnvVars"])
        return found
