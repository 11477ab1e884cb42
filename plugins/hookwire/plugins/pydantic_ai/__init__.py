"""hookwire for pydantic-ai: a capability that runs hooks at the agent's seams.

``from hookwire.plugins.pydantic_ai import Hookwire`` needs ``pip install 'hookwire[pydantic-ai]'``;
the host profile (:mod:`.profile`) does not.
"""

from __future__ import annotations

from typing import Any

from hookwire.plugins._adapters import PromptBlocked, RunHalted

__all__ = ["Hookwire", "PromptBlocked", "RunHalted", "ToolBatchBlocked"]


def __getattr__(name: str) -> Any:
    if name == "Hookwire":
        from hookwire.plugins.pydantic_ai.capability import Hookwire

        return Hookwire
    if name == "ToolBatchBlocked":
        from hookwire.plugins.pydantic_ai.capability import ToolBatchBlocked

        return ToolBatchBlocked
    raise AttributeError(name)
