"""The pydantic-ai host profile, declared through the ``hookwire.plugins`` entry point.

Importable without pydantic-ai: ``hookwire check --host pydantic-ai`` works before the extra is
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
    name="pydantic-ai",
    description="pydantic-ai agents with the hookwire capability "
                "(hookwire.plugins.pydantic_ai.Hookwire)",
    seams="session_start prompt_submit tool_pre approve tool_post tool_failure tool_batch stop "
          "stop_failure subagent_start subagent_stop session_end",
    missing={
        "pre_compact": "pydantic-ai never compacts on its own; history processors are "
                       "user code with no compaction event",
        "post_compact": "pydantic-ai never compacts on its own; history processors are "
                        "user code with no compaction event",
        "notification": "pydantic-ai has no user-notification channel",
    },
)
