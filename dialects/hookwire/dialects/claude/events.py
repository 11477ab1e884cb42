"""Claude Code's hook events (2.1.332) and the kernel seams they ride on.

Every event Claude Code knows is listed, so a config naming one is never silently dropped:
events with ``seam=None`` load, and are reported as "not emitted by this host".
"""

from __future__ import annotations

import os
from collections.abc import Mapping

from hookwire.dialect import EventSpec
from hookwire.events import Seam

#: Events whose matcher is tested against ``tool_name`` and whose ``if`` filter applies.
TOOL_EVENTS = frozenset({
    "PreToolUse", "PostToolUse", "PostToolUseFailure", "PermissionRequest", "PermissionDenied",
})

#: Events whose matcher uses the narrow exact set (letters, digits, ``_`` and ``|`` only).
NARROW_MATCHER_EVENTS = frozenset({"FileChanged", "StopFailure"})

#: Events on which ``onFailure: "block"`` is ignored (Claude Code logs "not blocking").
ON_FAILURE_IGNORED = frozenset({"Stop", "SubagentStop", "TaskCompleted", "TeammateIdle"})

#: Events whose plain stdout on exit 0 reaches the model (PreCompact: as compaction text).
PLAIN_STDOUT_EVENTS = frozenset({"UserPromptSubmit", "SessionStart", "PreCompact"})

#: Events whose JSON ``continue``/``systemMessage`` are discarded.
DISCARD_UNIVERSAL = frozenset({
    "Notification", "PreCompact", "PostCompact", "SessionEnd", "InstructionsLoaded",
    "StopFailure",
})

#: Default per-event timeouts in seconds (others: :data:`DEFAULT_TIMEOUT`).
DEFAULT_TIMEOUT = 600.0
EVENT_TIMEOUTS: Mapping[str, float] = {
    "UserPromptSubmit": 30.0, "PreModelSwitch": 30.0, "PostModelSwitch": 30.0,
    "MessageDisplay": 10.0,
}
#: SessionEnd hooks share one budget: 1.5 s, raised to the largest settings timeout, ≤ 60 s.
SESSION_END_BUDGET = (1.5, 60.0)


def _spec(name: str, seam: Seam | None = None, matcher: str | None = None,
          block: bool = False) -> EventSpec:
    return EventSpec(name=name, seam=seam, matcher_field=matcher, can_block=block)


_SPECS = (
    # Emitted through kernel seams.
    _spec("PreToolUse", Seam.TOOL_PRE, "tool_name", True),
    _spec("PostToolUse", Seam.TOOL_POST, "tool_name", True),
    _spec("PostToolUseFailure", Seam.TOOL_FAILURE, "tool_name", True),
    _spec("Notification", Seam.NOTIFICATION, "notification_type"),
    _spec("UserPromptSubmit", Seam.PROMPT_SUBMIT, None, True),
    _spec("SessionStart", Seam.SESSION_START, "source"),
    _spec("SessionEnd", Seam.SESSION_END, "reason"),
    _spec("Stop", Seam.STOP, None, True),
    _spec("SubagentStart", Seam.SUBAGENT_START, "agent_type"),
    _spec("SubagentStop", Seam.SUBAGENT_STOP, "agent_type", True),
    _spec("PreCompact", Seam.PRE_COMPACT, "trigger", True),
    _spec("PostCompact", Seam.POST_COMPACT, "trigger"),
    _spec("PermissionRequest", Seam.APPROVE, "tool_name", True),
    _spec("PostToolBatch", Seam.TOOL_BATCH, None, True),
    _spec("StopFailure", Seam.STOP_FAILURE, "error"),
    # Known to Claude Code, no kernel seam: loaded, reported as not emitted.
    _spec("UserPromptExpansion", None, "command_name", True),
    _spec("PreModelSwitch", None, "to_model", True),
    _spec("PostModelSwitch", None, "to_model"),
    _spec("PermissionDenied", None, "tool_name"),
    _spec("Setup", None, "trigger"),
    _spec("TeammateIdle", None, None, True),
    _spec("TaskCreated", None, None, True),
    _spec("TaskCompleted", None, None, True),
    _spec("Elicitation", None, "mcp_server_name", True),
    _spec("ElicitationResult", None, "mcp_server_name", True),
    _spec("ConfigChange", None, "source", True),
    _spec("WorktreeCreate", None, None, True),
    _spec("WorktreeRemove", None, None, True),
    _spec("InstructionsLoaded", None, "load_reason"),
    _spec("CwdChanged", None, None),
    _spec("FileChanged", None, "file_name"),
    _spec("DirectoryAdded", None, "source"),
    _spec("MessageDisplay", None, None),
    _spec("PreSkillShellCommand", None, "tool_name", True),
)

EVENTS: Mapping[str, EventSpec] = {s.name: s for s in _SPECS}

#: Seam → the one Claude Code event that fires on it.
BY_SEAM: Mapping[Seam, str] = {s.seam: s.name for s in _SPECS if s.seam is not None}


#: Consecutive Stop/SubagentStop continuations Claude Code allows before ending the turn.
STOP_BLOCK_CAP = 8


def stop_block_cap(environ: Mapping[str, str] | None = None) -> int | None:
    """Claude Code's block cap for a session: ``CLAUDE_CODE_STOP_HOOK_BLOCK_CAP`` when set
    (``0``: no cap), else 8. Pass it as ``kernel.session(max_stop_blocks=...)``."""
    raw = (os.environ if environ is None else environ).get("CLAUDE_CODE_STOP_HOOK_BLOCK_CAP")
    try:
        cap = int(raw) if raw else STOP_BLOCK_CAP
    except ValueError:
        cap = STOP_BLOCK_CAP
    return None if cap <= 0 else cap


def hook_name(native: str, label: str | None) -> str:
    """Claude Code's ``hook_name``: ``PreToolUse:Bash``, ``SessionStart:startup``, ``Stop``."""
    return f"{native}:{label}" if label is not None else native
