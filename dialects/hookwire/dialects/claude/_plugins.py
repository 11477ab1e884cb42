"""Installed Claude Code plugins: the install records, where an enabled plugin lives, and the
hook files it brings (``hooks/hooks.json``, then what its manifest names), as Claude Code 2.1.150
lays them out in the user folder (``plugins/installed_plugins.json``, ``plugins/cache/``)."""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from hookwire.dialect import ConfigProblem, Location, ProblemKind
from hookwire.errors import WireError
from hookwire.wire import parse_json, read_text


def _same(a: Path, b: Path) -> bool:
    try:
        return a.resolve() == b.resolve()
    except (OSError, RuntimeError):  # RuntimeError: a symlink loop
        return a == b


def installed_plugins(config: Path) -> tuple[dict[str, list[Mapping[str, Any]]],
                                             list[ConfigProblem]]:
    """The install records of ``<config>/plugins/installed_plugins.json`` by plugin id
    (``name@marketplace``): version 2 lists records per id, version 1 has one record per id.
    A missing file is no record; an unreadable one is a problem."""
    path = config / "plugins" / "installed_plugins.json"
    if not path.exists():
        return {}, []
    try:
        data = parse_json(read_text(path))
    except WireError as exc:
        return {}, [ConfigProblem(message=f"cannot read the plugin registry: {exc}; installed "
                                  "plugins are looked up in the plugin cache only",
                                  location=Location(file=str(path)), severity="error",
                                  kind=ProblemKind.CONFIG)]
    plugins = data.get("plugins") if isinstance(data, dict) else None
    if not isinstance(plugins, dict):
        return {}, []
    records: dict[str, list[Mapping[str, Any]]] = {}
    for plugin_id, value in plugins.items():
        items = value if isinstance(value, list) else [value]
        records[plugin_id] = [r for r in items if isinstance(r, dict)]
    return records, []


def plugin_root(plugin_id: str, config: Path, project_dir: Path,
                records: Mapping[str, Sequence[Mapping[str, Any]]]) -> Path | None:
    """Where the enabled plugin ``plugin_id`` is installed: the ``installPath`` of its record
    (one made for ``project_dir`` first, then a user-wide one, then any), else its folder in
    the plugin cache ``<config>/plugins/cache/<marketplace>/<name>/<version>/`` (the most
    recently written version). ``None``: not on disk."""
    candidates = list(records.get(plugin_id, ()))
    project = os.path.abspath(project_dir)

    def rank(record: Mapping[str, Any]) -> int:
        path = record.get("projectPath")
        if isinstance(path, str) and os.path.abspath(path) == project:
            return 0
        return 1 if record.get("scope", "user") == "user" else 2

    for record in sorted(candidates, key=rank):
        path = record.get("installPath")
        if isinstance(path, str) and Path(path).is_dir():
            return Path(path)
    name, _, market = plugin_id.partition("@")
    if not name or not market:
        return None
    folder = config / "plugins" / "cache" / market / name
    if _is_plugin(folder):
        return folder
    try:
        versions = [d for d in folder.iterdir() if d.is_dir() and _is_plugin(d)]
    except OSError:
        return None
    return max(versions, key=lambda d: d.stat().st_mtime) if versions else None


def _is_plugin(folder: Path) -> bool:
    return (folder / ".claude-plugin" / "plugin.json").is_file() or \
        (folder / "hooks" / "hooks.json").is_file()


def plugin_hook_files(root: Path) -> tuple[list[Path], list[ConfigProblem]]:
    """The hook files of the plugin at ``root``, in load order: ``hooks/hooks.json``, then the
    manifest when it declares ``hooks`` (inline, or paths to further files). A manifest path
    that names ``hooks/hooks.json`` again is reported and not read twice."""
    files: list[Path] = []
    problems: list[ConfigProblem] = []
    default = root / "hooks" / "hooks.json"
    if default.is_file():
        files.append(default)
    manifest = root / ".claude-plugin" / "plugin.json"
    try:
        data = parse_json(read_text(manifest))
    except WireError:
        return files, problems
    hooks = data.get("hooks") if isinstance(data, dict) else None
    if hooks is None:
        return files, problems
    if not isinstance(hooks, (str, list)):
        files.append(manifest)  # inline hooks: read from the manifest itself
        return files, problems
    for i, rel in enumerate([hooks] if isinstance(hooks, str) else hooks):
        if not isinstance(rel, str):
            continue  # reported when the manifest itself is read by name
        path = root / rel
        if _same(path, default) and default in files:
            problems.append(ConfigProblem(
                message=f"the manifest names {rel!r}, the hooks file every plugin loads "
                        "already: not loaded twice", location=Location(
                            file=str(manifest), pointer=f"$.hooks[{i}]"
                            if isinstance(hooks, list) else "$.hooks")))
            continue
        if path.is_file():
            files.append(path)
        else:
            problems.append(ConfigProblem(
                message=f"hooks file {rel!r} named by the manifest does not exist",
                location=Location(file=str(manifest)), severity="error",
                kind=ProblemKind.CONFIG))
    return files, problems
