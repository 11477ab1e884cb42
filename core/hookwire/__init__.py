"""hookwire: run Claude Code, Codex and portable-profile hooks inside any Python agent runtime.

The public API is re-exported here; dialects live in ``hookwire.dialects`` and native plugins
in ``hookwire.plugins`` (other slices of this namespace, joined below).
"""

from __future__ import annotations

import importlib
import os as _os
import sys as _sys
import types as _types
from typing import TYPE_CHECKING, Any

#: What the other slices of the namespace hold: a folder joins ``hookwire`` only when it is one
#: of them (an editable install's ``dialects/hookwire``, ``plugins/hookwire``), never because a
#: folder named ``hookwire`` happens to sit on ``sys.path`` (the current directory, say).
_SLICES = frozenset({"dialects", "plugins"})
_SLICE_EXTRAS = frozenset({"py.typed", "__pycache__"})


def _is_slice(folder: str) -> bool:
    """A folder holding only slice subpackages (``dialects/__init__.py``...) and py.typed."""
    try:
        names = set(_os.listdir(folder))
    except OSError:
        return False
    packages = names - _SLICE_EXTRAS
    return bool(packages) and packages <= _SLICES and all(
        _os.path.isfile(_os.path.join(folder, p, "__init__.py")) for p in packages)


def _join_slices(path: list[str]) -> list[str]:
    """Add the other slices of this package (the dialects and plugins folders of an editable
    install) found on ``sys.path`` to its path: what ``pkgutil.extend_path`` does, limited to
    real slices and without the 13 ms it costs to import pkgutil. An installed wheel holds
    all three slices in one folder and joins nothing."""
    seen = {_os.path.realpath(p) for p in path}
    try:
        here = _os.path.realpath(_os.getcwd())
    except OSError:
        here = None
    for i, entry in enumerate(_sys.path):
        if i == 0 and (not entry or _os.path.realpath(entry) == here):
            continue  # `python -c/-m` puts the current directory first: not an installation
        candidate = _os.path.join(entry or ".", "hookwire")
        real = _os.path.realpath(candidate)
        if real not in seen and _os.path.isdir(candidate) and _is_slice(candidate):
            seen.add(real)
            path.append(candidate)
    return path


__path__ = _join_slices(list(__path__))

from hookwire._version import __version__  # noqa: E402


class _Package(_types.ModuleType):
    """``hookwire`` itself. Its attribute ``render`` is the function :func:`render.render`,
    never the submodule of the same name: importing a submodule sets it as an attribute of its
    package, which would otherwise replace the function whenever ``hookwire.render`` is first
    imported after the function was looked up (``from hookwire.render import …`` still reaches
    the module, through ``sys.modules``)."""

    def __setattr__(self, name: str, value: Any) -> None:
        if name == "render" and isinstance(value, _types.ModuleType):
            value = value.render
        super().__setattr__(name, value)


_sys.modules[__name__].__class__ = _Package

#: Every public name, imported from its module on first access (PEP 562), so that ``import
#: hookwire`` (``hookwire --version``, say) imports nothing more.
_LAZY: dict[str, str] = {
    "ConfigProblem": "hookwire.dialect", "ConfigResult": "hookwire.dialect",
    "Dialect": "hookwire.dialect", "EventSpec": "hookwire.dialect", "Export": "hookwire.dialect",
    "HarnessTrust": "hookwire.dialect", "HookEntry": "hookwire.dialect",
    "Location": "hookwire.dialect", "Prepared": "hookwire.dialect",
    "ProblemKind": "hookwire.dialect", "Provenance": "hookwire.dialect",
    "ConfigError": "hookwire.errors", "EventDataError": "hookwire.errors",
    "HookwireError": "hookwire.errors", "PluginError": "hookwire.errors",
    "PluginLoadError": "hookwire.errors", "UnknownDialectError": "hookwire.errors",
    "UnknownEventError": "hookwire.errors", "ApprovalRequest": "hookwire.events",
    "Notification": "hookwire.events", "PostCompact": "hookwire.events",
    "PreCompact": "hookwire.events", "PromptSubmit": "hookwire.events",
    "Seam": "hookwire.events", "SeamEvent": "hookwire.events", "SessionEnd": "hookwire.events",
    "SessionInfo": "hookwire.events", "SessionStart": "hookwire.events",
    "Stop": "hookwire.events", "StopFailure": "hookwire.events",
    "SubagentStart": "hookwire.events", "SubagentStop": "hookwire.events",
    "ToolBatch": "hookwire.events", "ToolFailure": "hookwire.events",
    "ToolPost": "hookwire.events", "ToolPre": "hookwire.events",
    "hookimpl": "hookwire.hookspecs", "Kernel": "hookwire.kernel", "declare": "hookwire.plugin",
    "Command": "hookwire.runner", "Outcome": "hookwire.runner", "OutcomeKind": "hookwire.runner",
    "ModelText": "hookwire.render", "Placement": "hookwire.render", "Subject": "hookwire.render",
    "render": "hookwire.render",
    "Session": "hookwire.session", "Answer": "hookwire.verdicts", "Context": "hookwire.verdicts",
    "Decision": "hookwire.verdicts", "Halt": "hookwire.verdicts",
    "HookReport": "hookwire.verdicts", "Source": "hookwire.verdicts",
    "SourceKind": "hookwire.verdicts", "Verdict": "hookwire.verdicts", "Wake": "hookwire.wake",
}

if TYPE_CHECKING:
    from hookwire.dialect import (
        ConfigProblem,
        ConfigResult,
        Dialect,
        EventSpec,
        Export,
        HarnessTrust,
        HookEntry,
        Location,
        Prepared,
        ProblemKind,
        Provenance,
    )
    from hookwire.errors import (
        ConfigError,
        EventDataError,
        HookwireError,
        PluginError,
        PluginLoadError,
        UnknownDialectError,
        UnknownEventError,
    )
    from hookwire.events import (
        ApprovalRequest,
        Notification,
        PostCompact,
        PreCompact,
        PromptSubmit,
        Seam,
        SeamEvent,
        SessionEnd,
        SessionInfo,
        SessionStart,
        Stop,
        StopFailure,
        SubagentStart,
        SubagentStop,
        ToolBatch,
        ToolFailure,
        ToolPost,
        ToolPre,
    )
    from hookwire.hookspecs import hookimpl
    from hookwire.kernel import Kernel
    from hookwire.plugin import declare
    from hookwire.render import ModelText, Placement, Subject, render
    from hookwire.runner import Command, Outcome, OutcomeKind
    from hookwire.session import Session
    from hookwire.verdicts import (
        Answer,
        Context,
        Decision,
        Halt,
        HookReport,
        Source,
        SourceKind,
        Verdict,
    )
    from hookwire.wake import Wake


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'hookwire' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value  # once: later lookups are plain attribute reads
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_LAZY})


__all__ = [
    "Answer", "ApprovalRequest", "Command", "ConfigError", "ConfigProblem", "ConfigResult",
    "Context", "Decision", "Dialect", "EventDataError", "EventSpec", "Export", "Halt",
    "HarnessTrust", "HookEntry", "HookReport", "HookwireError", "Kernel", "Location",
    "ModelText", "Notification", "Outcome", "OutcomeKind", "Placement", "PluginError",
    "PluginLoadError", "PostCompact",
    "PreCompact", "Prepared", "ProblemKind", "PromptSubmit", "Provenance", "Seam", "SeamEvent",
    "Session", "SessionEnd", "SessionInfo",
    "SessionStart", "Source", "SourceKind", "Stop", "StopFailure", "SubagentStart",
    "SubagentStop", "Subject", "ToolBatch",
    "ToolFailure", "ToolPost", "ToolPre", "UnknownDialectError", "UnknownEventError",
    "Verdict", "Wake", "__version__", "declare", "hookimpl", "render",
]
