"""What a Gemini CLI 0.61.0 hook process gets: stdin, command line and environment.

stdin is ``JSON.stringify`` of the input: compact, no trailing newline, keys in Gemini's order
(``session_id``, ``transcript_path``, ``cwd``, ``hook_event_name``, ``timestamp``, then the
event's own fields). The command is ``bash -c <text>`` in the session's cwd, after
``$GEMINI_PROJECT_DIR``, ``$GEMINI_CWD``, ``$GEMINI_PLANS_DIR``, ``$GEMINI_SESSION_ID`` and
``$CLAUDE_PROJECT_DIR`` were replaced by their shell-quoted values; the same five are set in
the environment, on top of the CLI's own (inherited whole: Gemini CLI's redaction of secrets
is off by default) and the hook's ``env``.
"""

from __future__ import annotations

import datetime
import json
import os
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from hookwire import events as hev
from hookwire.events import SeamEvent, SessionInfo

_PLACEHOLDER = re.compile(r"\$(GEMINI_PROJECT_DIR|GEMINI_CWD|GEMINI_PLANS_DIR|"
                          r"GEMINI_SESSION_ID|CLAUDE_PROJECT_DIR)")
_SAFE = re.compile(r"[A-Za-z0-9_/.+@%=:,-]*")
_SPECIAL = re.compile(r"([A-Za-z]:)?([#!\"$&'()*,:;<=>?@\[\\\]^`{|}])")


def quote(arg: str) -> str:
    """``arg`` quoted as Gemini CLI quotes it for bash (the ``shell-quote`` package)."""
    if arg == "":
        return "''"
    if re.search(r"[\"\s]", arg) and "'" not in arg:
        return f"'{arg}'"
    if re.search(r"[\"'\s]", arg):
        return '"' + re.sub(r'(["\\$`!])', r"\\\1", arg) + '"'
    return _SPECIAL.sub(lambda m: (m.group(1) or "") + "\\" + m.group(2), arg)


def plans_dir(session: SessionInfo, home: str | None = None) -> str:
    """``GEMINI_PLANS_DIR``: ``~/.gemini/tmp/<project folder name>/<session id>/plans``."""
    base = Path(home) if home else Path.home()
    project = Path(session.project_dir or session.cwd).name or "root"
    return str(base / ".gemini" / "tmp" / project / session.session_id / "plans")


def variables(session: SessionInfo, home: str | None = None) -> dict[str, str]:
    """The five variables Gemini CLI sets and substitutes (its project dir is the cwd)."""
    return {"GEMINI_PROJECT_DIR": session.cwd, "GEMINI_PLANS_DIR": plans_dir(session, home),
            "GEMINI_CWD": session.cwd, "GEMINI_SESSION_ID": session.session_id,
            "CLAUDE_PROJECT_DIR": session.cwd}


def expand(text: str, values: Mapping[str, str]) -> str:
    """``text`` with each ``$NAME`` of the five replaced by its quoted value (textually, as
    Gemini CLI does: ``$GEMINI_CWDX`` becomes ``<cwd>X``)."""
    return _PLACEHOLDER.sub(lambda m: quote(values[m.group(1)]), text)


def environment(session: SessionInfo, values: Mapping[str, str],
                own: Mapping[str, str]) -> dict[str, str]:
    return {**os.environ, **session.env, **values, **own}


def _now() -> str:
    now = datetime.datetime.now(datetime.UTC)
    return now.strftime("%Y-%m-%dT%H:%M:%S.") + f"{now.microsecond // 1000:03d}Z"


def tool_response(event: SeamEvent) -> dict[str, Any]:
    """``tool_response`` as Gemini CLI gives it: the result's ``llmContent``,
    ``returnDisplay`` and, for a failed call, ``error`` (a mapping with these keys passes
    through as it is)."""
    response = getattr(event, "tool_response", None)
    if isinstance(response, Mapping) and "llmContent" in response:
        return dict(response)
    if isinstance(event, hev.ToolFailure):
        text = event.error or str(response or "")
        return {"llmContent": text, "returnDisplay": text,
                "error": {"message": text, "type": "execution_failed"}}
    text = response if isinstance(response, str) else json.dumps(response)
    return {"llmContent": text, "returnDisplay": text}


def build(event: SeamEvent, native: str, session: SessionInfo, *, prompt: str = ""
          ) -> dict[str, Any]:
    """The input object of ``native`` for ``event`` (``prompt``: the turn's prompt, for
    AfterAgent, unless the event's ``extra`` carries one)."""
    extra = event.extra
    out: dict[str, Any] = {"session_id": session.session_id,
                           "transcript_path": session.transcript_path or "",
                           "cwd": session.cwd, "hook_event_name": native,
                           "timestamp": extra.get("timestamp") or _now()}
    if isinstance(event, hev.ToolPre | hev.ToolPost | hev.ToolFailure):
        out["tool_name"] = event.tool_name
        out["tool_input"] = dict(event.tool_input)
        if native == "AfterTool":
            out["tool_response"] = tool_response(event)
        for key in ("mcp_context", "original_request_name"):
            if key in extra:
                out[key] = extra[key]
    elif isinstance(event, hev.PromptSubmit):
        out["prompt"] = event.prompt
    elif isinstance(event, hev.Stop):
        out["prompt"] = str(extra.get("prompt", prompt))
        out["prompt_response"] = event.last_assistant_message or ""
        out["stop_hook_active"] = event.stop_hook_active
    elif isinstance(event, hev.SessionStart):
        out["source"] = event.source
    elif isinstance(event, hev.SessionEnd):
        out["reason"] = event.reason
    elif isinstance(event, hev.PreCompact):
        out["trigger"] = event.trigger
    elif isinstance(event, hev.Notification):
        out["notification_type"] = event.notification_type or "ToolPermission"
        out["message"] = event.message
        out["details"] = dict(extra.get("details") or {})
    return out


def encode(data: Mapping[str, Any]) -> bytes:
    """``JSON.stringify``: compact, non-ASCII as is, no trailing newline."""
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode()

