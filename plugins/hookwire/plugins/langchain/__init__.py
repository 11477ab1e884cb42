"""hookwire for LangChain v1: an ``AgentMiddleware`` that runs hooks at the agent's seams.

``from hookwire.plugins.langchain import HookwireMiddleware`` needs
``pip install 'hookwire[langchain]'``; the host profile (:mod:`.profile`) does not.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from hookwire.plugins._lazy import exports

if TYPE_CHECKING:
    from hookwire.driver import PromptBlocked, RunHalted, ToolBatchBlocked

__all__ = ["HookwireMiddleware", "PromptBlocked", "RunHalted", "ToolBatchBlocked"]
__getattr__ = exports("hookwire.plugins.langchain.middleware", "HookwireMiddleware")
