"""Reading Claude Code's hook configuration: settings files and plugin ``hooks.json``.

A file's ``hooks`` block is ``{Event: [{matcher?, hooks: [handler, ...]}, ...]}``. As in Claude
Code (2.1.101 and 2.1.122), an unknown event or a malformed entry does not invalidate the file:
it is left out and reported with the file, line and JSON path. Only a file that is not a JSON
object at all raises :class:`~hookwire.ConfigError`.

Installed plugins and their hook files are found by :mod:`._plugins`.

Sources and their scopes (for ``disableAllHooks`` precedence, highest first): ``managed``
(``managed-settings.json``), ``cli`` (any other named file, like ``--settings``), ``local``
(``.claude/settings.local.json``), ``project`` (``.claude/settings.json``), ``user``
(``~/.claude/settings.json``); ``plugin`` for ``<plugin>/hooks/hooks.json`` and
``<plugin>/.claude-plugin/plugin.json``.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any, Literal

import attrs
import cattrs
from cattrs.gen import make_dict_structure_fn, override

from hookwire.dialect import (
    ConfigProblem,
    ConfigResult,
    HookEntry,
    Location,
    ProblemKind,
    Provenance,
)
from hookwire.dialects.claude import _inconfig as _in
from hookwire.dialects.claude import _levels, _managed, _permissions, _powershell
from hookwire.dialects.claude import matcher as _matcher
from hookwire.dialects.claude._jsonpos import Path as JPath
from hookwire.dialects.claude._jsonpos import line_for, pointer
from hookwire.dialects.claude._levels import SCOPE_RANK
from hookwire.dialects.claude._plugins import (  # noqa: F401 (their old home: re-exported)
    installed_plugins,
    plugin_hook_files,
)
from hookwire.dialects.claude.events import EVENTS, NARROW_MATCHER_EVENTS, TOOL_EVENTS
from hookwire.dialects.claude.handler import ClaudeHandler
from hookwire.errors import ConfigError, WireError
from hookwire.wire import parse_json, read_json, read_text

DIALECT = "claude"
#: The ranks of the scopes a repository writes (project and local settings).
REPO_RANKS = frozenset({SCOPE_RANK["project"], SCOPE_RANK["local"]})
#: Keys Claude Code's own files use on handlers without documenting them.
_QUIET_KEYS = frozenset({"rewakeMessage", "rewakeSummary"})


@attrs.frozen(kw_only=True)
class CommandHandler:
    """A ``type: "command"`` handler, as written (``async``/``if`` renamed)."""

    type: Literal["command"]
    command: str
    args: tuple[str, ...] | None = None
    shell: Literal["bash", "powershell"] | None = None
    timeout: float | None = None
    async_: bool = False
    asyncRewake: bool = False
    rewakeMessage: str | None = None
    rewakeSummary: str | None = None
    onFailure: Literal["continue", "block"] = "continue"
    if_: str | None = None
    statusMessage: str | None = None
    once: bool | None = None


_FIELDS = {"type", "command", "args", "shell", "timeout", "async", "asyncRewake", "onFailure",
           "if", "statusMessage", "once", "rewakeMessage", "rewakeSummary"}


@attrs.frozen(kw_only=True)
class HttpHandler:
    """A ``type: "http"`` handler: the payload is POSTed to ``url``."""

    type: Literal["http"]
    url: str
    headers: dict[str, str] | None = None
    allowedEnvVars: tuple[str, ...] | None = None
    timeout: float | None = None
    onFailure: Literal["continue", "block"] = "continue"
    if_: str | None = None
    statusMessage: str | None = None
    once: bool | None = None


_HTTP_FIELDS = {"type", "url", "headers", "allowedEnvVars", "timeout", "onFailure", "if",
                "statusMessage", "once"}


def _strict(*types: type) -> Any:
    def hook(value: Any, _: Any) -> Any:
        if type(value) not in types:
            raise TypeError(f"expected {' or '.join(t.__name__ for t in types)}, "
                            f"got {json.dumps(value)[:40]}")
        return value
    return hook


def make_converter() -> cattrs.Converter:
    """This dialect's converter (strict scalar types; the global converter is never used)."""
    conv = cattrs.Converter(detailed_validation=True)
    conv.register_structure_hook(str, _strict(str))
    conv.register_structure_hook(bool, _strict(bool))
    conv.register_structure_hook(float, lambda v, _: float(_strict(int, float)(v, _)))
    conv.register_structure_hook_func(
        lambda t: t == tuple[str, ...],
        lambda v, _: tuple(conv.structure(x, str) for x in _strict(list)(v, _)))
    conv.register_structure_hook(CommandHandler, make_dict_structure_fn(
        CommandHandler, conv, async_=override(rename="async"), if_=override(rename="if")))
    for cls in (HttpHandler, _in.PromptHandler, _in.McpToolHandler):
        conv.register_structure_hook(cls, make_dict_structure_fn(
            cls, conv, if_=override(rename="if")))
    return conv


CONVERTER = make_converter()


def config_dir(home: str | Path | None = None, env: Mapping[str, str] | None = None) -> Path:
    """Claude Code's user folder: ``$CLAUDE_CONFIG_DIR`` when set, else ``<home>/.claude``
    (``home``: the user's home directory, default the real one)."""
    env = os.environ if env is None else env
    configured = env.get("CLAUDE_CONFIG_DIR")
    if configured:
        return Path(os.path.expanduser(configured))
    return (Path(home) if home is not None else Path(os.path.expanduser("~"))) / ".claude"


def scope_of(path: Path, home: Path | None = None) -> str:
    """Which settings level ``path`` is, from its name and place."""
    home = home or Path(os.path.expanduser("~"))
    if _plugin_root(path) is not None:
        return "plugin"
    if path.name == "managed-settings.json" or path.parent.name == "managed-settings.d":
        return "managed"
    if path.name == "settings.json" and _same(path.parent, config_dir(home)):
        return "user"
    if path.parent.name == ".claude" and path.name == "settings.local.json":
        return "local"
    if path.parent.name == ".claude" and path.name == "settings.json":
        return "user" if _same(path.parent.parent, home) else "project"
    return "cli"


def _same(a: Path, b: Path) -> bool:
    try:
        return a.resolve() == b.resolve()
    except (OSError, RuntimeError):  # RuntimeError: a symlink loop
        return a == b


def _key(path: Path) -> str:
    try:
        return str(path.resolve())
    except (OSError, RuntimeError):  # a symlink loop
        return os.path.abspath(path)


def _plugin_root(path: Path) -> Path | None:
    if path.name == "hooks.json" and path.parent.name == "hooks":
        return path.parent.parent
    if path.name == "plugin.json" and path.parent.name == ".claude-plugin":
        return path.parent.parent
    return None


def plugin_info(root: Path) -> tuple[str, Path]:
    """A plugin's name (``plugin.json`` ``name``, else its folder) and its data folder."""
    name = root.name
    manifest = root / ".claude-plugin" / "plugin.json"
    try:
        data = parse_json(read_text(manifest))
        if isinstance(data, dict) and isinstance(data.get("name"), str):
            name = data["name"]
    except WireError:
        pass
    safe = re.sub(r"[^A-Za-z0-9_.-]", "-", name)
    return name, config_dir() / "plugins" / "data" / safe


@attrs.define
class _Reader:
    file: str
    provenance: Provenance
    scope: str
    lines: dict[JPath, int]
    plugin: Mapping[str, str] | None = None
    entries: list[HookEntry] = attrs.Factory(list)
    problems: list[ConfigProblem] = attrs.Factory(list)

    def where(self, path: JPath) -> Location:
        return Location(file=self.file, line=line_for(self.lines, path), pointer=pointer(path))

    def problem(self, message: str, path: JPath, event: str | None = None,
                severity: str = "warning", kind: ProblemKind = ProblemKind.CONFIG) -> None:
        self.problems.append(ConfigProblem(message=message, location=self.where(path),
                                           event=event, severity=severity, kind=kind))

    def read_hooks(self, hooks: Any, base: JPath) -> None:
        if not isinstance(hooks, dict):
            self.problem("`hooks` must be an object of event names; ignored", base,
                         severity="error")
            return
        for event, groups in hooks.items():
            path = (*base, event)
            spec = EVENTS.get(event)
            if spec is None:
                self.problem(f"unknown event {event!r}: ignored (Claude Code ignores it too)",
                             path, event, kind=ProblemKind.UNKNOWN_EVENT)
                continue
            if spec.seam is None:
                self.problem(f"event {event!r} is not emitted by this host: hookwire has no "
                             "seam for it, so its hooks never run", path, event,
                             kind=ProblemKind.NO_SEAM)
            if not isinstance(groups, list):
                self.problem("must be an array of matcher groups; ignored", path, event, "error",
                             ProblemKind.INVALID_HANDLER)
                continue
            for gi, group in enumerate(groups):
                self.read_group(event, group, (*path, gi))

    def read_group(self, event: str, group: Any, path: JPath) -> None:
        if not isinstance(group, dict):
            self.problem("a matcher group must be an object; ignored", path, event, "error",
                         ProblemKind.INVALID_HANDLER)
            return
        matcher = group.get("matcher")
        if matcher is not None and not isinstance(matcher, str):
            self.problem("`matcher` must be a string; group ignored", (*path, "matcher"), event,
                         "error", ProblemKind.INVALID_HANDLER)
            return
        why = _matcher.check(matcher, narrow=event in NARROW_MATCHER_EVENTS)
        if why:
            self.problem(why, (*path, "matcher"), event, kind=ProblemKind.INVALID_MATCHER)
        for key in group.keys() - {"matcher", "hooks"}:
            self.problem(f"unknown key {key!r} in a matcher group: ignored", (*path, key), event,
                         kind=ProblemKind.UNSUPPORTED)
        handlers = group.get("hooks")
        if not isinstance(handlers, list):
            self.problem("`hooks` must be an array of handlers; group ignored", path, event,
                         "error", ProblemKind.INVALID_HANDLER)
            return
        for hi, raw in enumerate(handlers):
            self.read_handler(event, matcher, raw, (*path, "hooks", hi))

    def read_handler(self, event: str, matcher: str | None, raw: Any, path: JPath) -> None:
        if not isinstance(raw, dict):
            self.problem("a handler must be an object; ignored", path, event, "error",
                         ProblemKind.INVALID_HANDLER)
            return
        kind = raw.get("type")
        cls: type[CommandHandler | HttpHandler | _in.PromptHandler | _in.McpToolHandler] = (
            HttpHandler if kind == "http" else _in.PromptHandler if kind in ("prompt", "agent")
            else _in.McpToolHandler if kind == "mcp_tool" else CommandHandler)
        try:
            handler = CONVERTER.structure(raw, cls)
        except Exception as exc:
            for msg in cattrs.transform_error(exc, path=pointer(path)):
                text, _, at = msg.rpartition(" @ ")
                at = at.replace(".async_", ".async").replace(".if_", ".if")
                sub = _subpath(at, pointer(path))
                self.problem(f"{text} @ {at}; handler ignored", (*path, *sub), event, "error",
                             ProblemKind.INVALID_HANDLER)
            return
        if handler.timeout is not None and not handler.timeout > 0:
            self.problem("`timeout` must be a positive number of seconds; handler ignored",
                         (*path, "timeout"), event, "error", ProblemKind.INVALID_HANDLER)
            return
        known = {HttpHandler: _HTTP_FIELDS, _in.PromptHandler: _in.PROMPT_FIELDS,
                 _in.McpToolHandler: _in.MCP_FIELDS}.get(cls, _FIELDS)
        for key in sorted(raw.keys() - known - _QUIET_KEYS):
            self.problem(f"unknown handler key {key!r}: ignored", (*path, key), event,
                         kind=ProblemKind.UNSUPPORTED)
        if handler.if_ is not None and event not in TOOL_EVENTS:
            self.problem(f"`if` only applies to tool events; on {event} this handler never "
                         "runs (as in Claude Code)", (*path, "if"), event)
        if isinstance(handler, _in.PromptHandler | _in.McpToolHandler):
            why = _in.refused(handler, event)
            if why is not None:
                self.problem(why, path, event, kind=ProblemKind.UNSUPPORTED)
                return
            self.entries.append(HookEntry(
                dialect=DIALECT, event=event, command=_in.command_of(handler), matcher=matcher,
                timeout=handler.timeout, provenance=self.provenance, location=self.where(path),
                handler=self.handler(handler)))
            return
        if isinstance(handler, HttpHandler):
            if event == "SessionStart":
                self.problem("SessionStart does not accept http handlers (as in Claude Code): "
                             "skipped", path, event, kind=ProblemKind.UNSUPPORTED)
                return
            self.entries.append(self.http_entry(event, matcher, handler, path))
            return
        if handler.args is not None and re.search(r"\s", handler.command):
            self.problem("exec form (`args`) with whitespace in `command`: the spawn will fail",
                         (*path, "command"), event)
        self.entries.append(self.entry(event, matcher, handler, path))

    def handler(self, h: CommandHandler | HttpHandler | _in.PromptHandler | _in.McpToolHandler
                ) -> ClaudeHandler:
        """The entry's typed handler: the parsed handler, its settings level and plugin."""
        common: dict[str, Any] = {"scope": self.scope, "onFailure": h.onFailure, "if_": h.if_,
                                  "statusMessage": h.statusMessage,
                                  "plugin": dict(self.plugin or {})}
        if isinstance(h, _in.PromptHandler | _in.McpToolHandler):
            return ClaudeHandler(**common, **_in.fields(h))
        if isinstance(h, HttpHandler):
            return ClaudeHandler(type="http", headers=dict(h.headers or {}),
                                 allowedEnvVars=tuple(h.allowedEnvVars or ()), **common)
        shell: Literal["bash", "powershell"] = (
            "powershell" if h.shell == "powershell" and h.args is None else "bash")
        return ClaudeHandler(asyncRewake=h.asyncRewake, rewakeMessage=h.rewakeMessage,
                             rewakeSummary=h.rewakeSummary, shell=shell, **common)

    def http_entry(self, event: str, matcher: str | None, h: HttpHandler,
                   path: JPath) -> HookEntry:
        handler = self.handler(h)
        return HookEntry(
            dialect=DIALECT, event=event, command=h.url, matcher=matcher, timeout=h.timeout,
            provenance=self.provenance, location=self.where(path), handler=handler)

    def entry(self, event: str, matcher: str | None, h: CommandHandler,
              path: JPath) -> HookEntry:
        command: str | tuple[str, ...]
        plugin = self.plugin or {}

        def sub(text: str) -> str:
            for name, value in plugin.items():
                text = text.replace("${" + name + "}", value)
            return text

        if h.args is not None:
            command = (sub(h.command), *(sub(a) for a in h.args))
        elif h.shell == "powershell":  # PowerShell reads the placeholders from its env
            command = _powershell.rewrite(h.command)
        else:
            command = sub(h.command)
        handler = self.handler(h)
        return HookEntry(
            dialect=DIALECT, event=event, command=command, matcher=matcher, timeout=h.timeout,
            background=h.async_ or h.asyncRewake, provenance=self.provenance,
            location=self.where(path), handler=handler)


def _subpath(at: str, base: str) -> JPath:
    rest = at[len(base):] if at.startswith(base) else ""
    out: list[str | int] = []
    for name, index in re.findall(r"\.([A-Za-z_][A-Za-z0-9_]*)|\[(\d+)\]", rest):
        out.append(name if name else int(index))
    return tuple(out)


def read_file(path: Path, *, provenance: Provenance = Provenance.USER,
              home: Path | None = None, plugin_root: Path | None = None,
              _reading: frozenset[str] = frozenset()) -> ConfigResult:
    """Read the hooks of one settings file, plugin ``hooks.json`` or plugin ``plugin.json``.

    ``plugin_root``: the file belongs to the plugin installed there (needed for hook files a
    manifest names outside ``hooks/hooks.json``). ``settings`` of the result: ``scope``,
    ``disableAllHooks`` (``None`` when unset), ``enabledPlugins`` (``{}`` when unset) and
    ``policy``: the other hook policy keys it sets (:func:`._levels.read_keys`);
    ``permissions``: the rules of :mod:`._permissions`.
    """
    file = str(path)
    doc = read_json(read_text(path), file=file)  # WireError: a located ConfigError
    data, lines = doc.value, dict(doc.lines)
    if not isinstance(data, dict):
        raise ConfigError("a Claude Code settings file must be a JSON object", file=file, line=1)
    root = plugin_root if plugin_root is not None else _plugin_root(path)
    scope = "plugin" if root is not None else scope_of(path, home)
    plugin = None
    if root is not None:
        name, data_dir = plugin_info(root)
        plugin = {"CLAUDE_PLUGIN_ROOT": str(root), "CLAUDE_PLUGIN_DATA": str(data_dir),
                  "CLAUDE_PLUGIN_NAME": name}
    reader = _Reader(file=file, provenance=provenance, scope=scope, lines=lines, plugin=plugin)
    disable = data.get("disableAllHooks")
    if disable is not None and not isinstance(disable, bool):
        reader.problem("`disableAllHooks` must be true or false; ignored", ("disableAllHooks",),
                       severity="error")
        disable = None
    hooks = data.get("hooks")
    if isinstance(hooks, (str, list)) and path.name == "plugin.json" and root is not None:
        for i, rel in enumerate([hooks] if isinstance(hooks, str) else hooks):
            at: JPath = ("hooks",) if isinstance(hooks, str) else ("hooks", i)
            if not isinstance(rel, str):
                reader.problem("plugin `hooks` paths must be strings", at, severity="error")
                continue
            target = root / rel
            if _key(target) in _reading | {_key(path)}:
                reader.problem(f"plugin `hooks` path {rel!r} names a file being read already "
                               "(a loop): not read again", at, severity="error")
                continue
            try:
                sub = read_file(target, provenance=provenance, home=home, plugin_root=root,
                                _reading=_reading | {_key(path)})
            except ConfigError as exc:
                reader.problem(f"plugin hooks file {rel!r}: {exc}", at, severity="error")
                continue
            reader.entries.extend(sub.entries)
            reader.problems.extend(sub.problems)
    elif hooks is not None:
        reader.read_hooks(hooks, ("hooks",))
    policy = _levels.read_keys(data, scope, lambda msg, key: reader.problem(msg, (key,)))
    if disable and scope != "plugin":
        reader.problem("disableAllHooks is true: no hook runs unless a higher settings level "
                       "sets it back to false", ("disableAllHooks",))
    enabled: dict[str, bool] = {}
    plugins = data.get("enabledPlugins") if scope != "plugin" else None
    if isinstance(plugins, dict):
        enabled = {k: v for k, v in plugins.items() if isinstance(v, bool)}
    elif plugins is not None:
        reader.problem("`enabledPlugins` must be an object of plugin ids; ignored",
                       ("enabledPlugins",), severity="error")
    permissions = () if scope == "plugin" else _permissions.read(
        data.get("permissions"), file,
        lambda msg, at: reader.problem(msg, ("permissions", *at), severity="error"))
    return ConfigResult(entries=tuple(reader.entries), problems=tuple(reader.problems),
                        settings={"scope": scope, "disableAllHooks": disable,
                                  "enabledPlugins": enabled, "policy": policy,
                                  "permissions": permissions})


def discover(project_dir: str | Path, *, home: str | Path | None = None,
             managed: str | Path | None = None, settings: Iterable[str | Path] = (),
             plugins: Iterable[str | Path] = (), config: str | Path | None = None,
             managed_dir: str | Path | None = None) -> list[tuple[Path, Provenance]]:
    """The files Claude Code would read for a session launched in ``project_dir``, in order.

    ``config`` is Claude Code's user folder (default :func:`config_dir`: ``$CLAUDE_CONFIG_DIR``,
    else ``<home>/.claude``). ``settings`` are ``--settings``-style files, ``plugins`` plugin
    roots. ``managed_dir``: the managed settings folder, whose ``managed-settings.json`` and
    ``managed-settings.d/*.json`` are read (:mod:`._managed`); ``managed``: one more managed
    file. Missing files are left out. Only ``project_dir`` itself is looked at, never its
    parents (as observed).
    """
    user = Path(config) if config is not None else config_dir(home)
    proj = Path(project_dir)
    found: list[tuple[Path, Provenance]] = [  # the user's own, then the repository's
        (user / "settings.json", Provenance.USER),
        (proj / ".claude" / "settings.json", Provenance.PROJECT),
        (proj / ".claude" / "settings.local.json", Provenance.PROJECT),
    ]
    found += [(Path(s), Provenance.USER) for s in settings]
    if managed_dir is not None:
        found += [(p, Provenance.MANAGED) for p in _managed.managed_files(Path(managed_dir))]
    if managed is not None:
        found.append((Path(managed), Provenance.MANAGED))
    for root in plugins:
        found.append((Path(root) / "hooks" / "hooks.json", Provenance.PLUGIN))
    return [(p, prov) for p, prov in found if p.is_file()]
