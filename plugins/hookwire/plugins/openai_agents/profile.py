"""The OpenAI Agents SDK host profile, declared through the ``hookwire.plugins`` entry point.

Importable without the SDK: ``hookwire check --host openai-agents`` works before the extra is
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
    lends="model mcp",  # to prompt, agent (model) and mcp_tool (mcp) hooks
    name="openai-agents",
    description="OpenAI Agents SDK runs through the hookwire runner "
                "(hookwire.plugins.openai_agents.Hookwire)",
    seams="session_start prompt_submit tool_pre approve tool_post tool_failure tool_batch stop "
          "stop_failure subagent_start subagent_stop session_end",
    missing={
        "pre_compact": "the Agents SDK compacts only inside a server-side session "
                       "(OpenAIResponsesCompactionSession) with no event a hook can see",
        "post_compact": "the Agents SDK compacts only inside a server-side session "
                        "(OpenAIResponsesCompactionSession) with no event a hook can see",
        "notification": "the Agents SDK has no user-notification channel",
    },
)
