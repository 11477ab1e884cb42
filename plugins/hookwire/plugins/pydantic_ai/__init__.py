"""hookwire for pydantic-ai: a capability that runs hooks at the agent's seams.

``from hookwire.plugins.pydantic_ai import Hookwire`` needs ``pip install 'hookwire[pydantic-ai]'``;
the host profile (:mod:`.profile`) does not.
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
        from hookwire.plugins.pydantic_ai.capability import Hookwire

        return Hookwire
    raise AttributeError(name)
