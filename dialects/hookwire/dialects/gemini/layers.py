"""Which hooks Gemini CLI 0.61.0 loads for a session launched in a folder (:func:`discover`).

Settings layers, concatenated in this order (``hooks`` arrays concatenate across layers):
system defaults (``GEMINI_CLI_SYSTEM_DEFAULTS_PATH``, else
``/etc/gemini-cli/system-defaults.json``), user (``~/.gemini/settings.json``), workspace
(``<project>/.gemini/settings.json``; skipped in an untrusted folder, and when the project is
the home folder), system (``GEMINI_CLI_SYSTEM_SETTINGS_PATH``, else
``/etc/gemini-cli/settings.json``). Every hook of the merged settings then runs only in a
trusted folder (Gemini CLI tags them all as project hooks). Then the hooks of each installed
extension (``~/.gemini/extensions/<name>/`` with a ``gemini-extension.json``) enabled for the
project (``extension-enablement.json``), from its ``hooks/hooks.json``, in folder-name order.

Folder trust applies when ``security.folderTrust.enabled`` is true in the user or system
settings: a folder is trusted when ``~/.gemini/trustedFolders.json`` marks it (or an ancestor)
``TRUST_FOLDER``, or a child of it ``TRUST_PARENT``, and no nearer rule says ``DO_NOT_TRUST``.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

import attrs

from hookwire.dialect import (
    ConfigProblem,
    ConfigResult,
    HookEntry,
    Location,
    ProblemKind,
    Provenance,
)
from hookwire.dialects.gemini import config
from hookwire.errors import ConfigError

SYSTEM_DIR = Path("/etc/gemini-cli")


def system_paths() -> tuple[Path, Path]:
    """(system defaults, system settings), as Gemini CLI finds them on Linux."""
    defaults = os.environ.get("GEMINI_CLI_SYSTEM_DEFAULTS_PATH")
    system = os.environ.get("GEMINI_CLI_SYSTEM_SETTINGS_PATH")
    return (Path(defaults) if defaults else SYSTEM_DIR / "system-defaults.json",
            Path(system) if system else SYSTEM_DIR / "settings.json")


def trusted(project: Path, home: Path) -> bool | None:
    """Whether ``~/.gemini/trustedFolders.json`` trusts ``project`` (``None``: no rule)."""
    path = home / ".gemini" / "trustedFolders.json"
    try:
        rules = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    best: tuple[int, bool] | None = None
    for where, level in (rules.items() if isinstance(rules, dict) else ()):
        folder = Path(where).resolve()
        if level == "TRUST_PARENT":
            folder = folder.parent
        if project == folder or folder in project.parents:
            depth = len(folder.parts)
            if best is None or depth >= best[0]:
                best = (depth, level != "DO_NOT_TRUST")
    return None if best is None else best[1]


def discover(project_dir: str | Path, *, home: Path) -> ConfigResult:
    """Every hook Gemini CLI would load in ``project_dir`` (see the module docstring)."""
    project = Path(project_dir).resolve()
    defaults, system = system_paths()
    workspace = project / ".gemini" / "settings.json"
    # the administrator's, the user's own, then the repository's (docs/trust.md)
    layers: list[tuple[str, Path, Provenance]] = [
        ("system-defaults", defaults, Provenance.MANAGED),
        ("user", home / ".gemini" / "settings.json", Provenance.USER),
        ("project", workspace, Provenance.PROJECT),
        ("system", system, Provenance.MANAGED),
    ]
    if project == Path(home).resolve():
        layers = [layer for layer in layers if layer[0] != "project"]
    results: list[tuple[str, ConfigResult]] = []
    problems: list[ConfigProblem] = []
    for name, path, provenance in layers:
        if not path.is_file():
            continue
        try:
            doc, lines = config.load(path)
            found = config.read_hooks(doc, lines, file=str(path), provenance=provenance,
                                      layer=name)
            if provenance is Provenance.PROJECT:  # the repository's: pending until trusted
                found = attrs.evolve(found, entries=tuple(
                    attrs.evolve(e, project=str(project)) for e in found.entries))
            results.append((name, found))
        except ConfigError as exc:
            problems.append(ConfigProblem(message=exc.message, location=Location(
                file=str(path), line=exc.line), severity="error", kind=ProblemKind.CONFIG))
    settings: dict[str, Any] = {}
    disabled: list[str] = []
    for name, result in results:
        for key, value in result.settings.items():
            if key == "disabled":
                disabled += [d for d in value if d not in disabled]
            elif not (key == "folderTrust" and name == "project"):
                settings[key] = value
    folder_trusted = True
    if settings.get("folderTrust") is True:
        folder_trusted = trusted(project, Path(home)) is True
    kept = []
    for name, result in results:
        if not folder_trusted:
            problems.append(ConfigProblem(
                message=f"{project} is not a trusted folder: Gemini CLI runs none of the "
                        "settings hooks" + (" and ignores the workspace settings"
                                            if name == "project" else ""),
                location=Location(file=result.entries[0].location.file if result.entries
                                  else None), kind=ProblemKind.UNTRUSTED))
            continue
        kept.append(result)
    enablement = _enablement(Path(home))
    for root in _extensions(home):
        hooks = root / "hooks" / "hooks.json"
        if not hooks.is_file():
            continue
        name = _extension_name(root)
        if not _enabled(enablement.get(name), project):
            problems.append(ConfigProblem(
                message=f"extension {name!r} is disabled for {project} "
                        "(extension-enablement.json): Gemini CLI does not run its hooks",
                location=Location(file=str(hooks)), kind=ProblemKind.DISABLED))
            continue
        try:
            doc, lines = config.load(hooks, comments=False)
        except ConfigError as exc:
            problems.append(ConfigProblem(message=exc.message, location=Location(
                file=str(hooks), line=exc.line), severity="error"))
            continue
        if not isinstance(doc, dict) or not isinstance(doc.get("hooks"), dict):
            problems.append(ConfigProblem(
                message='"hooks" property must be an object; Gemini CLI skips the file',
                location=Location(file=str(hooks))))
            continue
        doc = config.hydrate(doc, {"extensionPath": str(root), "workspacePath": str(project),
                                   "/": os.sep, "pathSeparator": os.sep})
        # an extension the user installed runs as Gemini CLI runs it (the user's own)
        kept.append(config.read_hooks(doc, lines, file=str(hooks), provenance=Provenance.USER,
                                      layer=f"extension:{root.name}"))
    entries: list[HookEntry] = []
    for result in kept:
        problems += result.problems
        for entry in result.entries:
            entries.append(attrs.evolve(entry, order=len(entries)))
    merged = config.switch(ConfigResult(entries=tuple(entries), problems=tuple(problems)),
                           enabled=settings.get("enabled", True), disabled=disabled)
    return attrs.evolve(merged, settings=settings)


def _enablement(home: Path) -> dict[str, Any]:
    path = home / ".gemini" / "extensions" / "extension-enablement.json"
    try:
        found = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return found if isinstance(found, dict) else {}


def _extension_name(root: Path) -> str:
    try:
        manifest = json.loads((root / "gemini-extension.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return root.name
    name = manifest.get("name") if isinstance(manifest, dict) else None
    return name if isinstance(name, str) and name else root.name


def _enabled(config: Any, project: Path) -> bool:
    """Gemini CLI's rule: each override (``/path/``, ``/path/*`` for its subfolders, ``!``
    to disable) that matches the project folder decides, the last one winning; none: on."""
    overrides = config.get("overrides") if isinstance(config, dict) else None
    enabled = True
    here = "/" + str(project).replace(os.sep, "/").strip("/") + "/"
    for rule in overrides if isinstance(overrides, list) else ():
        if not isinstance(rule, str):
            continue
        disable = rule.startswith("!")
        base = rule[1:] if disable else rule
        subdirs = base.endswith("*")
        base = base[:-1] if subdirs else base
        pattern = re.escape(base)
        if subdirs:
            pattern = re.sub(r"(/?)$", lambda m: f"({m.group(1)}.*)?", pattern, count=1)
        if re.fullmatch(pattern, here):
            enabled = not disable
    return enabled


def _extensions(home: Path) -> list[Path]:
    folder = Path(home) / ".gemini" / "extensions"
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.iterdir()
                  if p.is_dir() and (p / "gemini-extension.json").is_file())
