"""hookwire for the OpenAI Agents SDK: a runner that runs hooks at the agent loop's seams.

``from hookwire.plugins.openai_agents import Hookwire`` needs
``pip install 'hookwire[openai-agents]'``; the host profile (:mod:`.profile`) does not.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from hookwire.driver import PromptBlocked, RunHalted, ToolBatchBlocked

__all__ = ["Hookwire", "PromptBlocked", "RunHalted", "ToolBatchBlocked"]


def __getattr__(name: str) -> Any:
    # lazily: every Kernel() imports this package (the host profile's entry point is in it)
    if name in ("PromptBlocked", "RunHalted", "ToolBatchBlocked"):
        from hookwire import driver

        return getattr(driver, name)
    if name == "Hookwire":
        from hookwire.plugins.openai_agents import runner

        return getattr(runner, name)
    raise AttributeError(name)
