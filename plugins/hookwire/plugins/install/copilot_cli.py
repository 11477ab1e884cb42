"""GitHub Copilot CLI: a dedicated file, ``~/.copilot/hooks/hookwire-<plugin>.json`` (user;
``$COPILOT_HOME/hooks/`` when set) or ``.github/hooks/hookwire-<plugin>.json``
(project; the cloud agent reads it from the default branch), shaped
``{"version": 1, "hooks": {event: [{type, bash, timeoutSec}]}}``.

Copilot ignores the output of sessionStart, userPromptSubmitted and sessionEnd, so context
results are not delivered. Copilot CLI also runs hooks from ``.claude/settings*.json``: the
Claude Code copy of a plugin installed for both is skipped under Copilot.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hookwire.dialects.portable.config import PluginHooks
from hookwire.plugins.install._base import (
    InstallContext,
    JsonHooksClient,
    Target,
    env_dir,
    need_project,
)
from hookwire.plugins.install.capability import NATIVE, PARTIAL, Capabilities, Support


class CopilotCli(JsonHooksClient):
    name = "copilot-cli"
    display = "GitHub Copilot CLI"
    nested = False
    skeleton = {"version": 1}
    capabilities = Capabilities(
        events={
            "session-start": Support(level=NATIVE, natives=("sessionStart",)),
            "turn-start": Support(level=NATIVE, natives=("userPromptSubmitted",)),
            "pre-tool-use": Support(level=NATIVE, natives=("preToolUse",)),
            "post-tool-use": Support(level=NATIVE, natives=("postToolUse", "postToolUseFailure")),
            "turn-end": Support(level=NATIVE, natives=("agentStop",)),
            "session-end": Support(level=PARTIAL, natives=("sessionEnd",),
                                   note="best effort: 30 s default timeout"),
        },
        notes=("context results are not delivered: Copilot ignores hook output on these events",
               "the cloud agent reads .github/hooks/ from the default branch and runs bash only"),
    )
    fast_entry = {"reply": "empty"}
    fields = {"session_id": ("sessionId", "session_id"), "tool_input": ("toolArgs",),
              "tool_output": ("toolResult",), "last_message": ()}
    failure_events = frozenset({"postToolUseFailure"})

    def targets(self, scope: str, home: Path, project: Path | None,
                plugin: PluginHooks) -> list[Target]:
        name = f"hookwire-{plugin.name}.json"
        if scope == "user":
            folder = env_dir("COPILOT_HOME", home, home / ".copilot")
            return [Target(path=folder / "hooks" / name)]
        return [Target(path=need_project(project, self.name) / ".github" / "hooks" / name)]

    def entry(self, native: str, event: str, ctx: InstallContext) -> dict[str, Any]:
        return {"type": "command", "bash": ctx.command(self.name, native, answer=""),
                "timeoutSec": round(ctx.timeout(event))}
