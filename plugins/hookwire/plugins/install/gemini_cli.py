"""Gemini CLI: ``hooks`` in ``~/.gemini/settings.json`` (user) or ``.gemini/settings.json``
(project), groups ``{matcher, hooks: [{name, type, command, timeout (ms)}]}``.

Gemini CLI's consumer service was succeeded by Antigravity (``agy``) in 2026; this writes the
Gemini CLI format, which agy does not read. Early Gemini CLI versions also needed
``tools.enableHooks``.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from hookwire.dialects.portable.config import PluginHooks
from hookwire.plugins.install._base import (
    InstallContext,
    JsonHooksClient,
    Target,
    additional_context,
    need_project,
)
from hookwire.plugins.install.capability import NATIVE, PARTIAL, Capabilities, Support
from hookwire.verdicts import Context

CONTEXT = frozenset({"SessionStart", "BeforeAgent", "AfterTool"})


class GeminiCli(JsonHooksClient):
    name = "gemini-cli"
    display = "Gemini CLI"
    capabilities = Capabilities(
        events={
            "session-start": Support(level=NATIVE, natives=("SessionStart",)),
            "turn-start": Support(level=NATIVE, natives=("BeforeAgent",)),
            "pre-tool-use": Support(level=NATIVE, natives=("BeforeTool",)),
            "post-tool-use": Support(level=PARTIAL, natives=("AfterTool",),
                                     note="failed tools arrive with tool_response.error; "
                                          "denied calls get no post-tool-use"),
            "turn-end": Support(level=NATIVE, natives=("AfterAgent",)),
            "session-end": Support(level=PARTIAL, natives=("SessionEnd",),
                                   note="not awaited by Gemini CLI: best effort"),
        },
        context=CONTEXT,
        notes=("project hooks are fingerprinted: Gemini CLI warns when they change",
               "Antigravity (agy) replaced Gemini CLI in 2026 and reads another format"),
    )
    fast_entry = {"reply": "additional_context", "tweak": "response_error"}
    fields = {"last_message": ("prompt_response",)}
    project_env = ("GEMINI_PROJECT_DIR", "CLAUDE_PROJECT_DIR")

    def targets(self, scope: str, home: Path, project: Path | None,
                plugin: PluginHooks) -> list[Target]:
        base = home if scope == "user" else need_project(project, self.name)
        return [Target(path=base / ".gemini" / "settings.json")]

    def entry(self, native: str, event: str, ctx: InstallContext) -> dict[str, Any]:
        # one name per entry: Gemini CLI's /hooks enable|disable act on a name
        hook = {"name": f"hookwire-{ctx.plugin.name}-{native}", "type": "command",
                "command": ctx.command(self.name, native),
                "timeout": round(ctx.timeout(event) * 1000)}
        matcher = ".*" if native in ("BeforeTool", "AfterTool") else ""
        return {"matcher": matcher, "hooks": [hook]}

    def normalise(self, native: str, payload: Any) -> dict[str, Any]:
        out = super().normalise(native, payload)
        response = payload.get("tool_response")
        if isinstance(response, dict) and response.get("error"):
            out["error"] = str(response["error"])
        return out

    def respond(self, native: str, contexts: Sequence[Context]) -> bytes:
        return additional_context(native, contexts, CONTEXT)
