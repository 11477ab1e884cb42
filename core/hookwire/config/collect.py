"""Turning hooks files into hook entries: own entries, and foreign sources read live.

Provenance: an entry written in the global file is user-authored, one in a project file
project-authored, unless its ``source`` says it was imported (``imported:claude``) or bundled
(``plugin:NAME``). Entries of foreign sources are read live (``LIVE``). Trust is decided by
provenance alone (:mod:`hookwire.trust`).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, TypedDict

import attrs

from hookwire.config.model import Config, LoadedFile, Scope
from hookwire.dialect import ConfigProblem, HookEntry, Location, ProblemKind, Provenance
from hookwire.errors import ConfigError, UnknownDialectError, did_you_mean


@attrs.frozen(kw_only=True)
class Item:
    """One configured hook as found: its ``entry`` when it loaded, else ``problem`` says why
    it is invalid; ``file``/``line``/``event`` locate it either way."""

    entry: HookEntry | None = None
    problem: str | None = None
    file: str | None = None
    line: int | None = None
    event: str | None = None
    dialect: str | None = None

    @property
    def valid(self) -> bool:
        return self.problem is None


class _At(TypedDict, total=False):
    """Where an :class:`Item` was found: the keyword arguments shared by a file's items."""

    file: str | None
    line: int | None
    event: str | None
    dialect: str | None


@attrs.frozen(kw_only=True)
class Collected:
    """Every item of every file in order (global, then project; in a file: its own ``hooks``,
    then its ``sources``), and the warnings the foreign readers reported."""

    items: tuple[Item, ...] = ()
    warnings: tuple[ConfigProblem, ...] = ()

    @property
    def entries(self) -> list[HookEntry]:
        return [i.entry for i in self.items if i.entry is not None]

    @property
    def invalid(self) -> list[Item]:
        return [i for i in self.items if not i.valid]


def provenance_of(source: str | None, scope: Scope) -> Provenance:
    if source is not None:
        kind = source.split(":", 1)[0]
        return Provenance.IMPORTED if kind == "imported" else Provenance.PLUGIN
    return Provenance.USER if scope is Scope.GLOBAL else Provenance.PROJECT


def own_entries(kernel: Any, loaded: LoadedFile) -> list[Item]:
    """The file's own ``hooks``, checked against the installed dialects."""
    items: list[Item] = []
    for i, spec in enumerate(loaded.document.hooks):
        line = loaded.line(("hooks", i))
        at = _At(file=loaded.path, line=line, event=spec.event, dialect=spec.dialect)
        try:
            dialect = kernel.dialect(spec.dialect)
        except UnknownDialectError as exc:
            items.append(Item(problem=f"{exc} @ $.hooks[{i}].dialect", **at))
            continue
        if spec.event not in dialect.events:
            known = ", ".join(dialect.events)
            hint = did_you_mean(spec.event, dialect.events)
            items.append(Item(problem=f"dialect {spec.dialect!r} has no event {spec.event!r}"
                                      f"{hint} (known: {known}) @ $.hooks[{i}].event", **at))
            continue
        options = dict(spec.options)
        if spec.on_failure is not None:
            options["onFailure"] = spec.on_failure
        try:
            handler = dialect.handler_from_options(options)
        except ConfigError as exc:
            items.append(Item(problem=f"{exc.message} @ $.hooks[{i}].options", **at))
            continue
        entry = HookEntry(
            dialect=spec.dialect, event=spec.event, command=tuple(spec.command),
            matcher=spec.matcher, timeout=spec.timeout, background=spec.async_,
            provenance=provenance_of(spec.source, loaded.scope),
            location=Location(file=loaded.path, line=line, pointer=f"$.hooks[{i}]"),
            handler=handler, source=spec.source)
        items.append(Item(entry=entry, **at))
    return items


def source_path(loaded: LoadedFile, path: str) -> Path:
    expanded = Path(os.path.expanduser(path))
    return expanded if expanded.is_absolute() else Path(loaded.base) / expanded


def source_entries(kernel: Any, loaded: LoadedFile) -> tuple[list[Item], list[ConfigProblem]]:
    """The hooks of the foreign configs the file lists, read live by their dialects."""
    items: list[Item] = []
    warnings: list[ConfigProblem] = []
    for j, src in enumerate(loaded.document.sources):
        line = loaded.line(("sources", j))
        at = _At(file=loaded.path, line=line, dialect=src.dialect)
        ptr = f"$.sources[{j}]"
        try:
            dialect = kernel.dialect(src.dialect)
        except UnknownDialectError as exc:
            items.append(Item(problem=f"{exc} @ {ptr}.dialect", **at))
            continue
        path = source_path(loaded, src.path)
        if not path.is_file():
            if src.optional:
                warnings.append(ConfigProblem(
                    message=f"optional source {path} does not exist: skipped",
                    location=Location(file=loaded.path, line=line, pointer=ptr),
                    kind=ProblemKind.CONFIG))
            else:
                items.append(Item(problem=f"source {path} does not exist (add `optional: true` "
                                          f"if that is expected) @ {ptr}.path", **at))
            continue
        try:
            result = dialect.read_config(path, provenance=Provenance.LIVE)
        except ConfigError as exc:
            items.append(Item(problem=exc.message, file=exc.file or str(path),
                              line=exc.line, event=exc.event, dialect=src.dialect))
            continue
        except NotImplementedError as exc:
            items.append(Item(problem=f"{exc} @ {ptr}.dialect", **at))
            continue
        for entry in result.entries:
            items.append(Item(entry=entry, file=entry.location.file, line=entry.location.line,
                              event=entry.event, dialect=entry.dialect))
        for problem in result.problems:
            if problem.severity == "error":
                items.append(Item(problem=f"{problem.message} @ {problem.location.pointer}",
                                  file=problem.location.file, line=problem.location.line,
                                  event=problem.event, dialect=src.dialect))
            else:
                warnings.append(problem)
    return items, warnings


def collect(kernel: Any, config: Config) -> Collected:
    """Every hook of every file of ``config``, valid or not."""
    items: list[Item] = []
    warnings: list[ConfigProblem] = []
    for loaded in config.files:
        found, warned = source_entries(kernel, loaded)
        for item in [*own_entries(kernel, loaded), *found]:
            if loaded.scope is Scope.PROJECT and item.entry is not None:
                # the project's file and what it lists are the repository's: folder trust
                item = attrs.evolve(item, entry=attrs.evolve(item.entry, project=loaded.base))
            items.append(item)
        warnings += warned
    return Collected(items=tuple(items), warnings=tuple(warnings))
