"""The LangChain host profile, declared through the ``hookwire.plugins`` entry point.

Importable without LangChain: ``hookwire check --host langchain`` works before the extra is
installed.

The profile is built on first use (``PROFILE``, the entry point's ``register_hosts``), not by
every ``Kernel()`` that loads this entry point.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from hookwire.hosts import declare_host

if TYPE_CHECKING:
    from hookwire.hosts import HostProfile

    PROFILE: HostProfile

#: The plugin object behind the entry point; ``PROFILE`` is the profile itself.
plugin, __getattr__ = declare_host(
    lends="model",  # to prompt, agent (model) and mcp_tool (mcp) hooks
    name="langchain",
    description="LangChain v1 agents (create_agent) with the hookwire middleware "
                "(hookwire.plugins.langchain.HookwireMiddleware)",
    seams="session_start prompt_submit tool_pre approve tool_post tool_failure tool_batch stop "
          "stop_failure subagent_start subagent_stop session_end",
    missing={
        "pre_compact": "SummarizationMiddleware compacts inside its own before_model hook "
                       "and exposes no event another middleware can see",
        "post_compact": "SummarizationMiddleware compacts inside its own before_model hook "
                        "and exposes no event another middleware can see",
        "notification": "LangChain agents have no user-notification channel",
    },
)
