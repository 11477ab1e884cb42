"""The OpenAI Agents SDK host profile, declared through the ``hookwire.plugins`` entry point.

Importable without the SDK: ``hookwire check --host openai-agents`` works before the extra is
installed.
"""

from __future__ import annotations

from hookwire.events import Seam
from hookwire.hosts import HostProfile
from hookwire.plugins import hosts

PROFILE = HostProfile(
    name="openai-agents",
    description="OpenAI Agents SDK runs through the hookwire runner "
                "(hookwire.plugins.openai_agents.Hookwire)",
    seams=frozenset({Seam.SESSION_START, Seam.PROMPT_SUBMIT, Seam.TOOL_PRE, Seam.APPROVE,
                     Seam.TOOL_POST, Seam.TOOL_FAILURE, Seam.TOOL_BATCH, Seam.STOP,
                     Seam.STOP_FAILURE, Seam.SESSION_END}),
    missing={
        Seam.SUBAGENT_START: "the Agents SDK has no sub-agent lifecycle: a handoff switches "
                             "the running agent and an agent used as a tool is a tool call",
        Seam.SUBAGENT_STOP: "the Agents SDK has no sub-agent lifecycle: a handoff switches "
                            "the running agent and an agent used as a tool is a tool call",
        Seam.PRE_COMPACT: "the Agents SDK compacts only inside a server-side session "
                          "(OpenAIResponsesCompactionSession) with no event a hook can see",
        Seam.POST_COMPACT: "the Agents SDK compacts only inside a server-side session "
                           "(OpenAIResponsesCompactionSession) with no event a hook can see",
        Seam.NOTIFICATION: "the Agents SDK has no user-notification channel",
    },
)


#: The plugin object behind the entry point.
plugin = hosts(PROFILE)
