"""Codex CLI's hook events (0.171.0) and the kernel seams they ride on.

Every event Codex knows is listed, so a config naming one is never silently dropped: events
with ``seam=None`` (``Interrupt`` and the undocumented model-request events) load, and are
reported as "not emitted by this host".
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from hookwire import events as hev
from hookwire.dialect import EventSpec
from hookwire.errors import EventDataError
from hookwire.events import Seam, SeamEvent

HARNESS = "Codex CLI 0.171.0"


def _spec(name: str, seam: Seam | None, matcher: str | None = None,
          block: bool = False, also: tuple[Seam, ...] = ()) -> EventSpec:
    return EventSpec(name=name, seam=seam, matcher_field=matcher, can_block=block, also=also)


_SPECS = (
    _spec("PreToolUse", Seam.TOOL_PRE, "tool_name", True),
    _spec("PermissionRequest", Seam.APPROVE, "tool_name", True),
    # Codex counts a shell command that exited non-zero as a success (observed on 0.171.0
    # with `exit 3`): PostToolUse also fires on the tool_failure a host reports for it.
    _spec("PostToolUse", Seam.TOOL_POST, "tool_name", True, also=(Seam.TOOL_FAILURE,)),
    _spec("PreCompact", Seam.PRE_COMPACT, "trigger", True),
    _spec("PostCompact", Seam.POST_COMPACT, "trigger"),
    _spec("SessionStart", Seam.SESSION_START, "source"),
    _spec("SessionEnd", Seam.SESSION_END, "reason"),
    _spec("UserPromptSubmit", Seam.PROMPT_SUBMIT, None, True),
    _spec("SubagentStart", Seam.SUBAGENT_START, "agent_type"),
    _spec("SubagentStop", Seam.SUBAGENT_STOP, "agent_type", True),
    _spec("Stop", Seam.STOP, None, True),
    # Known to 0.171.0, but no hookwire seam fires them.
    _spec("Interrupt", None),
    _spec("PreModelRequest", None),
    _spec("PostModelRequest", None),
)

EVENTS: Mapping[str, EventSpec] = {s.name: s for s in _SPECS}

#: The order in which Codex numbers the handlers of one file (display order), event by event
#: (observed with 0.171.0's ``hooks/list``: the model-request events come first).
DISPLAY_ORDER = ("PreModelRequest", "PostModelRequest", "PreToolUse", "PermissionRequest",
                 "PostToolUse", "PreCompact", "PostCompact", "SessionStart", "SessionEnd",
                 "UserPromptSubmit", "SubagentStart", "SubagentStop", "Stop", "Interrupt")

#: The snake_case label Codex uses in trust keys, hashes and run ids.
LABELS: Mapping[str, str] = {
    "PreToolUse": "pre_tool_use", "PermissionRequest": "permission_request",
    "PostToolUse": "post_tool_use", "PreCompact": "pre_compact", "PostCompact": "post_compact",
    "SessionStart": "session_start", "SessionEnd": "session_end",
    "UserPromptSubmit": "user_prompt_submit", "SubagentStart": "subagent_start",
    "SubagentStop": "subagent_stop", "Stop": "stop", "Interrupt": "interrupt",
    "PreModelRequest": "pre_model_request", "PostModelRequest": "post_model_request",
}

#: Events whose matcher Codex drops at load (even an invalid regex is accepted there).
MATCHERLESS = frozenset({"UserPromptSubmit", "Stop", "Interrupt", "PreModelRequest",
                         "PostModelRequest"})

#: Events whose hooks may return additional context, and so honour ``additionalContextLimit``
#: (0.171.0 ignores it, with a warning, on every other event, Stop and SubagentStop too).
CONTEXT_EVENTS = frozenset({"PreToolUse", "PostToolUse", "UserPromptSubmit", "SessionStart",
                            "SubagentStart"})

#: Events with a short default timeout clamped to [1, 3] seconds.
SHORT_TIMEOUT_EVENTS = frozenset({"SessionEnd", "Interrupt"})
DEFAULT_TIMEOUT = 600
SHORT_DEFAULT_TIMEOUT = 1
SHORT_MAX_TIMEOUT = 3

#: Extra names a tool's matcher is tested against (the canonical name comes first).
TOOL_ALIASES: Mapping[str, tuple[str, ...]] = {
    "apply_patch": ("Write", "Edit"),
    "spawn_agent": ("Agent",),
}

#: Codex's own names of its shell tools: hooks see all of them as ``Bash``.
SHELL_TOOLS = frozenset({"Bash", "shell", "exec_command", "local_shell", "unified_exec",
                         "shell_command", "container.exec"})

SESSION_START_SOURCES = ("startup", "resume", "clear", "compact", "fork")
COMPACT_TRIGGERS = ("manual", "auto")

#: Environment variables Codex removes before running a hook.
SCRUBBED_ENV = ("CODEX_EXEC_SERVER_NOISE_AUTH_TOKEN", "NODE_REPL_AUTH_TOKEN",
                "OPENAI_FEDERATION_RULE_ID", "OPENAI_IDENTITY_TOKEN_FILE",
                "OPENAI_WORKLOAD_IDENTITY_CONTEXT")

#: Default approximate-token limit above which hook text is spilled to a file.
CONTEXT_LIMIT = 2_500


def post_tool_use_on_failure(event: SeamEvent) -> bool:
    """Whether Codex runs PostToolUse for a ``tool_failure``: a shell command that ran and
    exited non-zero (``exit_code`` set, not an interrupt). Tool errors get no event."""
    return (isinstance(event, hev.ToolFailure) and event.exit_code is not None
            and not event.is_interrupt and canonical_tool(event.tool_name) == "Bash")


def canonical_tool(tool_name: str) -> str:
    """The ``tool_name`` Codex puts on stdin for a tool the host calls ``tool_name``."""
    return "Bash" if tool_name in SHELL_TOOLS else tool_name


def matcher_inputs(tool_name: str) -> tuple[str, ...]:
    """What a tool event's matcher is tested against: the canonical name, then its aliases."""
    name = canonical_tool(tool_name)
    return (name, *TOOL_ALIASES.get(name, ()))


def wire_event(native: str, data: Mapping[str, Any]) -> SeamEvent:
    """The seam event of ``native`` from fields spelled as Codex's stdin spells them."""
    from hookwire.dialects.codex import _schema
    from hookwire.dialects.codex.outcome import _SLUGS

    schema = _schema.load(f"{_SLUGS[native]}.input")
    props = schema["properties"]
    for key, value in data.items():
        if key not in props:
            raise EventDataError(f"{native} has no field {key!r} (fields: "
                                 f"{', '.join(props)})", path=f"$.{key}")
        problems = _schema.errors(value, props[key], schema, f"$.{key}")
        if problems:
            message, _, path = problems[0].rpartition(" @ ")
            raise EventDataError(message, path=path)
    d = dict(data)
    common: dict[str, Any] = {"agent_id": d.get("agent_id"), "agent_type": d.get("agent_type")}
    if "turn_id" in d:
        common["prompt_id"] = d["turn_id"]
        common["extra"] = {"turn_id": d["turn_id"]}

    def need(key: str) -> Any:
        if key not in d:
            raise EventDataError(f"{native} needs {key!r}", path=f"$.{key}")
        return d[key]

    tool_input = d.get("tool_input", {})
    if native in ("PreToolUse", "PermissionRequest", "PostToolUse") and \
            not isinstance(tool_input, dict):
        raise EventDataError("hookwire hosts pass tool input as a JSON object",
                             path="$.tool_input")
    if native == "PreToolUse":
        return hev.ToolPre(tool_name=need("tool_name"), tool_input=tool_input,
                           tool_use_id=d.get("tool_use_id", ""), **common)
    if native == "PermissionRequest":
        return hev.ApprovalRequest(tool_name=need("tool_name"), tool_input=tool_input,
                                   **common)
    if native == "PostToolUse":
        return hev.ToolPost(tool_name=need("tool_name"), tool_input=tool_input,
                            tool_response=d.get("tool_response"),
                            tool_use_id=d.get("tool_use_id", ""), **common)
    if native == "PreCompact":
        return hev.PreCompact(trigger=d.get("trigger", "manual"), **common)
    if native == "PostCompact":
        return hev.PostCompact(trigger=d.get("trigger", "manual"), **common)
    if native == "SessionStart":
        return hev.SessionStart(source=d.get("source", "startup"), **common)
    if native == "SessionEnd":
        return hev.SessionEnd(reason="other", **common)
    if native == "UserPromptSubmit":
        return hev.PromptSubmit(prompt=need("prompt"), **common)
    if native == "SubagentStart":
        return hev.SubagentStart(**{**common, "agent_id": need("agent_id"),
                                    "agent_type": need("agent_type")})
    if native == "SubagentStop":
        return hev.SubagentStop(**{**common, "agent_id": need("agent_id"),
                                   "agent_type": need("agent_type")},
                                stop_hook_active=d.get("stop_hook_active", False),
                                last_assistant_message=d.get("last_assistant_message"),
                                agent_transcript_path=d.get("agent_transcript_path"))
    return hev.Stop(stop_hook_active=d.get("stop_hook_active", False),
                    last_assistant_message=d.get("last_assistant_message"), **common)
