"""hookwire for LangChain v1: an ``AgentMiddleware`` that runs hooks at the agent's seams.

``from hookwire.plugins.langchain import HookwireMiddleware`` needs
``pip install 'hookwire[langchain]'``; the host profile (:mod:`.profile`) does not.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from hookwire.driver import PromptBlocked, RunHalted, ToolBatchBlocked

__all__ = ["HookwireMiddleware", "PromptBlocked", "RunHalted", "ToolBatchBlocked"]


def __getattr__(name: str) -> Any:
    # lazily: every Kernel() imports this package (the host profile's entry point is in it)
    if name in ("PromptBlocked", "RunHalted", "ToolBatchBlocked"):
        from hookwire import driver

        return getattr(driver, name)
    if name == "HookwireMiddleware":
        from hookwire.plugins.langchain.middleware import HookwireMiddleware

        return HookwireMiddleware
    raise AttributeError(name)
