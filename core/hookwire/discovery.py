"""One discovery call: load every hook the harnesses themselves would load.

:func:`discover` asks each installed dialect (or the ones named) for
:meth:`~hookwire.Dialect.discover` — the files its harness reads for a session launched in a
project, in the harness's order — and adds what they find to the kernel. Which files each
dialect reads is its own business (``docs/dialects/``); this module names none of them.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from hookwire.dialect import ConfigProblem, ConfigResult, Dialect, Location
from hookwire.errors import ConfigError

if TYPE_CHECKING:
    from hookwire.kernel import Kernel


def discover(kernel: Kernel, project_dir: str | Path = ".", *,
             dialects: Iterable[str] | None = None,
             home: str | Path | None = None) -> list[tuple[str, ConfigResult]]:
    """Discover the hooks of every installed dialect (or of the ``dialects`` named, in that
    order) for a session launched in ``project_dir``, add them to ``kernel`` after the hooks
    already there, and return ``(dialect name, result)`` pairs, problems included.

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
    for name, dialect in chosen:
        try:
            result = dialect.discover(project, home=home_path)
        except ConfigError as exc:
            where = Location(file=exc.file, line=exc.line)
            result = ConfigResult(problems=(ConfigProblem(
                message=f"discovery stopped: {exc.message}",
                location=where, severity="error"),))
        if type(dialect).discover is Dialect.discover:
            result = _unread(name, dialect, project, home_path, result)
        kernel.add_hooks(result.entries)
        found.append((name, result))
    return found


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
