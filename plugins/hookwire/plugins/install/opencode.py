"""OpenCode: the generic TypeScript bridge (``bridge.py``), one ``hookwire-bridge.ts`` in
``~/.config/opencode/plugins/`` (global) or ``.opencode/plugins/`` (project) for every portable
plugin installed. OpenCode loads that directory by itself, so ``opencode.json`` is not touched
(listing it there too would load it twice).

OpenCode plugins add context only through its SDK, so context results are dropped.
``session.deleted`` means the user deleted the session, not that OpenCode exited: session-end
is best effort (``opencode run`` fires none). ``session.created`` comes on the event bus,
unawaited, while ``chat.message`` is a hook, so the two race: the bridge fires session-start
once per session, on whichever comes first, and ``chat.message`` waits for it.
"""

from __future__ import annotations

from pathlib import Path

from hookwire.plugins.install._base import need_project
from hookwire.plugins.install.bridge import BridgeClient
from hookwire.plugins.install.capability import NATIVE, PARTIAL, Capabilities, Support

OPENCODE_EVENTS = {
    "session-start": Support(level=NATIVE, natives=("session.created",),
                             note="once per session, before its first chat.message (the "
                                  "bridge fires it there when session.created has not come)"),
    "turn-start": Support(level=NATIVE, natives=("chat.message",)),
    "pre-tool-use": Support(level=NATIVE, natives=("tool.execute.before",)),
    "post-tool-use": Support(level=PARTIAL, natives=("tool.execute.after",),
                             note="a call another plugin blocked (throw) gets none"),
    "turn-end": Support(level=NATIVE, natives=("session.idle",)),
    "session-end": Support(level=PARTIAL, natives=("session.deleted",),
                           note="fires when a session is deleted, not on exit"),
}


class OpenCode(BridgeClient):
    name = "opencode"
    display = "OpenCode"
    capabilities = Capabilities(
        events=OPENCODE_EVENTS,
        notes=("one bridge plugin (hookwire-bridge.ts) serves every installed portable plugin",
               "context results are dropped: OpenCode plugins add context only through its "
               "SDK"),
    )

    def folder(self, scope: str, home: Path, project: Path | None) -> Path:
        if scope == "user":
            return home / ".config" / "opencode" / "plugins"
        return need_project(project, self.name) / ".opencode" / "plugins"
