"""Kilo (an OpenCode fork, ``@kilocode/cli``): the same TypeScript bridge as OpenCode, in
``~/.config/kilo/plugin/`` (global; Kilo's directory is singular) or ``.kilo/plugin/``
(project). Same hooks and limits as OpenCode (kilo.ai/docs/automate/extending/plugins).
"""

from __future__ import annotations

from pathlib import Path

from hookwire.plugins.install._base import env_dir, need_project
from hookwire.plugins.install.bridge import BridgeClient
from hookwire.plugins.install.capability import Capabilities
from hookwire.plugins.install.opencode import OPENCODE_EVENTS


class Kilo(BridgeClient):
    name = "kilo"
    display = "Kilo"
    capabilities = Capabilities(
        events=OPENCODE_EVENTS,
        notes=("one bridge plugin (hookwire-bridge.ts) serves every installed portable plugin",
               "context results are dropped (plugins add context only through the SDK)"),
    )

    def folder(self, scope: str, home: Path, project: Path | None) -> Path:
        if scope == "user":
            return env_dir("XDG_CONFIG_HOME", home, home / ".config") / "kilo" / "plugin"
        return need_project(project, self.name) / ".kilo" / "plugin"
