"""hookwire: run Claude Code, Codex and portable-profile hooks inside any Python agent runtime.

The public API is re-exported here; dialects live in ``hookwire.dialects`` and native plugins
in ``hookwire.plugins`` (other slices of this namespace, joined below).
"""

from __future__ import annotations

import os as _os
import sys as _sys

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
from hookwire.dialect import (  # noqa: E402
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
from hookwire.errors import (  # noqa: E402
    ConfigError,
    EventDataError,
    HookwireError,
    PluginError,
    PluginLoadError,
    UnknownDialectError,
    UnknownEventError,
)
from hookwire.events import (  # noqa: E402
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
from hookwire.hookspecs import hookimpl  # noqa: E402
from hookwire.kernel import Kernel  # noqa: E402
from hookwire.plugin import declare  # noqa: E402

# Eager on purpose: the function ``render`` replaces the submodule of the same name as the
# package attribute (``hookwire.render`` is the function; ``from hookwire.render import …``
# still reaches the module). Imported lazily, whichever came first would win.
from hookwire.render import ModelText, Placement, Subject, render  # noqa: E402
from hookwire.runner import Command, Outcome, OutcomeKind  # noqa: E402
from hookwire.session import Session  # noqa: E402
from hookwire.verdicts import (  # noqa: E402
    Answer,
    Context,
    Decision,
    Halt,
    HookReport,
    Source,
    SourceKind,
    Verdict,
)

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
    "Verdict", "__version__", "declare", "hookimpl", "render",
]
