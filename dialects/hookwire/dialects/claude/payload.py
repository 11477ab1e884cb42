"""Stdin payloads, byte for byte as Claude Code 2.1.332 writes them, and events from the wire.

Key order: ``session_id, transcript_path, cwd, [prompt_id], [permission_mode],
[agent_id, agent_type], [effort], hook_event_name`` then the event's own fields (observed
doc §2). ``effort`` and the other host facts with no neutral slot come from ``event.extra``;
extra keys this dialect does not place are appended at the end, so hosts can pass new fields
through. Framing: ``JSON.stringify`` (compact, raw UTF-8) plus one ``\\n``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from hookwire import events as ev
from hookwire.dialects.claude.events import BY_SEAM, EVENTS
from hookwire.errors import EventDataError, UnknownEventError
from hookwire.events import SeamEvent, SessionInfo
from hookwire.wire import json_writer

#: Events whose payload carries ``permission_mode``.
_WITH_MODE = frozenset({
    "UserPromptSubmit", "PreToolUse", "PermissionRequest", "PostToolUse", "PostToolUseFailure",
    "PostToolBatch", "Stop", "SubagentStop", "PermissionDenied",
})
#: Events whose payload carries ``effort`` (when the host gives one).
_WITH_EFFORT = frozenset({
    "PreToolUse", "PermissionRequest", "PostToolUse", "PostToolUseFailure", "PostToolBatch",
    "Stop", "SubagentStop",
})
#: Extra keys placed by this module (never appended a second time).
_PLACED = frozenset({
    "effort", "scratchpad_dir", "model", "background_tasks", "session_crons", "mcp_server",
    "seconds_since_last_response", "context_tokens", "prompt_cache_likely_expired",
    "estimated_cache_write_usd",
})
_SURROGATE = re.compile("[\ud800-\udfff]")
_RESUME_KEYS = ("seconds_since_last_response", "context_tokens", "prompt_cache_likely_expired",
                "estimated_cache_write_usd")
#: Stdin keys that describe the session, not the event (see :func:`session_from_wire`).
SESSION_KEYS = frozenset({"session_id", "transcript_path", "cwd", "permission_mode",
                          "hook_event_name"})


#: ``JSON.stringify``'s compact form, raw UTF-8 (one C encoder kept: ``json.dumps`` builds
#: one per call).
_WRITE = json_writer(separators=(",", ":"), allow_nan=False, default=str)


def encode(payload: Mapping[str, Any]) -> bytes:
    """``JSON.stringify(payload) + "\\n"`` as UTF-8."""
    text = _WRITE(_js_numbers(payload))
    # JSON.stringify escapes lone surrogates (\\udXXX); json.dumps would pass them raw.
    if not text.isascii():
        text = _SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)
    return (text + "\n").encode("utf-8")


def _js_numbers(value: Any) -> Any:
    """Numbers as ``JSON.stringify`` prints them: ``1.0`` → ``1``, NaN and ±Infinity → null.

    Exact types are tested first (a payload is mostly strings and plain dicts, and an ABC
    ``isinstance`` costs ~0.3 µs a value); anything else falls back to the ABC checks."""
    kind = type(value)
    if kind is str or kind is int or kind is bool or value is None:
        return value
    if kind is dict:
        return {k: v if type(v) is str else _js_numbers(v) for k, v in value.items()}
    if kind is list or kind is tuple:
        return [v if type(v) is str else _js_numbers(v) for v in value]
    if isinstance(value, float):
        if value != value or value in (float("inf"), float("-inf")):
            return None
        if value.is_integer() and abs(value) < 1e21:
            return int(value)
        return value
    if isinstance(value, Mapping):
        return {k: _js_numbers(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_js_numbers(v) for v in value]
    return value


def build(event: SeamEvent, native: str, session: SessionInfo) -> dict[str, Any]:
    """The stdin object of ``native`` for ``event``, keys in Claude Code's order."""
    extra = dict(event.extra)
    out: dict[str, Any] = {
        "session_id": session.session_id,
        "transcript_path": session.transcript_path or "",
        "cwd": session.cwd,
    }
    if "scratchpad_dir" in extra:
        out["scratchpad_dir"] = extra["scratchpad_dir"]
    if event.prompt_id is not None:
        out["prompt_id"] = event.prompt_id
    if native in _WITH_MODE:
        out["permission_mode"] = session.permission_mode or "default"
    if native != "SubagentStart" and (event.agent_id is not None or event.agent_type is not None):
        if event.agent_id is not None:
            out["agent_id"] = event.agent_id
        if event.agent_type is not None:
            out["agent_type"] = event.agent_type
    if native == "SubagentStart":
        out["agent_id"] = event.agent_id or ""
        out["agent_type"] = event.agent_type or ""
    if native in _WITH_EFFORT and "effort" in extra:
        out["effort"] = extra["effort"]
    out["hook_event_name"] = native
    _EVENT_FIELDS[native](event, session, extra, out)
    for key, value in extra.items():
        if key not in _PLACED and key not in out:
            out[key] = value
    return out


def _tool(event: Any, out: dict[str, Any]) -> None:
    out["tool_name"] = event.tool_name
    out["tool_input"] = dict(event.tool_input)


def _session_start(e: Any, s: SessionInfo, x: dict[str, Any], out: dict[str, Any]) -> None:
    out["source"] = e.source
    model = x.get("model", s.model)
    if model is not None:
        out["model"] = model
    for key in _RESUME_KEYS:
        if key in x:
            out[key] = x[key]


def _prompt(e: Any, s: SessionInfo, x: dict[str, Any], out: dict[str, Any]) -> None:
    out["prompt"] = e.prompt


def _pre_tool(e: Any, s: SessionInfo, x: dict[str, Any], out: dict[str, Any]) -> None:
    _tool(e, out)
    out["tool_use_id"] = e.tool_use_id
    _mcp(x, out)


def _permission(e: Any, s: SessionInfo, x: dict[str, Any], out: dict[str, Any]) -> None:
    _tool(e, out)
    out["permission_suggestions"] = list(e.suggestions)
    _mcp(x, out)


def _post_tool(e: Any, s: SessionInfo, x: dict[str, Any], out: dict[str, Any]) -> None:
    _tool(e, out)
    out["tool_response"] = e.tool_response
    out["tool_use_id"] = e.tool_use_id
    if e.duration_ms is not None:
        out["duration_ms"] = e.duration_ms
    _mcp(x, out)


def _tool_failure(e: Any, s: SessionInfo, x: dict[str, Any], out: dict[str, Any]) -> None:
    _tool(e, out)
    out["tool_use_id"] = e.tool_use_id
    out["error"] = e.error
    out["is_interrupt"] = e.is_interrupt
    if e.duration_ms is not None:
        out["duration_ms"] = e.duration_ms
    _mcp(x, out)


def _mcp(x: dict[str, Any], out: dict[str, Any]) -> None:
    if "mcp_server" in x:
        out["mcp_server"] = x["mcp_server"]


def _stop(e: Any, s: SessionInfo, x: dict[str, Any], out: dict[str, Any]) -> None:
    out["stop_hook_active"] = e.stop_hook_active
    if isinstance(e, ev.SubagentStop):
        out["agent_transcript_path"] = e.agent_transcript_path or ""
    if e.last_assistant_message is not None:
        out["last_assistant_message"] = e.last_assistant_message
    out["background_tasks"] = x.get("background_tasks", [])
    out["session_crons"] = x.get("session_crons", [])


def _tool_batch(e: Any, s: SessionInfo, x: dict[str, Any], out: dict[str, Any]) -> None:
    out["tool_calls"] = [dict(call) for call in e.tool_calls]


def _stop_failure(e: Any, s: SessionInfo, x: dict[str, Any], out: dict[str, Any]) -> None:
    out["error"] = e.error
    if e.error_details is not None:
        out["error_details"] = e.error_details
    if e.last_assistant_message is not None:
        out["last_assistant_message"] = e.last_assistant_message


def _nothing(e: Any, s: SessionInfo, x: dict[str, Any], out: dict[str, Any]) -> None:
    pass


def _pre_compact(e: Any, s: SessionInfo, x: dict[str, Any], out: dict[str, Any]) -> None:
    out["trigger"] = e.trigger
    out["custom_instructions"] = e.custom_instructions


def _post_compact(e: Any, s: SessionInfo, x: dict[str, Any], out: dict[str, Any]) -> None:
    out["trigger"] = e.trigger
    out["compact_summary"] = e.compact_summary or ""


def _notification(e: Any, s: SessionInfo, x: dict[str, Any], out: dict[str, Any]) -> None:
    out["message"] = e.message
    if e.title is not None:
        out["title"] = e.title
    out["notification_type"] = e.notification_type or ""


def _session_end(e: Any, s: SessionInfo, x: dict[str, Any], out: dict[str, Any]) -> None:
    out["reason"] = e.reason


_EVENT_FIELDS = {
    "SessionStart": _session_start, "UserPromptSubmit": _prompt, "PreToolUse": _pre_tool,
    "PermissionRequest": _permission, "PostToolUse": _post_tool,
    "PostToolUseFailure": _tool_failure, "Stop": _stop, "SubagentStart": _nothing,
    "SubagentStop": _stop, "PreCompact": _pre_compact, "PostCompact": _post_compact,
    "Notification": _notification, "SessionEnd": _session_end, "PostToolBatch": _tool_batch,
    "StopFailure": _stop_failure,
}


# -- from the wire ---------------------------------------------------------------------------

#: Wire key → event field, per native event (keys not listed go to ``extra``).
_WIRE_FIELDS: Mapping[str, tuple[str, ...]] = {
    "SessionStart": ("source",),
    "UserPromptSubmit": ("prompt",),
    "PreToolUse": ("tool_name", "tool_input", "tool_use_id"),
    "PermissionRequest": ("tool_name", "tool_input", "tool_use_id", "permission_suggestions",
                          "reason"),
    "PostToolUse": ("tool_name", "tool_input", "tool_use_id", "tool_response", "duration_ms"),
    "PostToolUseFailure": ("tool_name", "tool_input", "tool_use_id", "error", "is_interrupt",
                           "duration_ms"),
    "Stop": ("stop_hook_active", "last_assistant_message"),
    "SubagentStart": (),
    "SubagentStop": ("stop_hook_active", "last_assistant_message", "agent_transcript_path"),
    "PreCompact": ("trigger", "custom_instructions"),
    "PostCompact": ("trigger", "compact_summary"),
    "Notification": ("message", "notification_type", "title"),
    "SessionEnd": ("reason",),
    "PostToolBatch": ("tool_calls",),
    "StopFailure": ("error", "error_details", "last_assistant_message"),
}
_COMMON = ("prompt_id", "agent_id", "agent_type")


def event_from_wire(native: str, data: Mapping[str, Any]) -> SeamEvent:
    """Build the seam event of ``native`` from Claude Code stdin fields."""
    spec = EVENTS.get(native)
    if spec is None:
        raise UnknownEventError("claude", native, sorted(EVENTS))
    if spec.seam is None:
        raise EventDataError(f"Claude Code event {native!r} has no hookwire seam: hosts never "
                             "emit it", path="$.hook_event_name")
    if not isinstance(data, Mapping):
        raise EventDataError("event data must be a JSON object")
    cls = ev.EVENT_TYPES[spec.seam]
    fields = _WIRE_FIELDS[native]
    kwargs: dict[str, Any] = {}
    extra: dict[str, Any] = dict(data.get("extra") or {}) if "extra" in data else {}
    for key, value in data.items():
        if key in SESSION_KEYS or key == "extra":
            continue
        if key in _COMMON:
            kwargs[key] = value
        elif key in fields:
            if key == "permission_suggestions":
                kwargs["suggestions"] = tuple(value or ())
            else:
                kwargs[key] = value
        else:
            extra[key] = value
    if "tool_input" in kwargs and not isinstance(kwargs["tool_input"], Mapping):
        raise EventDataError("tool_input must be an object", path="$.tool_input")
    if "tool_calls" in kwargs:
        calls = kwargs["tool_calls"]
        if not isinstance(calls, list) or not all(isinstance(c, Mapping) for c in calls):
            raise EventDataError("tool_calls must be a list of objects", path="$.tool_calls")
        kwargs["tool_calls"] = tuple(calls)
    try:
        return cls(extra=extra, **kwargs)
    except TypeError as exc:
        raise EventDataError(f"{native}: {exc}") from None


def session_from_wire(data: Mapping[str, Any], *, defaults: SessionInfo) -> SessionInfo:
    """``defaults`` with the session fields that ``data`` spells the Claude Code way."""
    import attrs

    changes = {k: data[k] for k in ("session_id", "cwd", "transcript_path", "permission_mode")
               if isinstance(data.get(k), str)}
    return attrs.evolve(defaults, **changes)


def native_for(event: SeamEvent) -> str | None:
    """The Claude Code event a seam event fires as."""
    return BY_SEAM.get(event.seam)
