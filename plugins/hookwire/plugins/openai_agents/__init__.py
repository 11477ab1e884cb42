"""hookwire for the OpenAI Agents SDK: a runner that runs hooks at the agent loop's seams.

``from hookwire.plugins.openai_agents import Hookwire`` needs
``pip install 'hookwire[openai-agents]'``; the host profile (:mod:`.profile`) does not.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from hookwire.plugins._lazy import exports

if TYPE_CHECKING:
    from hookwire.driver import PromptBlocked, RunHalted, ToolBatchBlocked

__all__ = ["Hookwire", "PromptBlocked", "RunHalted", "ToolBatchBlocked"]
__getattr__ = exports("hookwire.plugins.openai_agents.runner", "Hookwire")
