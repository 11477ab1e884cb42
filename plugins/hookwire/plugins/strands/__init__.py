"""hookwire for Strands Agents: a hook provider that runs hooks at the agent's seams.

``from hookwire.plugins.strands import HookwireHooks`` needs ``pip install 'hookwire[strands]'``;
the host profile (:mod:`.profile`) does not.
"""

from __future__ import annotations

from hookwire.plugins._lazy import exports

__all__ = ["HookwireHooks", "PromptBlocked", "RunHalted", "ToolBatchBlocked"]
__getattr__ = exports("hookwire.plugins.strands.hooks", "HookwireHooks")
