"""Grok Build (xAI): a dedicated file, ``~/.grok/hooks/hookwire-<plugin>.json`` (user; always
trusted) or ``<project>/.grok/hooks/hookwire-<plugin>.json`` (project; needs ``/hooks-trust``
or ``--trust`` once), Claude-style groups ``{matcher, hooks: [{type, command, timeout (s)}]}``
(docs.x.ai/build/features/hooks).

Grok also reads Claude Code's ``.claude/settings.json`` and Cursor's ``.cursor/hooks.json``:
the copies of a plugin installed for those clients too are skipped under Grok (its camelCase
payload, ``hookEventName``/``workspaceRoot``, names it). Its ``Stop`` also fires when the
session ends (``reason`` ``channel_closed``/``shutdown``): only ``end_turn`` is a turn end.
The prompt arrives wrapped in ``<user_query>`` tags, which are taken off. Observe-only for
context: Grok reads ``additionalContext`` only on Stop, so context results are dropped.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from hookwire.dialects.portable.config import PluginHooks
from hookwire.plugins.install._base import (
    InstallContext,
    JsonHooksClient,
    Target,
    Translation,
    need_project,
)
from hookwire.plugins.install.capability import NATIVE, PARTIAL, Capabilities, Support

TOOL_EVENTS = frozenset({"PreToolUse", "PostToolUse", "PostToolUseFailure"})
_QUERY = re.compile(r"^\s*<user_query>\s*(.*?)\s*</user_query>\s*$", re.S)


class Grok(JsonHooksClient):
    name = "grok"
    display = "Grok Build"
    capabilities = Capabilities(
        events={
            "session-start": Support(level=NATIVE, natives=("SessionStart",)),
            "turn-start": Support(level=NATIVE, natives=("UserPromptSubmit",)),
            "pre-tool-use": Support(level=NATIVE, natives=("PreToolUse",)),
            "post-tool-use": Support(level=NATIVE, natives=("PostToolUse", "PostToolUseFailure")),
            "turn-end": Support(level=NATIVE, natives=("Stop",),
                                note="Stop with reason end_turn only (it also fires at exit)"),
            "session-end": Support(level=PARTIAL, natives=("SessionEnd",),
                                   note="best effort: 5 s default hook timeout"),
        },
        notes=("project hooks run once the folder is trusted (/hooks-trust or --trust)",
               "context results are dropped: Grok reads additionalContext only on Stop",
               "Grok also reads .claude/settings.json and .cursor/hooks.json: those copies "
               "are skipped under Grok when the plugin is installed for Grok too"),
    )
    fields = {"session_id": ("sessionId", "session_id"), "cwd": ("cwd",),
              "tool_name": ("toolName", "tool_name"), "tool_input": ("toolInput", "tool_input"),
              "tool_use_id": ("toolUseId", "tool_use_id"),
              "tool_output": ("toolResult", "tool_response"),
              "last_message": ("lastAssistantMessage", "last_assistant_message"),
              "project_dir": ("workspaceRoot",)}
    failure_events = frozenset({"PostToolUseFailure"})
    fast_entry = {"reply": "empty", "tweak": "grok"}

    def targets(self, scope: str, home: Path, project: Path | None,
                plugin: PluginHooks) -> list[Target]:
        base = home if scope == "user" else need_project(project, self.name)
        return [Target(path=base / ".grok" / "hooks" / f"hookwire-{plugin.name}.json")]

    def entry(self, native: str, event: str, ctx: InstallContext) -> dict[str, Any]:
        hook = {"type": "command", "command": ctx.command(self.name, native),
                "timeout": round(ctx.timeout(event, cap=600))}
        return {"matcher": ".*", "hooks": [hook]} if native in TOOL_EVENTS else {"hooks": [hook]}

    def normalise(self, native: str, payload: Mapping[str, Any]) -> dict[str, Any]:
        out = super().normalise(native, payload)
        prompt = out.get("prompt")
        if isinstance(prompt, str) and (m := _QUERY.match(prompt)):
            out["prompt"] = m.group(1)
        return out

    def translate(self, native: str, payload: Mapping[str, Any]) -> Translation | None:
        if native == "Stop" and payload.get("reason") not in (None, "end_turn"):
            return None  # the session is closing: SessionEnd reports it
        return super().translate(native, payload)
