"""What a hooks file's structure does not say: values that type-check but cannot work (an
empty argv, a negative timeout, an unsupported version, a bad ``source``)."""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

from hookwire.config.model import VERSION, DocPath, HooksFile, HookSpec, SourceSpec
from hookwire.errors import ConfigError
from hookwire.tools import parse_mappings

_SOURCE_RE = re.compile(r"^(imported|plugin):[A-Za-z0-9_.@/-]+$")
Problems = list[tuple[str, DocPath]]


def validate(doc: HooksFile) -> Problems:
    """Every problem of a document that structured."""
    errors = _version(doc.version)
    for name, spec in doc.tools.items():
        errors.extend(_tool(name, spec))
    for i, src in enumerate(doc.sources):
        errors.extend(_source(src, ("sources", i)))
    for i, hook in enumerate(doc.hooks):
        errors.extend(_hook(hook, ("hooks", i)))
    return errors


def validate_parts(data: Any, structure: Callable[[Any, type], Any]) -> Problems:
    """The same checks on each part of a document that did not structure as a whole (its
    structural errors are reported already): every hook and source that ``structure`` (the
    loader's converter) accepts alone."""
    if not isinstance(data, dict):
        return []
    errors: Problems = []
    if type(data.get("version", VERSION)) is int:
        errors.extend(_version(data.get("version", VERSION)))
    tools = data.get("tools")
    if isinstance(tools, dict):
        for name, spec in tools.items():
            errors.extend(_tool(name, spec))
    for key, cls, check in (("sources", SourceSpec, _source), ("hooks", HookSpec, _hook)):
        items = data.get(key)
        for i, raw in enumerate(items if isinstance(items, list) else ()):
            try:
                spec = structure(raw, cls)
            except Exception:  # its own errors are reported; check what is well typed
                if not isinstance(raw, dict):
                    continue
                spec = _salvage(raw)
            errors.extend(check(spec, (key, i)))
    return errors


def _salvage(raw: dict[str, Any]) -> SimpleNamespace:
    """The well-typed fields of an entry that did not structure; a field that is missing or
    mistyped (reported already) gets a placeholder that passes every check."""
    def text(name: str) -> str:
        value = raw.get(name)
        return value if isinstance(value, str) else "?"

    command = raw.get("command")
    timeout = raw.get("timeout")
    source = raw.get("source")
    return SimpleNamespace(
        dialect=text("dialect"), event=text("event"), path=text("path"),
        command=tuple(c for c in command if isinstance(c, str)) if isinstance(command, list)
        else ("?",),
        timeout=timeout if isinstance(timeout, (int, float)) and not isinstance(timeout, bool)
        else None,
        source=source if isinstance(source, str) else None)


def _version(version: int) -> Problems:
    if version != VERSION:
        return [(f"unsupported version {version} (this hookwire reads version {VERSION})",
                 ("version",))]
    return []


def _tool(name: str, spec: Any) -> Problems:
    try:
        parse_mappings({name: spec})
    except ConfigError as exc:
        return [(exc.message, ("tools", name))]
    return []


def _source(src: Any, at: DocPath) -> Problems:
    errors: Problems = []
    if not src.dialect:
        errors.append(("`dialect` must not be empty", (*at, "dialect")))
    if not src.path:
        errors.append(("`path` must not be empty", (*at, "path")))
    return errors


def _hook(hook: Any, at: DocPath) -> Problems:
    errors: Problems = []
    for name in ("dialect", "event"):
        if not getattr(hook, name):
            errors.append((f"`{name}` must not be empty", (*at, name)))
    if not hook.command:
        errors.append(("`command` must be a non-empty list of non-empty strings (an argv; "
                       "shell text is not accepted)", (*at, "command")))
    if hook.command and hook.command[0] and not hook.command[0].strip():
        errors.append((f"the program (argv[0]) is blank: {hook.command[0]!r} names no file",
                       (*at, "command", 0)))
    for j, arg in enumerate(hook.command):
        if not arg:
            errors.append(("argv elements must not be empty", (*at, "command", j)))
        elif "\0" in arg:
            errors.append(("argv elements must not contain NUL", (*at, "command", j)))
    if hook.timeout is not None and not (math.isfinite(hook.timeout) and hook.timeout > 0):
        errors.append(("`timeout` must be a positive number of seconds", (*at, "timeout")))
    if hook.source is not None and not _SOURCE_RE.match(hook.source):
        errors.append(("`source` must be `imported:<dialect>` or `plugin:<name>` (an "
                       "entry written here is user- or project-authored without it)",
                       (*at, "source")))
    return errors
