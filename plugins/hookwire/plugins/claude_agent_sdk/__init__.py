"""hookwire for the Claude Agent SDK: hookwire's hooks as the SDK's in-process hook callbacks.

``from hookwire.plugins.claude_agent_sdk import HookwireHooks`` needs
``pip install 'hookwire[claude-agent-sdk]'``; the host profile (:mod:`.profile`) does not.
"""

from __future__ import annotations

from hookwire.plugins._lazy import exports

__all__ = ["HookwireHooks", "PromptBlocked", "RunHalted", "ToolBatchBlocked"]
__getattr__ = exports("hookwire.plugins.claude_agent_sdk.hooks", "HookwireHooks")
