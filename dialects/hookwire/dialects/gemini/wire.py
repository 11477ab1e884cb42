"""Seam events from fields spelled as Gemini CLI's stdin spells them (``hookwire fire``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from hookwire import events as hev
from hookwire.errors import EventDataError
from hookwire.events import SeamEvent

_FIELDS: Mapping[str, tuple[str, ...]] = {
    "BeforeTool": ("tool_name", "tool_input", "mcp_context", "original_request_name"),
    "AfterTool": ("tool_name", "tool_input", "tool_response", "mcp_context",
                  "original_request_name"),
    "BeforeAgent": ("prompt",),
    "AfterAgent": ("prompt", "prompt_response", "stop_hook_active"),
    "SessionStart": ("source",),
    "SessionEnd": ("reason",),
    "Notification": ("notification_type", "message", "details"),
    "PreCompress": ("trigger",),
}
_COMMON = ("session_id", "transcript_path", "cwd", "hook_event_name", "timestamp")


def _need(data: Mapping[str, Any], native: str, key: str, kind: type) -> Any:
    if key not in data:
        raise EventDataError(f"{native} needs {key!r}", path=f"$.{key}")
    if not isinstance(data[key], kind):
        raise EventDataError(f"{key} must be a {kind.__name__}", path=f"$.{key}")
    return data[key]


def event_from_wire(native: str, data: Mapping[str, Any]) -> SeamEvent:
    """The seam event of ``native`` (a Gemini CLI event with a seam) from ``data``."""
    fields = _FIELDS[native]
    for key in data:
        if key not in fields and key not in _COMMON:
            raise EventDataError(f"{native} has no field {key!r} (fields: "
                                 f"{', '.join(fields)})", path=f"$.{key}")
    extra = {k: data[k] for k in ("mcp_context", "original_request_name", "timestamp")
             if k in data}
    if native in ("BeforeTool", "AfterTool"):
        name = _need(data, native, "tool_name", str)
        tool_input = data.get("tool_input", {})
        if not isinstance(tool_input, dict):
            raise EventDataError("tool_input must be an object", path="$.tool_input")
        if native == "BeforeTool":
            return hev.ToolPre(tool_name=name, tool_input=tool_input, extra=extra)
        response = data.get("tool_response")
        if isinstance(response, dict) and response.get("error"):
            error = response["error"]
            message = error.get("message") if isinstance(error, dict) else str(error)
            return hev.ToolFailure(tool_name=name, tool_input=tool_input, error=str(message),
                                   extra=extra)
        return hev.ToolPost(tool_name=name, tool_input=tool_input, tool_response=response,
                            extra=extra)
    if native == "BeforeAgent":
        return hev.PromptSubmit(prompt=_need(data, native, "prompt", str), extra=extra)
    if native == "AfterAgent":
        active = data.get("stop_hook_active", False)
        if not isinstance(active, bool):
            raise EventDataError("stop_hook_active must be a boolean",
                                 path="$.stop_hook_active")
        return hev.Stop(stop_hook_active=active,
                        last_assistant_message=str(data.get("prompt_response", "")),
                        extra={**extra, "prompt": str(data.get("prompt", ""))})
    if native == "SessionStart":
        return hev.SessionStart(source=str(data.get("source", "startup")), extra=extra)
    if native == "SessionEnd":
        return hev.SessionEnd(reason=str(data.get("reason", "exit")), extra=extra)
    if native == "PreCompress":
        return hev.PreCompact(trigger=str(data.get("trigger", "auto")), extra=extra)
    return hev.Notification(message=str(data.get("message", "")),
                            notification_type=str(data.get("notification_type",
                                                           "ToolPermission")),
                            extra={**extra, "details": data.get("details") or {}})
