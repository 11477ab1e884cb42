"""hookwire for Google ADK: a runner plugin that runs hooks at every agent's seams.

``from hookwire.plugins.google_adk import HookwirePlugin`` needs
``pip install 'hookwire[google-adk]'``;
the host profile (:mod:`.profile`) does not.
"""

from __future__ import annotations

from hookwire.plugins._lazy import exports

__all__ = ["HookwirePlugin", "PromptBlocked", "RunHalted", "ToolBatchBlocked"]
__getattr__ = exports("hookwire.plugins.google_adk.plugin", "HookwirePlugin")
