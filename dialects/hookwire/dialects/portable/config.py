"""Reading a portable ``hooks.json``: the versioned format, validated handler by handler.

The file sits at the plugin root (its parent directory is ``PLUGIN_ROOT``)::

    {"$schema": "https://hookwire.dev/schemas/portable-hooks/0.1.0/hooks.schema.json",
     "hooks": {"pre-tool-use": [{"command": "./bin/record", "args": ["${PLUGIN_ROOT}/x"]}]}}

Failures are handled at the narrowest boundary, as the Agent Plugins spec does: an unreadable
file raises :class:`~hookwire.errors.ConfigError`; an unsupported ``$schema`` or a malformed
top level rejects the whole file (an error problem, no entries); a bad handler is skipped with
an error problem naming it, and the others load. ``schema/hooks.schema.json`` says the same.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
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
from hookwire.dialects.portable import _paths, _wire
from hookwire.dialects.portable.events import (
    EVENTS,
    MAX_TIMEOUT,
    PORTABLE_EVENTS,
    POST_FAILED,
    POST_TOOL_USE,
    SESSION_END,
)
from hookwire.dialects.portable.handler import PortableHandler
from hookwire.errors import ConfigError, WireError
from hookwire.wire import Path as JPath
from hookwire.wire import line_for, parse_json, read_json, read_text

SCHEMA_VERSION = "0.1.0"
SCHEMA_ID = f"https://hookwire.dev/schemas/portable-hooks/{SCHEMA_VERSION}/hooks.schema.json"
#: The Portable Hooks proposal's own examples cite the Agent Plugins 1.1.0 draft's hooks schema
#: (agent-plugins-spec discussion #54); the file shape is the same, so it is read alike.
PROPOSAL_SCHEMA_ID = "https://agent-plugins.org/schemas/1.1.0/hooks.schema.json"
SUPPORTED_SCHEMAS = frozenset({SCHEMA_ID, PROPOSAL_SCHEMA_ID})
FILE_NAME = "hooks.json"

MAX_PER_EVENT = 8
MAX_HANDLERS = 32
MAX_ARGS = 64
MAX_ENV = 64
HANDLER_KEYS = frozenset({"command", "args", "env", "cwd", "timeout", "result"})
RESULT_MODES = ("none", "context")
ENV_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
PLUGIN_NAME = re.compile(r"[a-z0-9](?:[a-z0-9.-]{0,62}[a-z0-9])?")


@attrs.frozen(kw_only=True)
class Handler:
    """One validated handler, placeholders not yet expanded."""

    event: str
    index: int
    command: str
    args: tuple[str, ...] = ()
    env: Mapping[str, str] = attrs.field(factory=dict)
    cwd: str | None = None
    timeout: float | None = None
    context: bool = False


@attrs.frozen(kw_only=True)
class PluginHooks:
    """A plugin's hooks file as read: its root, name, handlers in declaration order, problems."""

    root: Path
    name: str
    file: Path
    handlers: tuple[Handler, ...] = ()
    problems: tuple[ConfigProblem, ...] = ()

    @property
    def events(self) -> tuple[str, ...]:
        """The portable events this plugin has at least one valid handler for."""
        used = {h.event for h in self.handlers}
        return tuple(e for e in PORTABLE_EVENTS if e in used)

    @property
    def ok(self) -> bool:
        return not any(p.severity == "error" for p in self.problems)


def plugin_name(root: Path) -> str:
    """``name`` from the Agent Plugins manifest when present and valid, else a slug of the
    directory name."""
    try:
        manifest = parse_json(read_text(root / "plugin.json"))
        name = manifest.get("name") if isinstance(manifest, dict) else None
    except WireError:
        name = None
    if isinstance(name, str) and PLUGIN_NAME.fullmatch(name) and "--" not in name \
            and ".." not in name:
        return name
    slug = re.sub(r"[^a-z0-9.-]+", "-", root.name.lower()).strip("-.")
    return slug or "plugin"


def hooks_file(path: Path) -> Path:
    """``path`` itself, or the ``hooks.json`` inside it when it is a plugin directory."""
    return path / FILE_NAME if path.is_dir() else path


def load(path: Path) -> PluginHooks:
    """Read and validate one hooks file (or plugin directory)."""
    file = hooks_file(Path(path))
    if not file.exists():
        raise ConfigError("no such hooks file", file=str(file))
    doc = read_json(read_text(file), file=str(file))  # WireError: a located ConfigError
    data = doc.value
    root = Path(file).absolute().parent
    reader = _Reader(file=str(file), lines=doc.lines)
    handlers = reader.read(data, root)
    return PluginHooks(root=root, name=plugin_name(root), file=file, handlers=handlers,
                       problems=tuple(reader.problems))


def entries(hooks: PluginHooks, provenance: Provenance = Provenance.PLUGIN,
            dialect: str = "portable") -> tuple[HookEntry, ...]:
    """The kernel's entries for ``hooks``; each post-tool-use handler also gets its shadow on
    the failure seam (same handler, same position)."""
    out: list[HookEntry] = []
    for h in hooks.handlers:
        typed = PortableHandler(root=str(hooks.root), plugin=hooks.name, args=h.args,
                                env=dict(h.env), cwd=h.cwd, context=h.context, index=h.index)
        where = Location(file=str(hooks.file), pointer=f"$.hooks.{h.event}[{h.index}]")
        base = HookEntry(dialect=dialect, event=h.event, command=(h.command, *h.args),
                         timeout=h.timeout, provenance=provenance, location=where,
                         handler=typed)
        out.append(base)
        if h.event == POST_TOOL_USE:
            out.append(attrs.evolve(base, event=POST_FAILED))
    return tuple(out)


def read_config(path: Path, *, provenance: Provenance = Provenance.PLUGIN,
                dialect: str = "portable") -> ConfigResult:
    hooks = load(path)
    return ConfigResult(entries=entries(hooks, provenance, dialect), problems=hooks.problems,
                        settings={"root": str(hooks.root), "plugin": hooks.name})


@attrs.define
class _Reader:
    file: str
    lines: Mapping[JPath, int]
    problems: list[ConfigProblem] = attrs.Factory(list)

    def problem(self, message: str, pointer: str, event: str | None = None,
                severity: str = "error", kind: ProblemKind = ProblemKind.CONFIG,
                path: JPath | None = None) -> None:
        if path is None:
            path = ("hooks", event) if event else ()
        self.problems.append(ConfigProblem(
            message=message, event=event, severity=severity, kind=kind,
            location=Location(file=self.file, line=line_for(self.lines, path),
                              pointer=pointer)))

    def read(self, data: Any, root: Path) -> tuple[Handler, ...]:
        if not isinstance(data, dict):
            self.problem("a hooks file is a JSON object", "$")
            return ()
        doc, refused = _wire.structure(data, _wire.HooksFile)
        schema = data.get("$schema")
        if "$schema" in refused.fields or schema not in SUPPORTED_SCHEMAS:
            self.problem(f"unsupported $schema {schema!r} (supported: {SCHEMA_ID}); "
                         "the file is rejected", "$.$schema")
            return ()
        if refused.unknown:
            key = refused.unknown[0]
            self.problem(f"unknown key {key!r}; the file is rejected", f"$.{key}")
            return ()
        if doc is None:
            self.problem("hooks must be an object of event → handler list", "$.hooks")
            return ()
        hooks = doc.hooks
        found: list[Handler] = []
        for event, items in hooks.items():
            ptr = f"$.hooks.{event}"
            if event not in EVENTS or event == POST_FAILED:
                self.problem(f"unknown event {event!r} (events: {', '.join(PORTABLE_EVENTS)})",
                             ptr, event, kind=ProblemKind.UNKNOWN_EVENT)
                continue
            if not isinstance(items, list) or not 1 <= len(items) <= MAX_PER_EVENT:
                self.problem(f"must be a list of 1 to {MAX_PER_EVENT} handlers", ptr, event,
                             kind=ProblemKind.INVALID_HANDLER)
                continue
            for i, raw in enumerate(items):
                handler = self.handler(event, i, raw, root)
                if handler is not None:
                    found.append(handler)
        if len(found) > MAX_HANDLERS:
            self.problem(f"a plugin may declare at most {MAX_HANDLERS} handlers; the file is "
                         "rejected", "$.hooks")
            return ()
        return tuple(found)

    def handler(self, event: str, i: int, raw: Any, root: Path) -> Handler | None:
        ptr = f"$.hooks.{event}[{i}]"
        before = len(self.problems)

        def bad(msg: str, field: str = "") -> None:
            self.problem(msg, ptr + (f".{field}" if field else ""), event,
                         kind=ProblemKind.INVALID_HANDLER,
                         path=("hooks", event, i, *field.split(".", 1)[:1]) if field
                         else ("hooks", event, i))

        if not isinstance(raw, dict):
            bad("a handler is an object with a command")
            return None
        spec, refused = _wire.structure(raw, _wire.HandlerSpec)
        for key in refused.unknown:
            bad(f"unknown handler key {key!r}", key)
        wrong = refused.fields
        if "command" in wrong:
            bad("command is required: one executable token", "command")
        elif (why := _paths.check_command(raw["command"])) is not None:
            bad(why, "command")
        elif raw["command"].startswith("./"):
            try:
                _paths.contained(root / raw["command"][2:], root, "command")
            except _paths.ContainmentError as exc:
                bad(exc.message, "command")
        if "args" in wrong:
            bad("args must be a list of strings", "args")
        elif len(raw.get("args", ())) > MAX_ARGS:
            bad(f"at most {MAX_ARGS} args", "args")
        if "env" in wrong:
            bad("env must map names to strings", "env")
        else:
            env = raw.get("env", {})
            if len(env) > MAX_ENV:
                bad(f"at most {MAX_ENV} env entries", "env")
            for name in env:
                if name.upper() in _paths.RESERVED_ENV:
                    bad(f"{name} is reserved: the client sets PLUGIN_ROOT and PLUGIN_DATA",
                        f"env.{name}")
                elif not ENV_NAME.fullmatch(name):
                    bad(f"{name!r} is not an environment variable name", f"env.{name}")
        cwd = raw.get("cwd")
        if "cwd" in wrong:
            bad("cwd must be a string", "cwd")
        elif cwd is not None:
            if (why := _paths.check_cwd(cwd)) is not None:
                bad(why, "cwd")
            elif cwd.startswith("./") or cwd.startswith(_paths.ROOT):
                try:
                    _paths.resolve_cwd(cwd, str(root), str(root))
                except _paths.ContainmentError as exc:
                    bad(exc.message, "cwd")
        timeout = raw.get("timeout")
        if "timeout" in wrong or (timeout is not None and not 0 < timeout <= MAX_TIMEOUT):
            bad(f"timeout is a number of seconds in (0, {MAX_TIMEOUT:g}]", "timeout")
        if "result" in wrong:
            bad(f"result must be one of {', '.join(RESULT_MODES)}", "result")
        if len(self.problems) > before or spec is None:
            return None  # an invalid handler is skipped; the others still load
        if spec.result == "context" and event == SESSION_END:
            self.problem("result: context has no effect on session-end (no turn follows)",
                         ptr + ".result", event, severity="warning")
        return Handler(event=event, index=i, command=spec.command, args=spec.args,
                       env=spec.env, cwd=spec.cwd, timeout=spec.timeout,
                       context=spec.result == "context" and event != SESSION_END)
