"""hookwire for LlamaIndex: agent workflows run with hooks at their seams.

``from hookwire.plugins.llama_index import Hookwire`` needs ``pip install 'hookwire[llama-index]'``;
the host profile (:mod:`.profile`) does not.
"""

from __future__ import annotations

from typing import Any

__all__ = ["Hookwire", "PromptBlocked", "RunHalted", "ToolBatchBlocked"]


def __getattr__(name: str) -> Any:
    # lazily: every Kernel() imports this package (the host profile's entry point is in it)
    if name in ("PromptBlocked", "RunHalted", "ToolBatchBlocked"):
        from hookwire import driver

        return getattr(driver, name)
    if name == "Hookwire":
        from hookwire.plugins.llama_index.agent import Hookwire

        return Hookwire
    raise AttributeError(name)
