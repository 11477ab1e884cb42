"""The CrewAI host profile, declared through the ``hookwire.plugins`` entry point.

Importable without CrewAI: ``hookwire check --host crewai`` works before the extra is
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
    name="crewai",
    description="CrewAI agents and crews with hookwire's interception hooks "
                "(hookwire.plugins.crewai.HookwireHooks)",
    seams="session_start prompt_submit tool_pre approve tool_post tool_failure tool_batch stop "
          "stop_failure subagent_start subagent_stop session_end",
    lends="model",  # to prompt hooks, and agent hooks when the LLM calls functions
    missing={
        "pre_compact": "CrewAI summarises a long context inside its executor, with no hook",
        "post_compact": "CrewAI summarises a long context inside its executor, with no hook",
        "notification": "CrewAI has no user-notification channel",
    },
)
