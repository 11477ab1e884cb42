"""The portable payload envelope (stdin of every handler) and the handler's environment.

One JSON object and a newline, described by ``schema/payload.schema.json``. Tool names pass
through as the client spells them (``Bash``, ``Shell``, ``apply_patch``): never normalised.
The environment is sanitised: a short allow-list of the client's variables, the handler's
``env`` (expanded), then ``PLUGIN_ROOT`` and ``PLUGIN_DATA``, which nothing can override.
"""

from __future__ import annotations

import datetime
import os
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from hookwire.dialects.portable import events as pe
from hookwire.events import (
    PromptSubmit,
    SeamEvent,
    SessionEnd,
    SessionInfo,
    SessionStart,
    Stop,
    ToolFailure,
    ToolPost,
    ToolPre,
)
from hookwire.wire import json_writer

PAYLOAD_VERSION = "0.1.0"
PAYLOAD_ID = f"https://hookwire.dev/schemas/portable-hooks/{PAYLOAD_VERSION}/payload.schema.json"

#: Variables of the client's environment a handler inherits; everything else is dropped.
BASE_ENV = ("PATH", "HOME", "USER", "LOGNAME", "SHELL", "LANG", "LANGUAGE", "TERM", "TMPDIR",
            "TZ", "SYSTEMROOT", "XDG_RUNTIME_DIR")
_LOCALE = re.compile(r"LC_[A-Z]+")

#: ``extra`` key under which a client adapter names itself ({"name", "version", "event"}).
CLIENT_KEY = "portable.client"


def data_dir(plugin: str, data_home: str | None = None) -> Path:
    """``PLUGIN_DATA`` for ``plugin``: created, writable, kept across plugin updates.
    ``$XDG_DATA_HOME/hookwire/plugin-data/<name>`` unless the dialect was given a root."""
    if data_home is None:
        xdg = os.environ.get("XDG_DATA_HOME") or os.path.join(
            os.path.expanduser("~"), ".local", "share")
        data_home = os.path.join(xdg, "hookwire", "plugin-data")
    path = Path(data_home) / plugin
    path.mkdir(parents=True, exist_ok=True)
    return path


def base_env(source: Mapping[str, str]) -> dict[str, str]:
    return {k: v for k, v in source.items() if k in BASE_ENV or _LOCALE.fullmatch(k)}


def build(event: SeamEvent, native: str, session: SessionInfo, *,
             now: datetime.datetime | None = None) -> dict[str, Any]:
    """The payload for ``event`` firing as ``native`` (the shadow reads ``post-tool-use``)."""
    name = pe.public_name(native)
    stamp = (now or datetime.datetime.now(datetime.UTC)).isoformat(timespec="milliseconds")
    client = event.extra.get(CLIENT_KEY)
    out: dict[str, Any] = {
        "$schema": PAYLOAD_ID,
        "event": name,
        "session_id": session.session_id,
        "turn_id": event.prompt_id,
        "cwd": session.cwd,
        "project_dir": session.project_dir,
        "timestamp": stamp.replace("+00:00", "Z"),
        "client": dict(client) if isinstance(client, Mapping) else
        {"name": "hookwire", "version": _version(), "event": event.seam.value},
    }
    if isinstance(event, SessionStart):
        out["source"] = event.source
    elif isinstance(event, PromptSubmit):
        out["prompt"] = event.prompt
    elif isinstance(event, ToolPre | ToolPost | ToolFailure):
        out["tool"] = {"name": event.tool_name, "use_id": event.tool_use_id or None,
                       "input": dict(event.tool_input)}
        if name == pe.POST_TOOL_USE:
            out["result"] = _result(event)
    elif isinstance(event, Stop):
        out["last_assistant_message"] = event.last_assistant_message
    elif isinstance(event, SessionEnd):
        out["reason"] = event.reason
    return out


def _result(event: SeamEvent) -> dict[str, Any]:
    status = pe.tool_status(event)
    result: dict[str, Any] = {"status": status}
    if isinstance(event, ToolPost):
        result["output"] = event.tool_response
    else:
        error = getattr(event, "error", None) or event.extra.get("reason")
        result["error"] = str(error) if error else None
    result["duration_ms"] = getattr(event, "duration_ms", None)
    return result


_WRITE = json_writer(separators=(", ", ": "), default=str)


def encode(payload: Mapping[str, Any]) -> bytes:
    return (_WRITE(payload) + "\n").encode("utf-8")


def _version() -> str:
    from hookwire import __version__

    return __version__
