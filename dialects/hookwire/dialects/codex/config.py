"""Reading Codex hook configs: ``hooks.json``, ``[hooks]`` in ``config.toml``, plugins, layers.

Parse rules of Codex 0.171.0 (serde):

* ``hooks.json`` root: only ``description`` (string or null) and ``hooks``; any other key, or
  a wrong type anywhere in a known event's groups and handlers, fails the **whole file**
  (``failed to parse hooks config <path>: ...``) and none of its hooks load;
* unknown event names and unknown keys inside groups and handlers are ignored;
* handler ``type``: ``command`` loads; ``mcp_tool`` loads (it runs on the host's MCP
  sessions) except on ``SessionEnd`` or without a server and a tool, skipped with a warning;
  ``prompt``/``agent`` are skipped with a warning; anything else fails the file; an empty
  ``command`` is skipped with a warning;
* ``timeout``: default 600 s, at least 1; ``SessionEnd``/``Interrupt``: default 1 s, clamped
  to [1, 3] with a warning; ``async`` on ``SessionEnd`` runs synchronously, with a warning;
* a group whose matcher is not a valid regex is skipped with a warning (events that take no
  matcher drop it unchecked);
* each command (and runnable ``mcp_tool``) handler takes the next **display order**, counted
  across every file of a discovery (events in Codex's own order within a file, whatever the
  document's), untrusted and disabled handlers included; a skipped handler or group takes none.
  Codex names a Stop continuation ``stop:<display order>:<source path>``.

Discovery appends, lowest precedence first: the ``[hooks]`` of ``/etc/codex/requirements.toml``
and the system layer ``/etc/codex`` (managed), user ``$CODEX_HOME``, project ``.codex/`` folders
from the repository root down to the cwd (only when the project is trusted in the user
config), then plugins; ``allow_managed_hooks_only`` in the requirements stops after the
managed ones. In each layer ``hooks.json`` comes before the ``[hooks]`` of ``config.toml``.
"""

from __future__ import annotations

import itertools
import json
import os
from collections.abc import Iterable, Iterator, Mapping, Sequence
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
from hookwire.dialects.codex import _wire, trust
from hookwire.dialects.codex import events as ev
from hookwire.dialects.codex import matcher as m
from hookwire.dialects.codex._jsonlines import line_index
from hookwire.dialects.codex.handler import CodexHandler, handler_of
from hookwire.errors import ConfigError, WireError
from hookwire.wire import parse_json, read_json, read_text, read_toml

DIALECT = "codex"
_EVENT_RANK = {name: i for i, name in enumerate(ev.DISPLAY_ORDER)}
#: serde_json's recursion limit: a deeper document fails to parse in Codex too.
MAX_DEPTH = 128
_I64_MAX = 2**63 - 1


@attrs.frozen(kw_only=True)
class Source:
    """One hook source: its file, trust key source, provenance and plugin environment."""

    path: Path
    provenance: Provenance = Provenance.USER
    managed: bool = False
    label: str = "user"  #: Codex's ``source``: user, project, system, plugin, ...
    key_source: str = ""
    env: Mapping[str, str] = attrs.field(factory=dict)
    plugin_id: str | None = None

    @property
    def key(self) -> str:
        return self.key_source or str(self.path)


def abspath(path: Path) -> Path:
    return Path(os.path.abspath(path))


# -- one file ------------------------------------------------------------------------------------


def read_hooks_json(source: Source, states: Mapping[str, trust.HookState],
                    order: Iterator[int] | None = None) -> ConfigResult:
    """Read one ``hooks.json`` (raises :class:`ConfigError` only when it cannot be read).
    ``order`` hands out display orders (a discovery shares one across its files)."""
    text = _read_text(source.path)
    try:
        doc = read_json(text, file=str(source.path), max_depth=MAX_DEPTH)
    except WireError as exc:
        at = f" at line {exc.line} column {exc.column}" if exc.line and exc.column else ""
        return _failed(source, exc.message.removeprefix("invalid JSON: ") + at, exc.line)
    lines = line_index(doc)
    try:
        parsed = _wire.structure(doc.value, _wire.HooksFile, "$", lines)
    except _wire.WireFailure as exc:
        return _failed(source, str(exc), _line(lines, exc.pointer))
    reader = _Reader(source, states, lines, order, _as_written(text, "hooks"))
    reader.read_events(parsed.hooks, "$.hooks")
    return reader.result()


def _as_written(text: str, *path: str | int) -> Any:
    """The value at ``path`` of a JSON text already read once, its numbers as written
    (:func:`trust.literal_numbers`), when it may hold an mcp_tool hook (whose trust hash
    takes them so); else ``None``."""
    if '"mcp_tool"' not in text:
        return None
    value = trust.literal_numbers(text)
    for step in path:
        if isinstance(value, dict) and isinstance(step, str):
            value = value.get(step)
        elif isinstance(value, list) and isinstance(step, int) and step < len(value):
            value = value[step]
        else:
            return None
    return value


def read_config_toml(source: Source, states: Mapping[str, trust.HookState],
                     data: Mapping[str, Any] | None = None,
                     order: Iterator[int] | None = None) -> ConfigResult:
    """Read the ``[hooks]`` table of one ``config.toml`` (a broken TOML file raises, and so
    does an mcp_tool ``input`` holding nan or inf, with which Codex loads no hook at all)."""
    if data is None:
        data = _toml(source.path)  # a broken file: a located ConfigError
    hooks = data.get("hooks")
    if hooks is None:
        return ConfigResult()
    try:
        events = _wire.structure(hooks, _wire.Events, "$.hooks", {})
    except _wire.WireFailure as exc:
        problem = ConfigProblem(
            message=f"failed to parse TOML hooks in {source.path}: {exc}",
            location=Location(file=str(source.path), pointer=exc.pointer), severity="error",
            kind=ProblemKind.CONFIG)
        return ConfigResult(problems=(problem,))
    if not all(trust.finite(h.input) for groups in events.values() for g in groups
               for h in g.hooks if isinstance(h, _wire.McpToolHook)):
        # Codex 0.171.0 then loads no hook at all, of any file, and says nothing: as for a
        # config.toml it cannot read, the whole discovery fails here, and says why
        raise ConfigError("an MCP hook input holds nan or inf: Codex loads no hook at all "
                          "with this config", file=str(source.path))
    reader = _Reader(source, states, {}, order)
    reader.read_events(events, "$.hooks")
    return reader.result()


def _line(lines: Mapping[str, int], pointer: str) -> int | None:
    """The line of ``pointer``'s value, or of its nearest enclosing value that has one."""
    while pointer not in lines and pointer != "$":
        pointer = pointer[:max(pointer.rfind("."), pointer.rfind("["))] or "$"
    return lines.get(pointer)


def _read_text(path: Path) -> str:
    try:
        return read_text(path)
    except WireError as exc:
        raise ConfigError(f"failed to read hooks config: {exc.message}", file=str(path),
                          line=exc.line) from None


def _toml(path: Path) -> dict[str, Any]:
    """The table of a ``config.toml``; a :class:`ConfigError` with its line when broken."""
    value: dict[str, Any] = read_toml(_read_text(path), file=str(path),
                                      max_depth=MAX_DEPTH).value
    return value


def _failed(source: Source, why: str, line: int | None = None) -> ConfigResult:
    problem = ConfigProblem(
        message=f"failed to parse hooks config {source.path}: {why}",
        location=Location(file=str(source.path), line=line), severity="error",
        kind=ProblemKind.CONFIG)
    return ConfigResult(problems=(problem,))


class _Reader:
    """Turns one file's structured ``hooks`` (:mod:`._wire`) into entries and warnings, with
    Codex's semantic rules (skipped handler types, matchers, timeouts)."""

    def __init__(self, source: Source, states: Mapping[str, trust.HookState],
                 lines: Mapping[str, int], order: Iterator[int] | None = None,
                 written: Any = None) -> None:
        self.source = source
        #: the file's ``hooks`` with its numbers as written (JSON; ``None`` for TOML, whose
        #: numbers are ``int`` and ``float``): the mcp_tool inputs are hashed from it
        self.written = written
        self.states = states
        self.lines = lines
        self.order = itertools.count() if order is None else order
        self.entries: list[HookEntry] = []
        self.problems: list[ConfigProblem] = []

    def where(self, pointer: str) -> Location:
        return Location(file=str(self.source.path), line=self.lines.get(pointer),
                        pointer=pointer)

    def warn(self, message: str, pointer: str, event: str | None = None,
             kind: ProblemKind = ProblemKind.CONFIG) -> None:
        self.problems.append(ConfigProblem(message=message, location=self.where(pointer),
                                           event=event, kind=kind))

    def toml_int(self, value: int, field: str, pointer: str) -> None:
        """Refuse a ``value`` Codex cannot hash: its hook's identity becomes TOML, whose
        integers are i64, and 0.171.0's whole hook discovery then panics ("normalized hook
        identity should serialize to TOML"; observed with ``hooks/list``): no hook runs."""
        if value > _I64_MAX:
            raise ConfigError(f"{field} {value} is above {_I64_MAX}: Codex's hook discovery "
                              "fails on it and runs no hook", file=str(self.source.path),
                              line=self.lines.get(pointer))

    def result(self) -> ConfigResult:
        return ConfigResult(entries=tuple(self.entries), problems=tuple(self.problems))

    def read_events(self, events: _wire.Events, base: str) -> None:
        # Codex numbers the handlers, and warns, event by event in its own order of events;
        # the entries are then put back in the document's order (the warnings stay in
        # Codex's, as its hooks/list gives them).
        for event in sorted(events, key=_EVENT_RANK.__getitem__):
            for gi, group in enumerate(events[event]):
                self.read_group(event, gi, group, f"{base}.{event}[{gi}]")
        place = {name: i for i, name in enumerate(events)}
        self.entries.sort(key=lambda e: place[e.event])

    def read_group(self, event: str, gi: int, group: _wire.MatcherGroup, pointer: str) -> None:
        matcher = None if event in ev.MATCHERLESS else group.matcher
        try:
            m.validate(matcher)
        except m.MatcherError as exc:
            self.warn(f"invalid matcher {json.dumps(matcher)} in {self.source.path}: {exc}",
                      f"{pointer}.matcher", event, ProblemKind.INVALID_MATCHER)
            return
        for hi, handler in enumerate(group.hooks):
            self.add(event, matcher, gi, hi, handler, f"{pointer}.hooks[{hi}]")

    def add(self, event: str, matcher: str | None, gi: int, hi: int,
            handler: _wire.Handler, pointer: str) -> None:
        path = self.source.path
        if isinstance(handler, _wire.McpToolHook):
            self.add_mcp(event, matcher, gi, hi, handler, pointer)
            return
        if not isinstance(handler, _wire.CommandHook):
            kind = handler.type
            self.warn(f"skipping {kind} hook in {path}: {kind} hooks are not supported yet",
                      pointer, event, ProblemKind.UNSUPPORTED)
            return
        command = handler.command
        if os.name == "nt" and handler.command_windows:
            command = handler.command_windows
        if not command.strip():
            self.warn(f"skipping empty hook command in {path}", pointer, event,
                      ProblemKind.INVALID_HANDLER)
            return
        timeout: int | None = handler.timeout
        background = handler.async_
        if event in ev.SHORT_TIMEOUT_EVENTS:
            timeout = ev.SHORT_DEFAULT_TIMEOUT if timeout is None else max(timeout, 1)
            if timeout > ev.SHORT_MAX_TIMEOUT:
                self.warn(f"clamping {event} hook timeout to {ev.SHORT_MAX_TIMEOUT}s in {path}",
                          pointer, event)
                timeout = ev.SHORT_MAX_TIMEOUT
            if background and event == "SessionEnd":
                self.warn(f"running async SessionEnd hook synchronously in {path}",
                          pointer, event)
                background = False
        else:
            timeout = max(ev.DEFAULT_TIMEOUT if timeout is None else timeout, 1)
        self.toml_int(timeout, "timeout", pointer)
        limit = handler.additional_context_limit
        if limit is not None and event not in ev.CONTEXT_EVENTS:
            self.warn(f"ignoring additionalContextLimit for {event} hook in {path}: "
                      "this event cannot emit additionalContext", pointer, event,
                      ProblemKind.UNSUPPORTED)
            limit = None
        if limit is not None:
            self.toml_int(limit, "additionalContextLimit", pointer)
        # the hash takes async as written (a SessionEnd hook runs synchronously all the same)
        normalised = {"command": command, "timeout": timeout, "async": handler.async_,
                      "statusMessage": handler.status_message,
                      "additionalContextLimit": limit}
        current = trust.hook_hash(event, matcher, normalised)
        key = trust.hook_key(self.source.key, event, gi, hi)
        state = self.states.get(key)
        status = trust.status(managed=self.source.managed, current_hash=current, state=state)
        run_command = command
        for name, value in self.source.env.items():
            run_command = run_command.replace("${" + name + "}", value)
        typed = CodexHandler(
            layer=self.source.label, managed=self.source.managed, key=key, hash=current,
            trust=status, enabled=trust.enabled(managed=self.source.managed, state=state),
            raw_command=command, timeout_set=handler.timeout is not None,
            async_written=handler.async_,
            status_message=handler.status_message, context_limit=limit,
            env=dict(self.source.env), plugin_id=self.source.plugin_id, group_index=gi,
            handler_index=hi, display_order=next(self.order))
        self.entries.append(HookEntry(
            dialect=DIALECT, event=event, command=run_command, matcher=matcher,
            timeout=float(timeout), background=background, provenance=self.source.provenance,
            location=self.where(pointer), handler=typed))


    def add_mcp(self, event: str, matcher: str | None, gi: int, hi: int,
                handler: _wire.McpToolHook, pointer: str) -> None:
        """An ``mcp_tool`` handler: run on the host's MCP sessions (not on SessionEnd, and
        only with a server and a tool, as in Codex)."""
        path = self.source.path
        if event == "SessionEnd" or not handler.server.strip() or not handler.tool.strip():
            why = ("SessionEnd MCP hooks are not supported" if event == "SessionEnd"
                   else "server and tool must not be empty")
            self.warn(f"skipping MCP tool hook in {path}: {why}", pointer, event,
                      ProblemKind.INVALID_HANDLER)
            return
        timeout: int = handler.timeout if handler.timeout is not None else ev.DEFAULT_TIMEOUT
        if event in ev.SHORT_TIMEOUT_EVENTS:
            timeout = min(max(handler.timeout or ev.SHORT_DEFAULT_TIMEOUT, 1),
                          ev.SHORT_MAX_TIMEOUT)
        timeout = max(timeout, 1)
        self.toml_int(timeout, "timeout", pointer)
        written = handler.input
        if self.written is not None and handler.input is not None:
            written = self.written[event][gi]["hooks"][hi]["input"]
        normalised = {"type": "mcp_tool", "server": handler.server, "tool": handler.tool,
                      "input": trust.mcp_input_identity(written or {}), "timeout": timeout,
                      "statusMessage": handler.status_message}
        current = trust.hook_hash(event, matcher, normalised)
        key = trust.hook_key(self.source.key, event, gi, hi)
        state = self.states.get(key)
        typed = CodexHandler(
            layer=self.source.label, managed=self.source.managed, key=key, hash=current,
            trust=trust.status(managed=self.source.managed, current_hash=current, state=state),
            enabled=trust.enabled(managed=self.source.managed, state=state),
            timeout_set=handler.timeout is not None, status_message=handler.status_message,
            plugin_id=self.source.plugin_id, group_index=gi, handler_index=hi,
            display_order=next(self.order), type="mcp_tool", server=handler.server,
            tool=handler.tool, input=dict(handler.input or {}))
        self.entries.append(HookEntry(
            dialect=DIALECT, event=event, command=typed.describe(), matcher=matcher,
            timeout=float(timeout), provenance=self.source.provenance,
            location=self.where(pointer), handler=typed))

def read_file(path: Path, *, provenance: Provenance = Provenance.USER,
              states: Mapping[str, trust.HookState] | None = None,
              managed: bool = False, label: str = "user") -> ConfigResult:
    """Read one named file: ``*.toml`` as a ``config.toml`` layer, anything else as
    ``hooks.json``."""
    source = Source(path=abspath(path), provenance=provenance, managed=managed, label=label)
    states = dict(states or {})
    if path.suffix == ".toml":
        data = _toml(path) if path.is_file() else {}
        states.update(trust.states_from(data))
        return read_config_toml(source, states, data)
    return read_hooks_json(source, states)


# -- layers --------------------------------------------------------------------------------------


def _layer(folder: Path, source: Source, states: Mapping[str, trust.HookState],
           seen: set[Path], order: Iterator[int]) -> ConfigResult:
    """One config layer: ``hooks.json`` then ``[hooks]`` of ``config.toml``."""
    json_path, toml_path = abspath(folder / "hooks.json"), abspath(folder / "config.toml")
    results: list[ConfigResult] = []
    if json_path.is_file() and json_path not in seen:
        seen.add(json_path)
        results.append(read_hooks_json(attrs.evolve(source, path=json_path), states, order))
    if toml_path.is_file() and toml_path not in seen:
        seen.add(toml_path)
        results.append(read_config_toml(attrs.evolve(source, path=toml_path), states,
                                        order=order))
    problems = [p for r in results for p in r.problems]
    if len(results) == 2 and results[0].entries and results[1].entries:
        problems.insert(0, ConfigProblem(  # Codex says it before reading either
            message=f"loading hooks from both {json_path} and {toml_path}; prefer a single "
                    "representation for this layer", location=Location(file=str(toml_path))))
    return ConfigResult(entries=tuple(e for r in results for e in r.entries),
                        problems=tuple(problems))


def project_dirs(cwd: Path) -> list[Path]:
    """Directories from the repository root (nearest ``.git`` above ``cwd``) down to ``cwd``."""
    cwd = abspath(cwd)
    chain = [cwd, *cwd.parents]
    root = next((d for d in chain if (d / ".git").exists()), cwd)
    return list(reversed(chain[: chain.index(root) + 1]))


def _project_trust(config: Mapping[str, Any], dirs: Sequence[Path], d: Path) -> str | None:
    projects = config.get("projects")
    if not isinstance(projects, Mapping):
        return None
    for candidate in (d, dirs[0]):
        entry = projects.get(str(candidate))
        if isinstance(entry, Mapping) and isinstance(entry.get("trust_level"), str):
            return str(entry["trust_level"])
    return None


def discover(cwd: str | Path, *, codex_home: Path | None = None,
             system_dir: Path | None = Path("/etc/codex"),
             plugins: Iterable[tuple[str, Path]] = (),
             plugin_data: Path | None = None) -> ConfigResult:
    """Every hook Codex would load for a session in ``cwd``, in Codex's order.

    ``plugins`` lists ``(plugin_id, plugin_root)`` of the enabled plugins. Discovered user,
    project and plugin hooks carry :attr:`Provenance.LIVE`/``PLUGIN`` and run only when
    trusted in ``$CODEX_HOME/config.toml``; system hooks (``system_dir``'s
    ``requirements.toml`` ``[hooks]``, then its ``hooks.json`` and ``config.toml``) are
    managed.
    """
    home = abspath(codex_home or trust.codex_home())
    user_toml = home / "config.toml"
    user_config: dict[str, Any] = {}
    if user_toml.exists():
        try:
            user_config = read_toml(read_text(user_toml), file=str(user_toml),
                                    max_depth=MAX_DEPTH).value
        except WireError as exc:
            raise ConfigError(f"cannot read the Codex user config: {exc.message}",
                              file=str(user_toml), line=exc.line) from None
    states = trust.states_from(user_config)
    seen: set[Path] = set()
    order = itertools.count()  # display orders, across every file of the session
    results: list[ConfigResult] = []
    if system_dir is not None:
        required, managed_only = _requirements(system_dir, states, order)
        results.append(required)
        results.append(_layer(system_dir, Source(
            path=system_dir, provenance=Provenance.MANAGED, managed=True, label="system"),
            states, seen, order))
        if managed_only:  # no user, project or plugin hook; Codex says nothing, we do
            results.append(_left_out(system_dir, home, user_config, cwd, plugins))
            return ConfigResult(entries=tuple(e for r in results for e in r.entries),
                                problems=tuple(p for r in results for p in r.problems))
    results.append(_layer(home, Source(path=home, provenance=Provenance.LIVE, label="user"),
                          states, seen, order))
    dirs = project_dirs(Path(cwd))
    for d in dirs:
        folder = abspath(d / ".codex")
        if not folder.is_dir() or folder == home:
            continue
        # a folder's own [projects] entry, else the repository root's; nothing else trusts
        # it (0.171.0 loaded no unlisted project, not even under approval_policy "never"
        # with sandbox_mode "danger-full-access", nor with the bypass flags)
        if _project_trust(user_config, dirs, d) != "trusted":
            results.append(ConfigResult(problems=(ConfigProblem(
                message=f"project hooks in {folder} not loaded: the project is not trusted "
                        f"in {user_toml}", location=Location(file=str(folder)),
                kind=ProblemKind.UNTRUSTED),)))
            continue
        results.append(_layer(folder, Source(path=folder, provenance=Provenance.LIVE,
                                             label="project"), states, seen, order))
    for plugin_id, root in plugins:
        data_dir = (plugin_data or home / "plugins" / "data") / plugin_id
        results.append(read_plugin(plugin_id, Path(root), data_dir, states, order))
    return ConfigResult(entries=tuple(e for r in results for e in r.entries),
                        problems=tuple(p for r in results for p in r.problems))


def _requirements(system_dir: Path, states: Mapping[str, trust.HookState],
                  order: Iterator[int]) -> tuple[ConfigResult, bool]:
    """The managed hooks of ``requirements.toml`` in ``system_dir`` (its ``[hooks]``, keyed
    by its absolute ``managed_dir`` when it names one, else by the file), numbered before
    every other layer's; and whether it sets ``allow_managed_hooks_only`` (then no user,
    project or plugin hook loads). As 0.171.0's ``hooks/list`` showed."""
    path = abspath(system_dir / "requirements.toml")
    if not path.is_file():
        return ConfigResult(), False
    data = _toml(path)
    hooks = data.get("hooks")
    folder = hooks.get("managed_dir") if isinstance(hooks, Mapping) else None
    source = Source(path=path, provenance=Provenance.MANAGED, managed=True, label="system",
                    key_source=folder if isinstance(folder, str) and os.path.isabs(folder)
                    else "")
    return (read_config_toml(source, states, data, order),
            data.get("allow_managed_hooks_only") is True)


def _left_out(system_dir: Path, home: Path, user_config: Mapping[str, Any], cwd: str | Path,
              plugins: Iterable[tuple[str, Path]]) -> ConfigResult:
    """A problem naming the hook sources ``allow_managed_hooks_only`` leaves out (none when
    there are none): a guard there does not run, and 0.171.0 does not say so."""
    sources = [str(home / "hooks.json")] if (home / "hooks.json").is_file() else []
    if "hooks" in user_config:
        sources.append(str(home / "config.toml"))
    sources += [str(d / ".codex") for d in project_dirs(Path(cwd)) if (d / ".codex").is_dir()
                and abspath(d / ".codex") != home]
    sources += [f"plugin {plugin_id}" for plugin_id, _ in plugins]
    if not sources:
        return ConfigResult()
    requirements = abspath(system_dir / "requirements.toml")
    return ConfigResult(problems=(ConfigProblem(
        message=f"hooks not loaded: {requirements} sets allow_managed_hooks_only, which leaves "
                f"out {', '.join(sources)}", location=Location(file=str(requirements)),
        kind=ProblemKind.DISABLED),))


def read_plugin(plugin_id: str, root: Path, data_dir: Path,
                states: Mapping[str, trust.HookState],
                order: Iterator[int] | None = None) -> ConfigResult:
    """The hooks of one plugin: its manifest's ``hooks`` (paths or inline objects), else
    ``hooks/hooks.json``; placeholders ``${PLUGIN_ROOT}``/``${PLUGIN_DATA}`` (and the
    ``CLAUDE_`` spellings) are replaced in the commands and exported to the hook."""
    root = abspath(root)
    env = {"PLUGIN_ROOT": str(root), "CLAUDE_PLUGIN_ROOT": str(root),
           "PLUGIN_DATA": str(data_dir), "CLAUDE_PLUGIN_DATA": str(data_dir)}
    manifest_path = root / ".codex-plugin" / "plugin.json"
    declared: Any = None
    manifest_text = ""
    if manifest_path.is_file():
        try:
            manifest_text = read_text(manifest_path)
            manifest = parse_json(manifest_text, file=str(manifest_path), max_depth=MAX_DEPTH)
            if not isinstance(manifest, dict):
                raise WireError("a plugin manifest is a JSON object", file=str(manifest_path))
            declared = manifest.get("hooks")
        except WireError as exc:
            return ConfigResult(problems=(ConfigProblem(
                message=f"failed to read plugin manifest {manifest_path}: {exc}",
                location=Location(file=str(manifest_path))),))
    items = declared if isinstance(declared, list) else [declared] if declared else \
        ["hooks/hooks.json"]
    results: list[ConfigResult] = []
    order = itertools.count() if order is None else order
    for i, item in enumerate(items):
        base = Source(path=root, provenance=Provenance.PLUGIN, label="plugin", env=env,
                      plugin_id=plugin_id)
        if isinstance(item, str):
            path = abspath(root / item)
            if not path.is_file():
                continue
            source = attrs.evolve(base, path=path, key_source=f"{plugin_id}:{item}")
            results.append(read_hooks_json(source, states, order))
        elif isinstance(item, dict):
            source = attrs.evolve(base, path=manifest_path,
                                  key_source=f"{plugin_id}:plugin.json#hooks[{i}]")
            try:
                events = _wire.structure(item.get("hooks", {}), _wire.Events,
                                         f"$.hooks[{i}].hooks", {})
            except _wire.WireFailure as exc:
                results.append(_failed(source, str(exc)))
                continue
            written = _as_written(manifest_text, "hooks", *([i] if isinstance(declared, list)
                                                             else []), "hooks")
            reader = _Reader(source, states, {}, order, written)
            reader.read_events(events, f"$.hooks[{i}].hooks")
            results.append(reader.result())
    return ConfigResult(entries=tuple(e for r in results for e in r.entries),
                        problems=tuple(p for r in results for p in r.problems))


# -- writing -------------------------------------------------------------------------------------


def to_hooks_json(entries: Iterable[HookEntry]) -> dict[str, Any]:
    """A ``hooks.json`` document holding ``entries`` (one group per consecutive run of one
    event and matcher), the inverse of :func:`read_hooks_json` for command hooks."""
    hooks: dict[str, list[dict[str, Any]]] = {}
    for entry in entries:
        groups = hooks.setdefault(entry.event, [])
        if not groups or groups[-1].get("matcher") != entry.matcher:
            group: dict[str, Any] = {"hooks": []}
            if entry.matcher is not None:
                group["matcher"] = entry.matcher
            groups.append(group)
        h = handler_of(entry)
        handler: dict[str, Any] = {"type": "command", "command": h.raw_command or entry.display}
        if entry.timeout is not None and h.timeout_set:
            handler["timeout"] = int(entry.timeout)
        if entry.background or h.async_written:
            handler["async"] = True
        if h.status_message is not None:
            handler["statusMessage"] = h.status_message
        if h.context_limit is not None:
            handler["additionalContextLimit"] = h.context_limit
        groups[-1]["hooks"].append(handler)
    return {"hooks": hooks}
