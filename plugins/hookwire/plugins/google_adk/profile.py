"""The Google ADK host profile, declared through the ``hookwire.plugins`` entry point.

Importable without Google ADK: ``hookwire check --host google-adk`` works before the extra is
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
    lends="model",  # to prompt and agent hooks
    name="google-adk",
    description="Google ADK runners with the hookwire plugin "
                "(hookwire.plugins.google_adk.HookwirePlugin)",
    seams="session_start prompt_submit tool_pre approve tool_post tool_failure tool_batch stop "
          "stop_failure subagent_start subagent_stop session_end",
    missing={
        "pre_compact": "ADK compacts events with no plugin callback around it",
        "post_compact": "ADK compacts events with no plugin callback around it",
        "notification": "ADK has no user-notification channel",
    },
)
