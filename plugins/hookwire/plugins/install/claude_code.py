"""Claude Code: ``hooks`` in ``~/.claude/settings.json`` (user) or ``.claude/settings.json``
(project), Claude-style groups. Every event is native; post-tool-use rides on PostToolUse and
PostToolUseFailure. Context results use ``hookSpecificOutput.additionalContext``.

The user file honours ``$CLAUDE_CONFIG_DIR``. Cursor, Copilot CLI and Grok also run the hooks
in Claude Code's settings files; when the same plugin is installed for one of them too, the
entry skips the Claude copy under it so nothing fires twice.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from hookwire.dialect import HookEntry
from hookwire.dialects.portable.config import PluginHooks
from hookwire.plugins.install._base import (
    InstallContext,
    JsonHooksClient,
    Target,
    additional_context,
    env_dir,
    need_project,
    written_group,
)
from hookwire.plugins.install.capability import NATIVE, PARTIAL, Capabilities, Support
from hookwire.verdicts import Context

ADDITIONAL_CONTEXT = frozenset({"SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse",
                                "PostToolUseFailure"})
TOOL_EVENTS = frozenset({"PreToolUse", "PostToolUse", "PostToolUseFailure"})


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
        notes=("Cursor, Copilot CLI and Grok also read Claude Code settings; the entry skips "
               "the Claude copy under them when the plugin is installed for them too",),
    )
    fast_entry = {"reply": "additional_context"}
    fields = {"last_message": ("last_assistant_message",)}
    failure_events = frozenset({"PostToolUseFailure"})
    project_env = ("CLAUDE_PROJECT_DIR",)
    read_by = ("cursor", "grok", "copilot-cli")

    def targets(self, scope: str, home: Path, project: Path | None,
                plugin: PluginHooks) -> list[Target]:
        if scope == "user":
            folder = env_dir("CLAUDE_CONFIG_DIR", home, home / ".claude")
        else:
            folder = need_project(project, self.name) / ".claude"
        return [Target(path=folder / "settings.json")]

    def entry(self, native: str, event: str, ctx: InstallContext) -> dict[str, Any]:
        from hookwire.dialects.claude import ClaudeDialect  # not on the shim's path

        hook = HookEntry(dialect=ClaudeDialect.name, event=native,
                         matcher="*" if native in TOOL_EVENTS else None,
                         command=ctx.command(self.name, native),
                         timeout=round(ctx.timeout(event, cap=600)))
        return written_group(ClaudeDialect(), hook)

    def respond(self, native: str, contexts: Sequence[Context]) -> bytes:
        return additional_context(native, contexts, ADDITIONAL_CONTEXT)
