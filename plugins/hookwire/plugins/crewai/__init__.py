"""hookwire for CrewAI: interception hooks that guard every agent and crew of the process.

``from hookwire.plugins.crewai import HookwireHooks`` needs ``pip install 'hookwire[crewai]'``;
the host profile (:mod:`.profile`) does not.
"""

from __future__ import annotations

from hookwire.plugins._lazy import exports

__all__ = ["HookwireHooks", "PromptBlocked", "RunHalted", "ToolBatchBlocked"]
__getattr__ = exports("hookwire.plugins.crewai.hooks", "HookwireHooks")
