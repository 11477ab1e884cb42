"""Reading Gemini CLI's hook configuration (0.61.0): settings files and extension hooks.

A file's ``hooks`` object is ``{Event: [{matcher?, sequential?, hooks: [hook, ...]}, ...]}``;
each hook is ``{type: "command", command, name?, description?, timeout? (ms), env?}``. As in
Gemini CLI, a bad part is left out and the rest loads: an unknown event (a warning), an event
whose value is not an array, a definition without a ``hooks`` array, a hook that is not a
``command`` hook or has no command. ``enabled``, ``disabled`` and ``notifications`` inside
``hooks`` are not events and are skipped. Settings files may hold comments.

Layers (:func:`discover`), in the order Gemini CLI concatenates them: system defaults, user
``~/.gemini/settings.json``, the workspace's ``.gemini/settings.json`` (only in a trusted
folder), system ``settings.json``; then each installed extension's ``hooks/hooks.json``
(``${extensionPath}``, ``${workspacePath}``, ``${/}`` substituted). ``hooksConfig.enabled``
(later layers win) switches every hook off; ``hooksConfig.disabled`` (the union of the
layers) names hooks (by ``name``, else command) that do not run.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterable, Mapping
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
from hookwire.dialects.gemini.events import CONFIG_FIELDS, EVENTS
from hookwire.dialects.gemini.handler import GeminiHandler
from hookwire.errors import ConfigError, WireError
from hookwire.wire import line_for, pointer, read_json, read_text

DIALECT = "gemini"
_COMMENT = re.compile(r'"(?:\\.|[^"\\])*"|//[^\n]*|/\*.*?\*/', re.S)
_VARIABLE = re.compile(r"\$\{(.*?)\}")


def _strip_comments(text: str) -> str:
    """``text`` with its ``//`` and ``/* */`` comments blanked (lines kept)."""
    def blank(m: re.Match[str]) -> str:
        s = m.group(0)
        return s if s.startswith('"') else re.sub(r"[^\n]", " ", s)
    return _COMMENT.sub(blank, text)


def load(path: Path, *, comments: bool = True) -> tuple[Any, Mapping[Any, int]]:
    """The JSON document at ``path`` with the line of each value; :class:`ConfigError` when
    it cannot be read or parsed."""
    try:
        text = read_text(path)
        doc = read_json(_strip_comments(text) if comments else text, file=str(path))
    except WireError as exc:
        raise ConfigError(str(exc), file=str(path)) from None
    return doc.value, doc.lines


def hydrate(value: Any, variables: Mapping[str, str]) -> Any:
    """``value`` with each ``${name}`` of ``variables`` substituted in every string (others
    are left as written), as Gemini CLI hydrates an extension's hooks."""
    if isinstance(value, str):
        return _VARIABLE.sub(lambda m: variables.get(m.group(1), m.group(0)), value)
    if isinstance(value, list):
        return [hydrate(v, variables) for v in value]
    if isinstance(value, dict):
        return {k: hydrate(v, variables) for k, v in value.items()}
    return value


def read_hooks(doc: Any, lines: Mapping[Any, int], *, file: str, provenance: Provenance,
               layer: str | None = None, env: Mapping[str, str] | None = None,
               order: int = 0) -> ConfigResult:
    """The hooks of one settings document (or extension ``hooks.json``) already parsed."""
    problems: list[ConfigProblem] = []
    entries: list[HookEntry] = []

    def where(path: tuple[Any, ...]) -> Location:
        return Location(file=file, line=line_for(lines, path), pointer=pointer(path))

    def problem(message: str, path: tuple[Any, ...], event: str | None = None,
                kind: ProblemKind = ProblemKind.CONFIG) -> None:
        problems.append(ConfigProblem(message=message, location=where(path), event=event,
                                      kind=kind))

    if not isinstance(doc, dict):
        raise ConfigError("a Gemini CLI settings file is a JSON object", file=file)
    hooks = doc.get("hooks")
    if hooks is None:
        return ConfigResult(settings=_settings(doc))
    if not isinstance(hooks, dict):
        problem("hooks must be an object; Gemini CLI ignores it", ("hooks",))
        return ConfigResult(problems=tuple(problems), settings=_settings(doc))
    for event, definitions in hooks.items():
        base: tuple[Any, ...] = ("hooks", event)
        if event in CONFIG_FIELDS:
            continue
        if event not in EVENTS:
            problem(f'Invalid hook event name: "{event}"; Gemini CLI skips it', base, event,
                    ProblemKind.UNKNOWN_EVENT)
            continue
        if EVENTS[event].seam is None:
            problem(f"{event} fires on model requests; no hookwire seam emits it", base,
                    event, ProblemKind.NO_SEAM)
        if not isinstance(definitions, list):
            problem(f"the {event} hook definitions are not an array; Gemini CLI skips them",
                    base, event)
            continue
        for i, definition in enumerate(definitions):
            dpath = (*base, i)
            if not isinstance(definition, dict) or not isinstance(definition.get("hooks"),
                                                                   list):
                problem("a hook definition needs a hooks array; Gemini CLI discards it",
                        dpath, event, ProblemKind.INVALID_HANDLER)
                continue
            matcher = definition.get("matcher")
            sequential = definition.get("sequential") is True
            for k, hook in enumerate(definition["hooks"]):
                hpath = (*dpath, "hooks", k)
                entry = _entry(hook, event, matcher if isinstance(matcher, str) else None,
                               sequential, file=file, location=where(hpath),
                               provenance=provenance, layer=layer, env=env,
                               order=order + len(entries))
                if isinstance(entry, str):
                    kind = (ProblemKind.UNSUPPORTED if "type" in entry
                            else ProblemKind.INVALID_HANDLER)
                    problem(entry, hpath, event, kind)
                else:
                    entries.append(entry)
    return ConfigResult(entries=tuple(entries), problems=tuple(problems),
                        settings=_settings(doc))


def _entry(hook: Any, event: str, matcher: str | None, sequential: bool, *, file: str,
           location: Location, provenance: Provenance, layer: str | None,
           env: Mapping[str, str] | None, order: int) -> HookEntry | str:
    """One hook as an entry, or why Gemini CLI discards it."""
    if not isinstance(hook, dict):
        return "a hook must be an object; Gemini CLI discards it"
    kind = hook.get("type")
    if kind != "command":
        if kind in ("runtime", "plugin"):
            return f"hook type {kind!r} is registered in code, not in settings; not run"
        return f"hook type {kind!r} is not a command hook; Gemini CLI discards it"
    command = hook.get("command")
    if not isinstance(command, str) or not command:
        return "a command hook needs a command; Gemini CLI discards it"
    timeout = hook.get("timeout")
    seconds = timeout / 1000 if isinstance(timeout, int | float) and \
        not isinstance(timeout, bool) and timeout > 0 else None
    own_env: dict[str, Any] = hook["env"] if isinstance(hook.get("env"), dict) else {}
    merged = {**{str(k): str(v) for k, v in own_env.items()}, **(env or {})}
    name = hook.get("name") if isinstance(hook.get("name"), str) else None
    description = hook.get("description") if isinstance(hook.get("description"), str) \
        else None
    handler = GeminiHandler(name=name, description=description, sequential=sequential,
                            env=merged, layer=layer)
    return HookEntry(dialect=DIALECT, event=event, command=command, matcher=matcher,
                     timeout=seconds, provenance=provenance, location=location,
                     handler=handler, order=order)


def _settings(doc: Mapping[str, Any]) -> dict[str, Any]:
    """The switches of one settings file: ``hooksConfig.enabled``/``disabled`` and
    ``security.folderTrust.enabled``, where set."""
    out: dict[str, Any] = {}
    config = doc.get("hooksConfig")
    if isinstance(config, dict):
        if isinstance(config.get("enabled"), bool):
            out["enabled"] = config["enabled"]
        if isinstance(config.get("disabled"), list):
            out["disabled"] = [d for d in config["disabled"] if isinstance(d, str)]
    trust = (doc.get("security") or {}).get("folderTrust") if isinstance(
        doc.get("security"), dict) else None
    if isinstance(trust, dict) and isinstance(trust.get("enabled"), bool):
        out["folderTrust"] = trust["enabled"]
    return out


def read_file(path: Path, *, provenance: Provenance = Provenance.USER,
              layer: str | None = None) -> ConfigResult:
    """The hooks of one settings file (or an extension's ``hooks/hooks.json``, whose
    ``${extensionPath}`` is the folder above it), with that file's own switches applied."""
    extension = path.name == "hooks.json" and path.parent.name == "hooks"
    doc, lines = load(path, comments=not extension)
    if extension:
        root = str(path.parent.parent)
        doc = hydrate(doc, {"extensionPath": root, "workspacePath": os.getcwd(), "/": os.sep,
                            "pathSeparator": os.sep})
    result = read_hooks(doc, lines, file=str(path), provenance=provenance, layer=layer)
    return switch(result, enabled=result.settings.get("enabled", True),
                  disabled=result.settings.get("disabled", ()))


def switch(result: ConfigResult, *, enabled: bool, disabled: Iterable[str]) -> ConfigResult:
    """``result`` with Gemini CLI's own switches marked on each entry: every hook off when
    ``enabled`` is false; a hook whose name (else command) is in ``disabled`` off."""
    names = set(disabled)
    entries = []
    problems = list(result.problems)
    for entry in result.entries:
        h: GeminiHandler = entry.handler
        why = None
        if not enabled:
            why = "hooksConfig.enabled is false"
        elif (h.name or entry.display) in names:
            why = f"{h.name or entry.display!r} is in hooksConfig.disabled"
        if why is not None:
            entry = attrs.evolve(entry, handler=attrs.evolve(h, disabled=why))
            problems.append(ConfigProblem(message=f"Gemini CLI does not run it: {why}",
                                          location=entry.location, event=entry.event,
                                          kind=ProblemKind.DISABLED))
        entries.append(entry)
    return attrs.evolve(result, entries=tuple(entries), problems=tuple(problems))


def to_settings(entries: Iterable[HookEntry]) -> dict[str, Any]:
    """A settings document whose ``hooks`` hold ``entries`` (one definition per entry, so
    each keeps its own matcher and ``sequential``), as Gemini CLI reads it."""
    from hookwire.dialects.gemini.handler import handler_of

    hooks: dict[str, list[dict[str, Any]]] = {}
    for entry in entries:
        h = handler_of(entry)
        command = entry.command if isinstance(entry.command, str) else entry.display
        hook: dict[str, Any] = {"type": "command", "command": command}
        if h.name is not None:
            hook["name"] = h.name
        if h.description is not None:
            hook["description"] = h.description
        if entry.timeout is not None:
            hook["timeout"] = round(entry.timeout * 1000)
        if h.env:
            hook["env"] = dict(h.env)
        definition: dict[str, Any] = {}
        if entry.matcher is not None:
            definition["matcher"] = entry.matcher
        if h.sequential:
            definition["sequential"] = True
        definition["hooks"] = [hook]
        hooks.setdefault(entry.event, []).append(definition)
    return {"hooks": hooks}


def dumps(entries: Iterable[HookEntry]) -> str:
    return json.dumps(to_settings(entries), indent=2) + "\n"
