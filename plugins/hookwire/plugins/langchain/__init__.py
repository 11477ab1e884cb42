"""hookwire for LangChain v1: an ``AgentMiddleware`` that runs hooks at the agent's seams.

``from hookwire.plugins.langchain import HookwireMiddleware`` needs
``pip install 'hookwire[langchain]'``; the host profile (:mod:`.profile`) does not.
"""

from __future__ import annotations

from typing import Any

from hookwire.plugins._adapters import PromptBlocked, RunHalted

__all__ = ["HookwireMiddleware", "PromptBlocked", "RunHalted"]


def __getattr__(name: str) -> Any:
    if name == "HookwireMiddleware":
        from hookwire.plugins.langchain.middleware import HookwireMiddleware

        return HookwireMiddleware
    raise AttributeError(name)
