"""hookwire for pydantic-ai: a capability that runs hooks at the agent's seams.

``from hookwire.plugins.pydantic_ai import Hookwire`` needs ``pip install 'hookwire[pydantic-ai]'``;
the host profile (:mod:`.profile`) does not.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from hookwire.plugins._adapters import PromptBlocked, RunHalted

__all__ = ["Hookwire", "PromptBlocked", "RunHalted", "ToolBatchBlocked"]


def __getattr__(name: str) -> Any:
    # lazily: every Kernel() imports this package (the host profile's entry point is in it)
    if name in ("PromptBlocked", "RunHalted"):
        from hookwire.plugins import _adapters

        return getattr(_adapters, name)
    if name == "Hookwire":
        from hookwire.plugins.pydantic_ai.capability import Hookwire

        return Hookwire
    if name == "ToolBatchBlocked":
        from hookwire.plugins.pydantic_ai.capability import ToolBatchBlocked

        return ToolBatchBlocked
    raise AttributeError(name)
