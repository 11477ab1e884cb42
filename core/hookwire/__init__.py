"""hookwire: run Claude Code, Codex and portable-profile hooks inside any Python agent runtime.

The public API is re-exported here; dialects live in ``hookwire.dialects`` and native plugins
in ``hookwire.plugins`` (other slices of this namespace, joined below).
"""

from __future__ import annotations

import os as _os
import sys as _sys


def _join_slices(path: list[str]) -> list[str]:
    """Add every other ``hookwire`` folder on ``sys.path`` (the dialects and plugins slices of an
    editable install) to this package's path: what ``pkgutil.extend_path`` does, without the
    13 ms it costs to import pkgutil."""
    seen = {_os.path.realpath(p) for p in path}
    for entry in _sys.path:
        candidate = _os.path.join(entry or ".", "hookwire")
        real = _os.path.realpath(candidate)
        if real not in seen and _os.path.isdir(candidate):
            seen.add(real)
            path.append(candidate)
    return path


__path__ = _join_slices(list(__path__))

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

__version__ = "0.1.0"

__all__ = [
    "Answer", "ApprovalRequest", "Command", "ConfigError", "ConfigProblem", "ConfigResult",
    "Context", "Decision", "Dialect", "EventDataError", "EventSpec", "Export", "Halt",
    "HarnessTrust", "HookEntry", "HookReport", "HookwireError", "Kernel", "Location",
    "Notification", "Outcome", "OutcomeKind", "PluginError", "PluginLoadError", "PostCompact",
    "PreCompact", "Prepared", "ProblemKind", "PromptSubmit", "Provenance", "Seam", "SeamEvent",
    "Session", "SessionEnd", "SessionInfo",
    "SessionStart", "Source", "SourceKind", "Stop", "StopFailure", "SubagentStart",
    "SubagentStop", "ToolBatch",
    "ToolFailure", "ToolPost", "ToolPre", "UnknownDialectError", "UnknownEventError",
    "Verdict", "__version__", "declare", "hookimpl",
]
