"""One discovery call: load every hook the harnesses themselves would load.

:func:`discover` asks each installed dialect (or the ones named) for
:meth:`~hookwire.Dialect.discover` — the files its harness reads for a session launched in a
project, in the harness's order — and adds what they find to the kernel. Which files each
dialect reads is its own business (``docs/dialects/``); this module names none of them.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

import attrs

from hookwire.dialect import ConfigProblem, ConfigResult, Dialect, HookEntry, Location
from hookwire.errors import ConfigError

if TYPE_CHECKING:
    from hookwire.kernel import Kernel


def discover(kernel: Kernel, project_dir: str | Path = ".", *,
             dialects: Iterable[str] | None = None, home: str | Path | None = None,
             own: bool = True) -> list[tuple[str, ConfigResult]]:
    """Discover the hooks of every installed dialect (or of the ``dialects`` named, in that
    order) for a session launched in ``project_dir``, add them to ``kernel`` after the hooks
    already there, and return ``(dialect name, result)`` pairs, problems included (they are
    also the kernel's ``config_problems``: every session names them when it starts).

    First come hookwire's own hooks files (``own``; the global file, then the project's
    ``.hookwire/hooks.yaml``, with their ``tools:``, ``trust:`` and ``enforcement:``), as the
    pair ``("hookwire", result)`` when there is any: what ``hookwire check`` lists is what a
    host runs. A hook a harness file declares that hookwire's own files already hold (same
    dialect, event, matcher and command as written: an imported copy) is loaded once, from
    hookwire's.

    ``home`` stands for the user's home directory (``None``: the real one). A dialect whose
    files cannot be read at all reports that as an ``error`` problem; the other dialects still
    load. Naming a dialect that is not installed raises
    :class:`~hookwire.errors.UnknownDialectError` before anything is added.
    """
    names = list(kernel.dialects) if dialects is None else list(dialects)
    chosen = [(name, kernel.dialect(name)) for name in names]  # unknown names fail first
    project = Path(project_dir)
    home_path = None if home is None else Path(home)
    found: list[tuple[str, ConfigResult]] = []
    mine = own_files(kernel, project, home_path) if own else ConfigResult()
    if mine.entries or mine.problems:
        found.append(("hookwire", mine))
        kernel.config_problems.extend(mine.problems)
    held = {_key(e) for e in mine.entries}
    for name, dialect in chosen:
        try:
            result = dialect.discover(project, home=home_path)
        except ConfigError as exc:
            where = Location(file=exc.file, line=exc.line)
            result = ConfigResult(problems=(ConfigProblem(
                message=f"discovery stopped: {exc.message}",
                location=where, severity="error"),))
        if held:
            result = attrs.evolve(result, entries=tuple(
                e for e in result.entries if _key(e) not in held))
        if type(dialect).discover is Dialect.discover:
            result = _unread(name, dialect, project, home_path, result)
        kernel.add_hooks(result.entries)
        kernel.config_problems.extend(result.problems)  # every session names them at start
        found.append((name, result))
    return found


def _key(entry: HookEntry) -> tuple[object, ...]:
    return entry.dialect, entry.event, entry.matcher, entry.display


def own_files(kernel: Kernel, project: Path, home: Path | None = None) -> ConfigResult:
    """hookwire's own hooks files that apply in ``project``, given to ``kernel``
    (:func:`hookwire.config.apply`); a file that does not load, or an entry of it that is
    invalid, is an ``error`` problem naming file and line, and the rest still loads."""
    from hookwire import config as _config

    env = dict(os.environ)
    if home is not None:
        env["HOME"] = str(home)
        env.pop("XDG_CONFIG_HOME", None)
    def errors(exc: ConfigError) -> list[ConfigProblem]:
        return [ConfigProblem(message=err.message, location=Location(file=err.file,
                              line=err.line), event=err.event, severity="error")
                for err in getattr(exc, "errors", (exc,))]

    try:
        loaded = _config.load(project, env)
    except _config.ConfigFileError as exc:
        return ConfigResult(problems=tuple(errors(exc)))
    found = _config.collect(kernel, loaded)
    broken: list[ConfigProblem] = []
    try:
        _config.apply(kernel, loaded, found, env=env)
    except _config.ConfigFileError as exc:  # a tools: mapping; the hooks are in place
        broken = errors(exc)
    problems = [ConfigProblem(message=str(item.problem), event=item.event, severity="error",
                              location=Location(file=item.file, line=item.line))
                for item in found.invalid]
    return ConfigResult(entries=tuple(found.entries),
                        problems=(*broken, *problems, *found.warnings))


def _unread(name: str, dialect: Dialect, project: Path, home: Path | None,
            result: ConfigResult) -> ConfigResult:
    """A dialect without its own ``discover`` finds nothing: say so for each of its native
    files that exists (:meth:`~hookwire.Dialect.config_paths`), rather than drop them."""
    try:
        paths = [p for p in dialect.config_paths(project, home) if p.is_file()]
    except Exception:  # a dialect bug must not stop the other dialects' discovery
        return result
    problems = tuple(ConfigProblem(
        message=f"not read: dialect {name!r} does not implement Dialect.discover, so "
                "Kernel.discover finds none of its files (load it with kernel.add_config)",
        location=Location(file=str(p))) for p in paths)
    return ConfigResult(entries=result.entries, problems=result.problems + problems,
                        settings=result.settings)
