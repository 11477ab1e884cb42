"""hookwire for CrewAI: interception hooks that guard every agent and crew of the process.

``from hookwire.plugins.crewai import HookwireHooks`` needs ``pip install 'hookwire[crewai]'``;
the host profile (:mod:`.profile`) does not.
"""

from __future__ import annotations

from typing import Any

__all__ = ["HookwireHooks", "PromptBlocked", "RunHalted", "ToolBatchBlocked"]


def __getattr__(name: str) -> Any:
    # lazily: every Kernel() imports this package (the host profile's entry point is in it)
    if name in ("PromptBlocked", "RunHalted", "ToolBatchBlocked"):
        from hookwire import driver

        return getattr(driver, name)
    if name == "HookwireHooks":
        from hookwire.plugins.crewai.hooks import HookwireHooks

        return HookwireHooks
    raise AttributeError(name)
