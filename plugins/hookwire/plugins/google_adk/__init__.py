"""hookwire for Google ADK: a runner plugin that runs hooks at every agent's seams.

``from hookwire.plugins.google_adk import HookwirePlugin`` needs
``pip install 'hookwire[google-adk]'``;
the host profile (:mod:`.profile`) does not.
"""

from __future__ import annotations

from typing import Any

__all__ = ["HookwirePlugin", "PromptBlocked", "RunHalted", "ToolBatchBlocked"]


def __getattr__(name: str) -> Any:
    # lazily: every Kernel() imports this package (the host profile's entry point is in it)
    if name in ("PromptBlocked", "RunHalted", "ToolBatchBlocked"):
        from hookwire import driver

        return getattr(driver, name)
    if name == "HookwirePlugin":
        from hookwire.plugins.google_adk.plugin import HookwirePlugin

        return HookwirePlugin
    raise AttributeError(name)
