"""The Claude Agent SDK host profile, declared through the ``hookwire.plugins`` entry point.

Importable without the Claude Agent SDK: ``hookwire check --host claude-agent-sdk`` works
before the extra is installed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from hookwire.hosts import declare_host

if TYPE_CHECKING:
    from hookwire.hosts import HostProfile

    PROFILE: HostProfile

#: The plugin object behind the entry point; ``PROFILE`` is the profile itself.
plugin, __getattr__ = declare_host(
    name="claude-agent-sdk",
    description="the Claude Agent SDK (the Claude Code CLI) with hookwire's hook callbacks "
                "(hookwire.plugins.claude_agent_sdk.HookwireHooks)",
    seams="session_start prompt_submit tool_pre tool_post tool_failure stop subagent_start "
          "subagent_stop pre_compact notification session_end",
    missing={
        "approve": "the CLI asks its own permission surface (can_use_tool); hookwire's approve "
                   "seam is not called",
        "tool_batch": "the SDK offers no PostToolBatch callback",
        "stop_failure": "the SDK offers no StopFailure callback",
        "post_compact": "the SDK offers no PostCompact callback",
    },
)
