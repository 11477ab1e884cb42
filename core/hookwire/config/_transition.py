"""TRANSITIONAL: today's behaviour for dialects that do not yet answer the contract's questions.

Everything core asks a dialect (``config_paths``, ``export``, ``handler_from_options``,
``harness_trust``, problem ``kind``) has a default in :class:`~hookwire.dialect.Dialect`. Until
the built-in dialects implement those calls, core keeps the answers it used to know itself,
here and nowhere else, so deleting this module (and the calls to it) removes the last place
core names a built-in dialect. ``tests/core/test_layering.py`` allows exactly this file.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from hookwire.dialect import ConfigProblem, Dialect, Export, HookEntry, ProblemKind, Provenance


def overrides(dialect: Dialect, method: str) -> bool:
    """Whether ``dialect`` implements ``method`` itself (instead of the contract's default)."""
    return getattr(type(dialect), method, None) is not getattr(Dialect, method)


#: Where ``hookwire import NAME`` looked when no path is given (relative to the project root).
_DEFAULT_PATHS: Mapping[str, tuple[str, ...]] = {
    "claude": (".claude/settings.json", ".claude/settings.local.json"),
    "codex": (".codex/hooks.json", ".codex/config.toml"),
}
#: Variables a dialect substitutes in an argv at run time: name → how to write it.
_PLACEHOLDERS: Mapping[str, Mapping[str, str]] = {
    "claude": {"CLAUDE_PROJECT_DIR": "${CLAUDE_PROJECT_DIR}"},
}
#: Options the reader records about the file itself, meaningless once imported.
_DROPPED = frozenset({"scope", "onFailure", "source"})
#: Per dialect: the options an imported entry keeps (``None``: all but the dropped ones).
_KEPT: Mapping[str, frozenset[str]] = {
    "codex": frozenset({"status_message", "context_limit", "env"}),
}


def config_paths(dialect: Dialect, project_dir: Path, home: Path | None) -> list[Path]:
    if overrides(dialect, "config_paths"):
        return list(dialect.config_paths(project_dir, home))
    return [Path(project_dir) / rel for rel in _DEFAULT_PATHS.get(dialect.name, ())]


def placeholders(dialect: Dialect) -> Mapping[str, str]:
    found = getattr(dialect, "placeholders", None)
    if isinstance(found, Mapping):
        return found
    return _PLACEHOLDERS.get(dialect.name, {})


def export(dialect: Dialect, entry: HookEntry) -> Export:
    if overrides(dialect, "export"):
        return dialect.export(entry)
    name, opts = dialect.name, entry.options
    if name == "codex" and opts.get("enabled") is False:
        return Export(rejected=f"disabled in Codex's [hooks.state.{json.dumps(opts.get('key'))}]"
                               " (enabled = false): not imported")
    kept = _KEPT.get(name)
    options: dict[str, Any] = {k: v for k, v in opts.items() if k not in _DROPPED
                               and (kept is None or (k in kept and v not in (None, {})))}
    if name == "codex" and not opts.get("context_limit_set"):
        options.pop("context_limit", None)
    if opts.get("scope") == "plugin":
        options["scope"] = "plugin"
    failure = opts.get("onFailure")
    if failure not in (None, "continue"):
        options["onFailure"] = failure
    return Export(options=options)


def problem_kind(problem: ConfigProblem, raw: Any, dialect: Dialect,
                 lookup: Any) -> ProblemKind:
    """The kind of a problem whose reader left the default (``CONFIG``), guessed as before."""
    if problem.kind is not ProblemKind.CONFIG:
        return problem.kind
    node = lookup(raw, problem.location.pointer)
    kind = node.get("type") if isinstance(node, Mapping) else None
    if isinstance(kind, str) and kind != "command":
        return ProblemKind.UNSUPPORTED
    if problem.event is not None and problem.event not in dialect.events:
        return ProblemKind.UNKNOWN_EVENT
    if "ignored" in problem.message or "skipped" in problem.message:
        return ProblemKind.INVALID_HANDLER
    return ProblemKind.CONFIG


def unsupported_reason(problem: ConfigProblem, raw: Any, lookup: Any) -> str:
    node = lookup(raw, problem.location.pointer)
    kind = node.get("type") if isinstance(node, Mapping) else None
    if isinstance(kind, str) and kind != "command":
        return f"unsupported handler type {kind!r} (only `command` handlers can run)"
    return problem.message


def harness_trust(dialect: Dialect, entry: HookEntry) -> tuple[bool | None, str]:
    if overrides(dialect, "harness_trust"):
        return dialect.harness_trust(entry)
    if entry.provenance is not Provenance.LIVE:
        return None, ""
    will_run = getattr(dialect, "will_run", None)
    if will_run is None:
        return None, ""
    try:
        runs, why = will_run(entry)
    except Exception:
        return None, ""
    if not runs:
        return False, str(why)
    return (True, str(why)) if why in ("trusted", "managed") else (None, "")
