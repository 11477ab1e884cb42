"""Seams and the events a host hands to them.

A *seam* is one interception point of an agent loop. Each seam has one event type carrying the
facts a hook may be told about it, in hookwire's neutral spelling; dialects translate them to
their own wire format. ``extra`` carries host facts that have no neutral field (Claude Code's
``effort``, a runtime's own ids): dialects that know a key pass it through, others ignore it.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from typing import Any, ClassVar

import attrs


class Seam(enum.StrEnum):
    """The kernel's interception points (plus ``approve``, the approval surface for ``ask``)."""

    SESSION_START = "session_start"
    PROMPT_SUBMIT = "prompt_submit"
    TOOL_PRE = "tool_pre"
    TOOL_POST = "tool_post"
    TOOL_FAILURE = "tool_failure"
    TOOL_BATCH = "tool_batch"
    STOP = "stop"
    STOP_FAILURE = "stop_failure"
    SUBAGENT_START = "subagent_start"
    SUBAGENT_STOP = "subagent_stop"
    PRE_COMPACT = "pre_compact"
    POST_COMPACT = "post_compact"
    NOTIFICATION = "notification"
    SESSION_END = "session_end"
    APPROVE = "approve"

    # Seams key the kernel's dispatch tables: hash as the C-level str hash of the value (equal
    # to the value's own hash, as str-equality requires) instead of Enum's Python-level hash.
    __hash__ = str.__hash__

    def __str__(self) -> str:
        return self.value


#: Seams after which the tool has already run: externals fire after native plugins there.
POST_SEAMS = frozenset({Seam.TOOL_POST, Seam.TOOL_FAILURE})
#: Seams whose "block" means "keep the agent going" rather than "refuse".
CONTINUE_SEAMS = frozenset({Seam.STOP, Seam.SUBAGENT_STOP})


def _frozen_map(value: Mapping[str, Any] | None) -> Mapping[str, Any]:
    return dict(value) if value else {}


@attrs.frozen(kw_only=True, slots=False)
class SeamEvent:
    """Fields every seam event has.

    ``prompt_id`` identifies the user turn the event belongs to (``None`` outside a turn);
    ``agent_id``/``agent_type`` are set inside a sub-agent; ``extra`` holds host facts with no
    neutral field, keyed in the spelling of the dialect that knows them.
    """

    seam: ClassVar[Seam]
    prompt_id: str | None = None
    agent_id: str | None = None
    agent_type: str | None = None
    extra: Mapping[str, Any] = attrs.field(factory=dict, converter=_frozen_map)


@attrs.frozen(kw_only=True, slots=False)
class SessionStart(SeamEvent):
    """A session starts, resumes, is cleared or was compacted (``source``)."""

    seam = Seam.SESSION_START
    source: str = "startup"


@attrs.frozen(kw_only=True, slots=False)
class PromptSubmit(SeamEvent):
    """A user turn is about to reach the model."""

    seam = Seam.PROMPT_SUBMIT
    prompt: str


@attrs.frozen(kw_only=True, slots=False)
class ToolPre(SeamEvent):
    """A tool is about to run with ``tool_input``."""

    seam = Seam.TOOL_PRE
    tool_name: str
    tool_input: Mapping[str, Any] = attrs.field(factory=dict)
    tool_use_id: str = ""


@attrs.frozen(kw_only=True, slots=False)
class ToolPost(SeamEvent):
    """A tool succeeded; ``tool_input`` is the input that actually ran."""

    seam = Seam.TOOL_POST
    tool_name: str
    tool_input: Mapping[str, Any] = attrs.field(factory=dict)
    tool_use_id: str = ""
    tool_response: Any = None
    duration_ms: int | None = None


@attrs.frozen(kw_only=True, slots=False)
class ToolFailure(SeamEvent):
    """A tool failed with ``error``; ``is_interrupt`` when the user interrupted it.

    A shell tool whose command ran and exited non-zero says so with ``exit_code`` (and its
    output, as the model sees it, in ``tool_response``): Claude Code counts that as a failure,
    Codex as a success (its PostToolUse fires). A tool error (it could not run, timed out,
    was refused) leaves ``exit_code`` at ``None``.
    """

    seam = Seam.TOOL_FAILURE
    tool_name: str
    tool_input: Mapping[str, Any] = attrs.field(factory=dict)
    tool_use_id: str = ""
    error: str = ""
    is_interrupt: bool = False
    duration_ms: int | None = None
    exit_code: int | None = None
    tool_response: Any = None


@attrs.frozen(kw_only=True, slots=False)
class ToolBatch(SeamEvent):
    """Every tool call of one model response has finished (or was refused).

    ``tool_calls`` holds one mapping per call with ``tool_name``, ``tool_input``,
    ``tool_use_id`` and ``tool_response`` (the result as sent to the model).
    """

    seam = Seam.TOOL_BATCH
    tool_calls: tuple[Mapping[str, Any], ...] = ()


@attrs.frozen(kw_only=True, slots=False)
class Stop(SeamEvent):
    """The agent is about to end its turn.

    ``stop_hook_active`` is true when this turn already continued because of a stop hook; a
    :class:`~hookwire.Session` sets it itself.
    """

    seam = Seam.STOP
    stop_hook_active: bool = False
    last_assistant_message: str | None = None


@attrs.frozen(kw_only=True, slots=False)
class StopFailure(SeamEvent):
    """The turn ended because the model request failed (``error``: a short kind such as
    ``rate_limit`` or ``server_error``; ``error_details`` and ``last_assistant_message`` the
    text)."""

    seam = Seam.STOP_FAILURE
    error: str = "unknown"
    error_details: str | None = None
    last_assistant_message: str | None = None


@attrs.frozen(kw_only=True, slots=False)
class SubagentStart(SeamEvent):
    """A sub-agent starts (``agent_id``/``agent_type`` name it)."""

    seam = Seam.SUBAGENT_START


@attrs.frozen(kw_only=True, slots=False)
class SubagentStop(SeamEvent):
    """A sub-agent is about to finish."""

    seam = Seam.SUBAGENT_STOP
    stop_hook_active: bool = False
    last_assistant_message: str | None = None
    agent_transcript_path: str | None = None


@attrs.frozen(kw_only=True, slots=False)
class PreCompact(SeamEvent):
    """Context compaction is about to run (``trigger`` is ``manual`` or ``auto``)."""

    seam = Seam.PRE_COMPACT
    trigger: str = "manual"
    custom_instructions: str | None = None


@attrs.frozen(kw_only=True, slots=False)
class PostCompact(SeamEvent):
    """Context compaction finished with ``compact_summary``."""

    seam = Seam.POST_COMPACT
    trigger: str = "manual"
    compact_summary: str | None = None


@attrs.frozen(kw_only=True, slots=False)
class Notification(SeamEvent):
    """The agent notifies the user."""

    seam = Seam.NOTIFICATION
    message: str
    notification_type: str | None = None
    title: str | None = None


@attrs.frozen(kw_only=True, slots=False)
class SessionEnd(SeamEvent):
    """The session ends (``reason`` as the host names it, e.g. ``other``, ``logout``)."""

    seam = Seam.SESSION_END
    reason: str = "other"


@attrs.frozen(kw_only=True, slots=False)
class ApprovalRequest(SeamEvent):
    """A tool call was answered ``ask``: someone must approve or refuse it.

    ``reason`` is why approval is needed; ``suggestions`` are dialect-specific permission
    updates the approver may offer (Claude Code's ``permission_suggestions``).
    """

    seam = Seam.APPROVE
    tool_name: str
    tool_input: Mapping[str, Any] = attrs.field(factory=dict)
    tool_use_id: str = ""
    reason: str | None = None
    suggestions: tuple[Any, ...] = ()


EVENT_TYPES: Mapping[Seam, type[SeamEvent]] = {
    cls.seam: cls
    for cls in (
        SessionStart, PromptSubmit, ToolPre, ToolPost, ToolFailure, ToolBatch, Stop,
        StopFailure, SubagentStart,
        SubagentStop, PreCompact, PostCompact, Notification, SessionEnd, ApprovalRequest,
    )
}


@attrs.frozen(kw_only=True)
class SessionInfo:
    """What a hook may be told about the session itself.

    ``project_dir`` is where the agent was launched (Claude Code's ``CLAUDE_PROJECT_DIR``);
    ``cwd`` is the session's current directory, which tools may change. ``env_file`` is a file
    session-start hooks may append ``export NAME=value`` lines to (Claude Code's
    ``CLAUDE_ENV_FILE``); a host that sets it applies those exports to its shell tool.
    """

    session_id: str
    cwd: str
    project_dir: str
    transcript_path: str | None = None
    permission_mode: str | None = None
    model: str | None = None
    env_file: str | None = None
    env: Mapping[str, str] = attrs.field(factory=dict, converter=_frozen_map)
