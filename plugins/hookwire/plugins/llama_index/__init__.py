"""hookwire for LlamaIndex: agent workflows run with hooks at their seams.

``from hookwire.plugins.llama_index import Hookwire`` needs ``pip install 'hookwire[llama-index]'``;
the host profile (:mod:`.profile`) does not.
"""

from __future__ import annotations

from hookwire.plugins._lazy import exports

__all__ = ["Hookwire", "PromptBlocked", "RunHalted", "ToolBatchBlocked"]
__getattr__ = exports("hookwire.plugins.llama_index.agent", "Hookwire")
