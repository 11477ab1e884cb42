"""hookwire for the Claude Agent SDK: hookwire's hooks as the SDK's in-process hook callbacks.

``from hookwire.plugins.claude_agent_sdk import HookwireHooks`` needs
``pip install 'hookwire[claude-agent-sdk]'``; the host profile (:mod:`.profile`) does not.
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
        from hookwire.plugins.claude_agent_sdk.hooks import HookwireHooks

        return HookwireHooks
    raise AttributeError(name)
