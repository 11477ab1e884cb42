"""Kiro (CLI v3 / IDE 1.x hook files): a dedicated ``.kiro/hooks/hookwire-<plugin>.json``
(project) or ``~/.kiro/hooks/hookwire-<plugin>.json`` (user), shaped
``{"version": "v1", "hooks": [{name, trigger, matcher, action: {type: "command", command},
timeout (s), enabled}]}`` (kiro.dev/docs/cli/v3/hooks).

Triggers used: AgentSpawn (session start), UserPromptSubmit, PreToolUse, PostToolUse and Stop;
Kiro has no session end. Its payload (``hook_event_name``, ``cwd``, ``tool_name``,
``tool_input``, ``tool_response``, ``prompt``) carries no session id. Stdout of AgentSpawn and
UserPromptSubmit becomes context, so context results are printed there as plain text.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from hookwire.dialects.portable.config import PluginHooks
from hookwire.plugins.install._base import Built, Client, InstallContext, Target, need_project
from hookwire.plugins.install.capability import (
    NATIVE,
    PARTIAL,
    UNSUPPORTED,
    Capabilities,
    Support,
)
from hookwire.plugins.install.errors import InstallError
from hookwire.verdicts import Context

CONTEXT = frozenset({"AgentSpawn", "UserPromptSubmit"})
TOOL_EVENTS = frozenset({"PreToolUse", "PostToolUse"})
MARK = "hookwire-portable:"


class Kiro(Client):
    name = "kiro"
    display = "Kiro"
    capabilities = Capabilities(
        events={
            "session-start": Support(level=PARTIAL, natives=("AgentSpawn",),
                                     note="when the agent starts; no session id in payloads"),
            "turn-start": Support(level=NATIVE, natives=("UserPromptSubmit",)),
            "pre-tool-use": Support(level=NATIVE, natives=("PreToolUse",)),
            "post-tool-use": Support(level=NATIVE, natives=("PostToolUse",)),
            "turn-end": Support(level=NATIVE, natives=("Stop",)),
            "session-end": Support(level=UNSUPPORTED, note="Kiro has no session end event"),
        },
        context=CONTEXT,
        notes=("Kiro payloads carry no session id: session_id is 'unknown'",
               "the v3 hook-file format (older Kiro CLIs read hooks from agent configs)"),
    )

    fast_entry = {"reply": "text"}

    def targets(self, scope: str, home: Path, project: Path | None,
                plugin: PluginHooks) -> list[Target]:
        base = home if scope == "user" else need_project(project, self.name)
        return [Target(path=base / ".kiro" / "hooks" / f"hookwire-{plugin.name}.json",
                       kind="file")]

    def build(self, target: Target, before: bytes | None, ctx: InstallContext) -> Built:
        marker = f"{MARK}{ctx.root}"
        if before is not None and marker.encode() not in before:
            raise InstallError(f"{target.path} exists and was not written by hookwire for "
                               f"{ctx.root}; not overwriting it")
        wanted = self.wanted(ctx.plugin)
        hooks = []
        for native, event in wanted.items():
            hook: dict[str, Any] = {
                "name": f"hookwire-{ctx.plugin.name}-{native}", "trigger": native,
                "action": {"type": "command", "command": ctx.command(self.name, native)},
                "timeout": round(ctx.timeout(event, cap=600)), "enabled": True}
            if native in TOOL_EVENTS:
                hook["matcher"] = ".*"
            hooks.append(hook)
        doc = {"version": "v1", "description": marker, "hooks": hooks}
        after = (json.dumps(doc, indent=2) + "\n").encode("utf-8")
        return Built(after=after, natives=tuple(wanted))

    def unbuild(self, target: Target, current: bytes, root: str, created_keys: Sequence[str],
                created_file: bool) -> bytes | None:
        return None if f"{MARK}{root}".encode() in current else current

    def respond(self, native: str, contexts: Sequence[Context]) -> bytes:
        if not contexts or native not in CONTEXT:
            return b""
        return ("\n\n".join(c.text for c in contexts) + "\n").encode("utf-8")
