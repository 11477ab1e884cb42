"""hookwire for pydantic-ai: a capability that runs hooks at the agent's seams.

``from hookwire.plugins.pydantic_ai import Hookwire`` needs ``pip install 'hookwire[pydantic-ai]'``;
the host profile (:mod:`.profile`) does not.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from hookwire.plugins._lazy import exports

if TYPE_CHECKING:
    from hookwire.driver import PromptBlocked, RunHalted, ToolBatchBlocked

__all__ = ["Hookwire", "PromptBlocked", "RunHalted", "ToolBatchBlocked"]
__getattr__ = exports("hookwire.plugins.pydantic_ai.capability", "Hookwire")
