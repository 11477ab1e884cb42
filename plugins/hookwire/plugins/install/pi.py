"""Pi (``pi`` coding agent): the TypeScript bridge as a Pi extension (``pi.on(...)``), in
``~/.pi/agent/extensions/`` (global) or ``.pi/extensions/`` (project; loaded once the project
is trusted). Events (pi.dev/docs/latest/extensions): ``session_start``, ``before_agent_start``
(turn start), ``tool_call``, ``tool_result``, ``agent_end`` (the end of the user's turn;
``turn_end`` fires per model turn) and ``session_shutdown`` (process exit).
"""

from __future__ import annotations

from pathlib import Path

from hookwire.plugins.install._base import need_project
from hookwire.plugins.install.bridge import BridgeClient
from hookwire.plugins.install.capability import NATIVE, PARTIAL, Capabilities, Support


class Pi(BridgeClient):
    name = "pi"
    display = "Pi"
    flavour = "pi"
    capabilities = Capabilities(
        events={
            "session-start": Support(level=NATIVE, natives=("session_start",)),
            "turn-start": Support(level=NATIVE, natives=("before_agent_start",)),
            "pre-tool-use": Support(level=NATIVE, natives=("tool_call",)),
            "post-tool-use": Support(level=NATIVE, natives=("tool_result",)),
            "turn-end": Support(level=NATIVE, natives=("agent_end",)),
            "session-end": Support(level=PARTIAL, natives=("session_shutdown",),
                                   note="on process exit"),
        },
        notes=("one bridge extension (hookwire-bridge.ts) serves every installed portable "
               "plugin", "context results are dropped"),
    )

    def folder(self, scope: str, home: Path, project: Path | None) -> Path:
        if scope == "user":
            return home / ".pi" / "agent" / "extensions"
        return need_project(project, self.name) / ".pi" / "extensions"
