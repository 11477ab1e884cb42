"""The index: every configured hook, grouped per seam for dispatch.

Hooks keep configuration order across every source. Each seam maps to the groups of hooks
(one dialect, one native event) that may fire on it, so a dispatch looks at nothing else.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING

import attrs

if TYPE_CHECKING:  # imported on first use: a Kernel() with nothing configured needs neither
    from pathlib import Path

    from hookwire.dialect import ConfigResult, Dialect, HookEntry, Provenance
    from hookwire.events import Seam


@attrs.frozen(kw_only=True)
class Group:
    """The hooks of one dialect for one native event, in configuration order."""

    dialect: Dialect
    native: str
    entries: tuple[HookEntry, ...]
    #: the dialect has several native events on this seam: ask it which one fires
    ambiguous: bool = False


class Index:
    """Configured hooks: :meth:`add` appends, :meth:`groups` answers per seam.

    ``dialect`` looks a dialect up by name (an unknown one raises before anything is added);
    ``activate`` is called once per dialect when its first hook arrives (the kernel registers
    the dialect's companions there).
    """

    def __init__(self, dialect: Callable[[str], Dialect],
                 activate: Callable[[Dialect], None]) -> None:
        self._dialect = dialect
        self._activate = activate
        self._hooks: list[HookEntry] = []
        self._active: set[str] = set()
        #: seam → its groups (read directly by the dispatch loop: no call on the hot path)
        self.by_seam: dict[Seam, tuple[Group, ...]] = {}

    @property
    def hooks(self) -> Sequence[HookEntry]:
        return tuple(self._hooks)

    def read_config(self, dialect: str, path: str | Path,
                    provenance: Provenance | None = None) -> ConfigResult:
        """Read one native config file (or its JSON text, a string starting with ``{``) with
        ``dialect`` (``provenance``: ``USER`` unless given) and add its hooks."""
        from pathlib import Path

        from hookwire.dialect import Provenance

        project = None
        if isinstance(path, str) and path.lstrip().startswith("{"):
            from hookwire._files import inline_config

            path = inline_config(path)
        elif provenance is None:
            project = _project_of(self._dialect(dialect), Path(path))
        if project is not None:  # a project's own config file: the repository's hooks
            provenance = Provenance.PROJECT
        result = self._dialect(dialect).read_config(
            Path(path), provenance=Provenance.USER if provenance is None else provenance)
        if project is not None:
            result = attrs.evolve(result, entries=tuple(
                attrs.evolve(e, project=project) for e in result.entries))
        self.add(result.entries)
        return result

    def add(self, entries: Iterable[HookEntry]) -> None:
        base = len(self._hooks)
        added = []
        for i, entry in enumerate(entries):
            self._dialect(entry.dialect)  # fail early on an unknown dialect
            added.append(attrs.evolve(entry, order=base + i))
        self._hooks.extend(added)
        self.by_seam = self._build()
        for name in {e.dialect for e in added} - self._active:
            self._active.add(name)
            self._activate(self._dialect(name))

    def groups(self, seam: Seam) -> tuple[Group, ...]:
        return self.by_seam.get(seam, ())

    def has(self, seam: Seam) -> bool:
        """Whether any configured hook may fire on ``seam``."""
        return seam in self.by_seam

    def _build(self) -> dict[Seam, tuple[Group, ...]]:
        from hookwire.dialect import Dialect

        grouped: dict[tuple[str, str], list[HookEntry]] = {}
        for entry in self._hooks:
            grouped.setdefault((entry.dialect, entry.event), []).append(entry)
        index: dict[Seam, list[Group]] = {}
        for (dname, native), entries in grouped.items():
            dialect = self._dialect(dname)
            spec = dialect.events.get(native)
            if spec is None or spec.seam is None:
                continue  # reported by the config reader, the session and `hookwire check`
            on_seam = sum(1 for s in dialect.events.values() if s.seam is spec.seam)
            index.setdefault(spec.seam, []).append(
                Group(dialect=dialect, native=native, entries=tuple(entries),
                      ambiguous=on_seam > 1 or type(dialect).native_event
                      is not Dialect.native_event))
            for seam in spec.also:  # fires there only when the dialect's native_event says so
                index.setdefault(seam, []).append(
                    Group(dialect=dialect, native=native, entries=tuple(entries),
                          ambiguous=True))
        return {seam: tuple(groups) for seam, groups in index.items()}


def _project_of(dialect: Dialect, path: Path) -> str | None:
    """The project folder whose own config file ``path`` is (one of ``dialect``'s
    :meth:`~hookwire.Dialect.config_paths` for it: ``<project>/.claude/settings.json``), or
    ``None``: a file the host names that no project owns counts as the user's."""
    try:
        here = path.resolve()
        for folder in list(here.parents)[:3]:
            if here in {p.resolve() for p in dialect.config_paths(folder, None)}:
                return str(folder)
    except Exception:  # a third party's config_paths must not break reading a file
        return None
    return None
