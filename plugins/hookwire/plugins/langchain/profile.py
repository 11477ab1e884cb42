"""The LangChain host profile, declared through the ``hookwire.plugins`` entry point.

Importable without LangChain: ``hookwire check --host langchain`` works before the extra is
installed.
"""

from __future__ import annotations

from hookwire.events import Seam
from hookwire.hosts import HostProfile
from hookwire.plugins import hosts

PROFILE = HostProfile(
    name="langchain",
    description="LangChain v1 agents (create_agent) with the hookwire middleware "
                "(hookwire.plugins.langchain.HookwireMiddleware)",
    seams=frozenset({Seam.SESSION_START, Seam.PROMPT_SUBMIT, Seam.TOOL_PRE, Seam.APPROVE,
                     Seam.TOOL_POST, Seam.TOOL_FAILURE, Seam.TOOL_BATCH, Seam.STOP,
                     Seam.STOP_FAILURE, Seam.SESSION_END}),
    missing={
        Seam.SUBAGENT_START: "create_agent has no sub-agent lifecycle: an agent called from a "
                             "tool is an ordinary tool call",
        Seam.SUBAGENT_STOP: "create_agent has no sub-agent lifecycle: an agent called from a "
                            "tool is an ordinary tool call",
        Seam.PRE_COMPACT: "SummarizationMiddleware compacts inside its own before_model hook "
                          "and exposes no event another middleware can see",
        Seam.POST_COMPACT: "SummarizationMiddleware compacts inside its own before_model hook "
                           "and exposes no event another middleware can see",
        Seam.NOTIFICATION: "LangChain agents have no user-notification channel",
    },
)


#: The plugin object behind the entry point.
plugin = hosts(PROFILE)
