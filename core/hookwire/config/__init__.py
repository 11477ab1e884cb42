"""hookwire's own hooks files: loading, layering, importing foreign configs.

``install(kernel)`` is what a host calls: it loads the global and project files, adds every
hook (own entries and live sources) to the kernel in order, and puts the trust gate on it.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from hookwire.config.collect import Collected, Item, collect
from hookwire.config.loader import (
    ConfigFileError,
    find_project_file,
    global_file,
    load,
    load_file,
    load_text,
    user_dir,
)
from hookwire.config.model import Config, HooksFile, HookSpec, LoadedFile, Scope, SourceSpec
from hookwire.errors import ConfigError

log = logging.getLogger("hookwire.config")


def install(kernel: Any, cwd: str | Path | None = None, env: Mapping[str, str] | None = None,
            store: Any = None) -> Collected:
    """Load the hooks files that apply in ``cwd`` and add their hooks and settings to
    ``kernel`` (:func:`apply`; ``store``: a :class:`~hookwire.trust.TrustStore` for the trust
    gate, default the user's).

    Raises :class:`ConfigFileError` when a hooks file or one of its own entries is invalid;
    problems of foreign sources are logged and those hooks left out, as their harness does.
    """
    env = os.environ if env is None else env
    config = load(cwd, env)
    found = collect(kernel, config)
    own = {f.path for f in config.files}
    broken = [i for i in found.invalid if i.file in own]
    if broken:
        raise ConfigFileError(ConfigError(i.problem or "invalid", file=i.file, line=i.line,
                                          event=i.event) for i in broken)
    apply(kernel, config, found, store=store, env=env)
    return found


def apply(kernel: Any, config: Config, found: Collected, *, store: Any = None,
          env: Mapping[str, str] | None = None) -> None:
    """Give ``kernel`` what the hooks files of ``config`` say: shell elision, enforcement mode
    and ``trust:`` settings, the valid hooks of ``found`` (invalid ones are logged and left
    out), then the ``tools:`` mappings (:class:`ConfigFileError` for one that cannot be made,
    raised after everything else is in place)."""
    from hookwire import trust

    own = {f.path for f in config.files}
    for item in found.invalid:
        if item.file not in own:
            log.warning("%s:%s: %s (hook left out)", item.file, item.line, item.problem)
    for problem in found.warnings:
        log.warning("%s", problem)
    for loaded in config.files:  # global first: the project file's choice stands
        if loaded.document.shell_elision is not None:
            kernel.dispatcher.file_shell_elision = loaded.document.shell_elision
    if config.enforcement is not None:
        kernel.dispatcher.file_enforcement = config.enforcement
    kernel.add_hooks(found.entries)
    gate = kernel.trust_gate
    if store is not None or not isinstance(gate, trust.TrustGate):
        gate = trust.install(kernel, store if store is not None else trust.TrustStore(env=env))
    gate.strict = gate.strict or config.strict_trust
    _map_tools(kernel, config)  # last: a mapping that fails raises with the hooks in place


def _map_tools(kernel: Any, config: Config) -> None:
    """Every file's ``tools:`` mappings, global first (a project's mapping of the same runtime
    tool replaces the global one; a project's applies only in a trusted folder); a mapping no
    installed dialect can take is an error at its line."""
    errors: list[ConfigError] = []
    trusted = getattr(kernel.trust_gate, "folder_trusted", lambda _: True)
    for loaded in config.files:
        if loaded.scope is Scope.PROJECT and loaded.document.tools and \
                not trusted(loaded.base):
            # a repository must not remap the user's tools (a guard on Bash would miss)
            log.warning("%s: its tools: mappings are not applied until its folder is trusted: "
                        "`hookwire trust --folder %s`", loaded.path, loaded.base)
            continue
        for name, spec in loaded.document.tools.items():
            try:
                kernel.map_tools({name: spec})
            except ConfigError as exc:
                errors.append(ConfigError(f"{exc.message} @ $.tools.{name}", file=loaded.path,
                                          line=loaded.line(("tools", name))))
    if errors:
        raise ConfigFileError(errors)


__all__ = [
    "Collected", "Config", "ConfigFileError", "HookSpec", "HooksFile", "Item", "LoadedFile",
    "Scope", "SourceSpec", "apply", "collect", "find_project_file", "global_file", "install",
    "load", "load_file", "load_text", "user_dir",
]
