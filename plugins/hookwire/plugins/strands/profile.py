"""The Strands Agents host profile, declared through the ``hookwire.plugins`` entry point.

Importable without Strands: ``hookwire check --host strands`` works before the extra is
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
    name="strands",
    description="Strands Agents with the hookwire hook provider "
                "(hookwire.plugins.strands.HookwireHooks)",
    seams="session_start prompt_submit tool_pre approve tool_post tool_failure tool_batch stop "
          "stop_failure subagent_start subagent_stop session_end",
    lends="model",  # to prompt and agent hooks
    missing={
        "pre_compact": "Strands' conversation managers trim history without an event",
        "post_compact": "Strands' conversation managers trim history without an event",
        "notification": "Strands has no user-notification channel",
    },
)
