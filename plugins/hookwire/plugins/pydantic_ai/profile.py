"""The pydantic-ai host profile, declared through the ``hookwire.plugins`` entry point.

Importable without pydantic-ai: ``hookwire check --host pydantic-ai`` works before the extra is
installed.
"""

from __future__ import annotations

from hookwire.events import Seam
from hookwire.hosts import HostProfile
from hookwire.plugins import hosts

PROFILE = HostProfile(
    name="pydantic-ai",
    description="pydantic-ai agents with the hookwire capability "
                "(hookwire.plugins.pydantic_ai.Hookwire)",
    seams=frozenset({Seam.SESSION_START, Seam.PROMPT_SUBMIT, Seam.TOOL_PRE, Seam.APPROVE,
                     Seam.TOOL_POST, Seam.TOOL_FAILURE, Seam.TOOL_BATCH, Seam.STOP,
                     Seam.STOP_FAILURE, Seam.SESSION_END}),
    missing={
        Seam.SUBAGENT_START: "pydantic-ai has no sub-agent lifecycle: an agent called from a "
                             "tool is an ordinary tool call",
        Seam.SUBAGENT_STOP: "pydantic-ai has no sub-agent lifecycle: an agent called from a "
                            "tool is an ordinary tool call",
        Seam.PRE_COMPACT: "pydantic-ai never compacts on its own; history processors are "
                          "user code with no compaction event",
        Seam.POST_COMPACT: "pydantic-ai never compacts on its own; history processors are "
                           "user code with no compaction event",
        Seam.NOTIFICATION: "pydantic-ai has no user-notification channel",
    },
)


#: The plugin object behind the entry point.
plugin = hosts(PROFILE)
