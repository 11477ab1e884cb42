"""Claude Code: ``hooks`` in ``~/.claude/settings.json`` (user) or ``.claude/settings.json``
(project), Claude-style groups. Every event is native; post-tool-use rides on PostToolUse and
PostToolUseFailure. Context results use ``hookSpecificOutput.additionalContext``.

Cursor also runs the hooks in Claude Code's settings files; when the same plugin is installed
for Cursor too, the shim skips the Claude copy under Cursor so nothing fires twice.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from hookwire.dialects.portable.config import PluginHooks
from hookwire.plugins.install._base import InstallContext, JsonHooksClient, Target, need_project
from hookwire.plugins.install.capability import NATIVE, PARTIAL, Capabilities, Support
from hookwire.verdicts import Context

ADDITIONAL_CONTEXT = frozenset({"SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse",
                                "PostToolUseFailure"})


class ClaudeCode(JsonHooksClient):
    name = "claude-code"
    display = "Claude Code"
    capabilities = Capabilities(
        events={
            "session-start": Support(level=NATIVE, natives=("SessionStart",),
                                     note="also on resume, clear and compaction (source)"),
            "turn-start": Support(level=NATIVE, natives=("UserPromptSubmit",)),
            "pre-tool-use": Support(level=NATIVE, natives=("PreToolUse",)),
            "post-tool-use": Support(level=PARTIAL, natives=("PostToolUse", "PostToolUseFailure"),
                                     note="denied calls get no post-tool-use (Claude Code "
                                          "fires nothing for them)"),
            "turn-end": Support(level=NATIVE, natives=("Stop",)),
            "session-end": Support(level=PARTIAL, natives=("SessionEnd",),
                                   note="best effort: SessionEnd hooks share a ~1.5 s budget"),
        },
        context=ADDITIONAL_CONTEXT,
        notes=("Cursor and Copilot CLI also read Claude Code settings; the shim skips the "
               "Claude copy under Cursor when the plugin is installed for Cursor too",),
    )
    fields = {"last_message": ("last_assistant_message",)}
    failure_events = frozenset({"PostToolUseFailure"})

    def targets(self, scope: str, home: Path, project: Path | None,
                plugin: PluginHooks) -> list[Target]:
        base = home if scope == "user" else need_project(project, self.name)
        return [Target(path=base / ".claude" / "settings.json")]

    def entry(self, native: str, event: str, ctx: InstallContext) -> dict[str, Any]:
        hook = {"type": "command", "command": ctx.command(self.name, native),
                "timeout": round(ctx.timeout(event, cap=600))}
        group: dict[str, Any] = {"hooks": [hook]}
        if native in ("PreToolUse", "PostToolUse", "PostToolUseFailure"):
            group = {"matcher": "*", **group}
        return group

    def respond(self, native: str, contexts: Sequence[Context]) -> bytes:
        if not contexts or native not in ADDITIONAL_CONTEXT:
            return b""
        text = "\n\n".join(c.text for c in contexts)
        return json.dumps({"hookSpecificOutput": {"hookEventName": native,
                                                  "additionalContext": text}}).encode() + b"\n"
