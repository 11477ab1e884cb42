"""Windsurf / Devin Desktop (Cascade hooks): ``~/.codeium/windsurf/hooks.json`` (user) or
``.windsurf/hooks.json`` (workspace), flat ``{command, show_output}`` entries, no matcher and
no timeout field.

Windsurf has no session events: session-start is synthesised on the first ``pre_user_prompt``
of each trajectory (a marker file in hookwire's state directory), and session-end cannot be
observed. Its stdout reaches only the UI, so context results are dropped. Tools arrive as four
kinds; the portable tool name is the kind (``run_command``, ``write_code``, ``read_code``) or,
for MCP, the MCP tool's own name.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from hookwire.dialects.portable.config import PluginHooks
from hookwire.plugins.install._base import (
    InstallContext,
    JsonHooksClient,
    Target,
    Translation,
    first_in_session,
    need_project,
)
from hookwire.plugins.install.capability import (
    NATIVE,
    SYNTHESISED,
    UNSUPPORTED,
    Capabilities,
    Support,
)

PRE = ("pre_run_command", "pre_write_code", "pre_read_code", "pre_mcp_tool_use")
POST = ("post_run_command", "post_write_code", "post_read_code", "post_mcp_tool_use")


class Windsurf(JsonHooksClient):
    name = "windsurf"
    display = "Windsurf / Devin Desktop"
    nested = False
    capabilities = Capabilities(
        events={
            "session-start": Support(level=SYNTHESISED, natives=(),
                                     note="fired before the first pre_user_prompt of each "
                                          "trajectory (markers: a week, removed on uninstall)"),
            "turn-start": Support(level=NATIVE, natives=("pre_user_prompt",)),
            "pre-tool-use": Support(level=NATIVE, natives=PRE),
            "post-tool-use": Support(level=NATIVE, natives=POST,
                                     note="a call another hook blocked (exit 2) gets none"),
            "turn-end": Support(level=NATIVE, natives=("post_cascade_response",)),
            "session-end": Support(level=UNSUPPORTED,
                                   note="Windsurf has no session end event"),
        },
        notes=("hook output is shown in the UI only: context results are dropped",
               "no timeout field: a hanging handler is bounded by its own timeout only"),
    )

    fast_entry = {"reply": "empty", "tweak": "windsurf"}

    def targets(self, scope: str, home: Path, project: Path | None,
                plugin: PluginHooks) -> list[Target]:
        if scope == "user":
            return [Target(path=home / ".codeium" / "windsurf" / "hooks.json")]
        return [Target(path=need_project(project, self.name) / ".windsurf" / "hooks.json")]

    def wanted(self, plugin: PluginHooks) -> dict[str, str]:
        out = super().wanted(plugin)
        if "session-start" in plugin.events:
            out.setdefault("pre_user_prompt", "turn-start")
        return out

    def entry(self, native: str, event: str, ctx: InstallContext) -> dict[str, Any]:
        return {"command": ctx.command(self.name, native), "show_output": False}

    def normalise(self, native: str, payload: Mapping[str, Any]) -> dict[str, Any]:
        info = payload.get("tool_info")
        info = info if isinstance(info, Mapping) else {}
        kind = native.split("_", 1)[1] if "_" in native else native
        out: dict[str, Any] = dict.fromkeys(("turn_id", "version", "source", "error", "success",
                                             "reason", "tool_output", "last_message"))
        out.update(session_id=payload.get("trajectory_id"), cwd=info.get("cwd"),
                   prompt=info.get("user_prompt"), tool_use_id=payload.get("execution_id"),
                   last_message=info.get("response"))
        if kind.endswith("mcp_tool_use"):
            out.update(tool_name=info.get("mcp_tool_name"),
                       tool_input=info.get("mcp_tool_arguments"),
                       tool_output=info.get("mcp_result"))
        else:
            out.update(tool_name=kind, tool_input={k: v for k, v in info.items()})
        return out

    def translations(self, native: str, payload: Mapping[str, Any], state: Path,
                     wants_start: bool) -> list[Translation]:
        found = self.translate(native, payload)
        if found is None:
            return []
        out = [found]
        if native == "pre_user_prompt" and wants_start and first_in_session(
                state, self.name, found.session_id):
            out.insert(0, self._start(found))
        return out

    def _start(self, found: Translation) -> Translation:
        import attrs

        from hookwire import events as ev

        extra = dict(found.event.extra)
        return attrs.evolve(found, portable="session-start",
                            event=ev.SessionStart(source="startup", extra=extra))
