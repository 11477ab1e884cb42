"""What a Codex hook process gets: stdin bytes, argv, environment and cwd.

stdin is one compact JSON object (``serde_json::to_string``: no spaces, non-ASCII kept as
UTF-8) with **no trailing newline**, keys in Codex's struct order. The command runs as
``<user shell> -c <text>`` (the account's login shell from the password database, non-login
``-c``; ``$SHELL -lc`` and then ``/bin/sh -lc`` when the account has none) in the session cwd,
with the session environment minus five credentials variables, plus the plugin variables for
plugin hooks. No hook-specific variable is added. The environment is a spawn plan, built and
encoded once per (entry, session) and again when the session's cwd changes; the shell is
looked up once per account and ``$SHELL``.
"""

from __future__ import annotations

import os
import pwd
import shlex
from collections.abc import Mapping
from typing import Any

from hookwire import events as hev
from hookwire.dialect import HookEntry
from hookwire.dialects.codex import events as ev
from hookwire.dialects.codex.handler import handler_of
from hookwire.events import SeamEvent, SessionInfo
from hookwire.runner import Environment, PlanCache
from hookwire.wire import json_writer

#: Keys every payload may carry, in serialisation order (absent ones are skipped).
_TURN_EVENTS = frozenset({"PreToolUse", "PermissionRequest", "PostToolUse", "PreCompact",
                          "PostCompact", "UserPromptSubmit", "SubagentStart", "SubagentStop",
                          "Stop", "Interrupt"})
_OPTIONAL_AGENT = frozenset({"PreToolUse", "PermissionRequest", "PostToolUse", "PreCompact",
                             "PostCompact", "UserPromptSubmit"})
_REQUIRED_AGENT = frozenset({"SubagentStart", "SubagentStop"})
_NO_MODEL = frozenset({"SessionEnd"})
_NO_MODE = frozenset({"SessionEnd", "PreCompact", "PostCompact"})


def permission_mode(session: SessionInfo, event: SeamEvent) -> str:
    """Codex sends only ``bypassPermissions`` (approval policy ``never``) or ``default``."""
    mode = event.extra.get("permission_mode", session.permission_mode)
    if mode in ("bypassPermissions", "never"):
        return "bypassPermissions"
    return "default"


def turn_id(event: SeamEvent) -> str:
    """Codex's ``turn_id``: ``extra["turn_id"]``, else the hookwire ``prompt_id``, else ``""``."""
    value = event.extra.get("turn_id", event.prompt_id)
    return "" if value is None else str(value)


def tool_input(tool_name: str, raw: Mapping[str, Any]) -> Any:
    """Shell tools reach hooks as ``Bash`` with ``{"command": <string>}`` only."""
    if ev.canonical_tool(tool_name) != "Bash" or "command" not in raw:
        return dict(raw)
    command = raw["command"]
    if isinstance(command, list):
        command = shlex.join(str(c) for c in command)
    return {"command": command}


def build(event: SeamEvent, native: str, session: SessionInfo) -> dict[str, Any]:
    """The stdin object of ``native`` for ``event`` (a dict in Codex's key order)."""
    x = event.extra
    out: dict[str, Any] = {"session_id": session.session_id}
    if native in _TURN_EVENTS:
        out["turn_id"] = turn_id(event)
    if native in _REQUIRED_AGENT or (native in _OPTIONAL_AGENT and event.agent_id is not None):
        out["agent_id"] = event.agent_id or ""
        out["agent_type"] = event.agent_type or "default"
    out["transcript_path"] = x.get("transcript_path", session.transcript_path)
    if native == "SubagentStop":
        out["agent_transcript_path"] = getattr(event, "agent_transcript_path", None)
    out["cwd"] = session.cwd
    out["hook_event_name"] = native
    if native not in _NO_MODEL:
        out["model"] = str(x.get("model", session.model) or "")
    if native not in _NO_MODE:
        out["permission_mode"] = permission_mode(session, event)
    if isinstance(event, hev.ToolPre | hev.ToolPost | hev.ToolFailure | hev.ApprovalRequest):
        name = ev.canonical_tool(event.tool_name)
        out["tool_name"] = name
        out["tool_input"] = tool_input(event.tool_name, event.tool_input)
        if isinstance(event, hev.ApprovalRequest):
            if name == "Bash" and event.reason and isinstance(out["tool_input"], dict):
                out["tool_input"].setdefault("description", event.reason)
        elif isinstance(event, hev.ToolPost):
            out["tool_response"] = event.tool_response
            out["tool_use_id"] = event.tool_use_id
        elif isinstance(event, hev.ToolFailure):  # a non-zero exit: Codex's PostToolUse
            out["tool_response"] = (event.tool_response if event.tool_response is not None
                                    else event.error)
            out["tool_use_id"] = event.tool_use_id
        else:
            out["tool_use_id"] = event.tool_use_id
    elif isinstance(event, hev.PreCompact | hev.PostCompact):
        out["trigger"] = event.trigger
    elif isinstance(event, hev.SessionStart):
        out["source"] = event.source
    elif isinstance(event, hev.SessionEnd):
        out["reason"] = "other"  # Codex sends no other value
    elif isinstance(event, hev.PromptSubmit):
        out["prompt"] = event.prompt
    elif isinstance(event, hev.Stop | hev.SubagentStop):
        out["stop_hook_active"] = event.stop_hook_active
        out["last_assistant_message"] = event.last_assistant_message
    return out


_WRITE = json_writer(separators=(",", ":"))


def encode(payload: Mapping[str, Any]) -> bytes:
    """Compact JSON, UTF-8, no trailing newline."""
    return _WRITE(payload).encode("utf-8")


_PLANS = PlanCache()
_shells: dict[tuple[int, str | None], tuple[str, ...]] = {}


def user_shell(env: Mapping[str, str] | None = None) -> tuple[str, ...]:
    """``(shell, "-c")`` for the account's shell; else ``($SHELL, "-lc")``, ``/bin/sh -lc``."""
    key = (os.getuid(), (os.environ if env is None else env).get("SHELL"))
    shell = _shells.get(key)
    if shell is None:
        shell = _shells[key] = _user_shell(env)
    return shell


def _user_shell(env: Mapping[str, str] | None) -> tuple[str, ...]:
    try:
        shell = pwd.getpwuid(os.getuid()).pw_shell
    except KeyError:
        shell = ""
    if shell and os.access(shell, os.X_OK) and not shell.endswith(("nologin", "false")):
        return (shell, "-c")
    env = os.environ if env is None else env
    fallback = env.get("SHELL") or "/bin/sh"
    return (fallback, "-lc")


def environment(entry: HookEntry, session: SessionInfo) -> Environment:
    """The session environment, the plugin variables, minus Codex's scrubbed credentials."""
    return _PLANS.get(entry, session, None, lambda: Environment(_environment(entry, session)))


def _environment(entry: HookEntry, session: SessionInfo) -> dict[str, str]:
    env = dict(os.environ)
    env.update(session.env)
    env.update(handler_of(entry).env)
    for name in ev.SCRUBBED_ENV:
        env.pop(name, None)
    return env
