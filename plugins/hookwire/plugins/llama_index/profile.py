"""The LlamaIndex host profile, declared through the ``hookwire.plugins`` entry point.

Importable without LlamaIndex: ``hookwire check --host llama-index`` works before the extra is
installed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from hookwire.hosts import declare_host

if TYPE_CHECKING:
    from hookwire.hosts import HostProfile

    PROFILE: HostProfile

#: The plugin object behind the entry point; ``PROFILE`` is the profile itself.
plugin, __getattr__ = declare_host(
    name="llama-index",
    description="LlamaIndex agent workflows run through hookwire "
                "(hookwire.plugins.llama_index.Hookwire)",
    seams="session_start prompt_submit tool_pre approve tool_post tool_failure tool_batch stop "
          "subagent_start subagent_stop session_end",
    lends="model",  # to prompt and agent hooks (a function-calling LLM)
    missing={
        "stop_failure": "an agent workflow's failed model call and a failed step look alike "
                        "from outside the workflow",
        "pre_compact": "LlamaIndex memory trims or summarises history with no event",
        "post_compact": "LlamaIndex memory trims or summarises history with no event",
        "notification": "LlamaIndex has no user-notification channel",
    },
)
