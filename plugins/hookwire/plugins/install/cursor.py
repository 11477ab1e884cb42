"""Cursor: ``~/.cursor/hooks.json`` (user) or ``.cursor/hooks.json`` (project):
``{"version": 1, "hooks": {event: [{command, timeout}]}}``. An unknown event key or a wrong
``version`` makes Cursor reject the whole file, so only documented events are written and a
new file gets ``"version": 1`` (removed again on uninstall when nothing else remains).

Permission hooks (``preToolUse``) that print invalid JSON block in Cursor: the shim always
prints a JSON object there, with no ``permission`` (an ``allow`` would skip Cursor's own
approval).
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

#: Where Cursor documents ``additional_context``; ``beforeSubmitPrompt`` documents only
#: ``continue`` and ``user_message``, so a context result there is dropped.
CONTEXT = frozenset({"sessionStart", "postToolUse", "postToolUseFailure"})


class Cursor(JsonHooksClient):
    name = "cursor"
    display = "Cursor"
    nested = False
    skeleton = {"version": 1}
    capabilities = Capabilities(
        events={
            "session-start": Support(level=PARTIAL, natives=("sessionStart",),
                                     note="new chats only: not on resume or after compaction"),
            "turn-start": Support(level=NATIVE, natives=("beforeSubmitPrompt",),
                                  note="no context results: beforeSubmitPrompt documents none"),
            "pre-tool-use": Support(level=NATIVE, natives=("preToolUse",)),
            "post-tool-use": Support(level=NATIVE, natives=("postToolUse", "postToolUseFailure")),
            "turn-end": Support(level=NATIVE, natives=("stop",)),
            "session-end": Support(level=NATIVE, natives=("sessionEnd",)),
        },
        context=CONTEXT,
        notes=("project hooks run only in trusted workspaces",
               "in -p (print) mode Cursor has been seen not to fire beforeSubmitPrompt or stop"),
    )
    fast_entry = {"reply": "cursor", "tweak": "workspace_roots"}
    fields = {"session_id": ("session_id", "conversation_id"),
              "cwd": ("cwd",), "version": ("cursor_version",),
              "error": ("error_message", "error")}
    failure_events = frozenset({"postToolUseFailure"})
    project_env = ("CURSOR_PROJECT_DIR", "CLAUDE_PROJECT_DIR")
    read_by = ("grok",)

    def empty_answer(self, native: str) -> str:
        return "{}"  # a permission hook that prints no JSON object blocks in Cursor

    def targets(self, scope: str, home: Path, project: Path | None,
                plugin: PluginHooks) -> list[Target]:
        base = home if scope == "user" else need_project(project, self.name)
        return [Target(path=base / ".cursor" / "hooks.json")]

    def entry(self, native: str, event: str, ctx: InstallContext) -> dict[str, Any]:
        return {"command": ctx.command(self.name, native, answer=self.empty_answer(native)),
                "timeout": round(ctx.timeout(event))}

    def normalise(self, native: str, payload: Any) -> dict[str, Any]:
        out = super().normalise(native, payload)
        roots = payload.get("workspace_roots")
        if isinstance(roots, list) and roots:
            out["project_dir"] = roots[0]
            if out["cwd"] is None:
                out["cwd"] = roots[0]
        return out

    def respond(self, native: str, contexts: Sequence[Context]) -> bytes:
        body: dict[str, Any] = {}
        if contexts and native in CONTEXT:
            body["additional_context"] = "\n\n".join(c.text for c in contexts)
        return json.dumps(body).encode() + b"\n"
