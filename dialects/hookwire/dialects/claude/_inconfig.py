"""Reading the Claude Code handlers that run in process: ``prompt``, ``agent`` and ``mcp_tool``.

They are not processes: a ``prompt`` or ``agent`` hook asks the host's model, an ``mcp_tool``
hook calls a tool on one of the host's MCP servers (see :mod:`hookwire.hostparts`). Their
entries carry the prompt (or ``server:tool`` and its input) as the command, which is what
``hookwire check``, the trust records and Claude Code's de-duplication see. Which events take
which types is Claude Code's (its hooks reference, handler types per event).
"""

from __future__ import annotations

import json
from typing import Any, Literal

import attrs

#: Events that take ``prompt`` and ``agent`` handlers (the others take command, http and
#: mcp_tool only, and SessionStart command and mcp_tool).
MODEL_EVENTS = frozenset({
    "PermissionDenied", "PermissionRequest", "PostToolBatch", "PostToolUse",
    "PostToolUseFailure", "PreToolUse", "Stop", "SubagentStop", "TaskCompleted", "TaskCreated",
    "TeammateIdle", "UserPromptExpansion", "UserPromptSubmit"})
#: Events that take no ``mcp_tool`` handler.
NO_MCP_EVENTS = frozenset({"Setup"})


@attrs.frozen(kw_only=True)
class PromptHandler:
    """A ``type: "prompt"`` or ``type: "agent"`` handler, as written (``if`` renamed)."""

    type: Literal["prompt", "agent"]
    prompt: str
    model: str | None = None
    continueOnBlock: bool = False
    timeout: float | None = None
    onFailure: Literal["continue", "block"] = "continue"
    if_: str | None = None
    statusMessage: str | None = None
    once: bool | None = None


PROMPT_FIELDS = {"type", "prompt", "model", "continueOnBlock", "timeout", "onFailure", "if",
                 "statusMessage", "once"}


@attrs.frozen(kw_only=True)
class McpToolHandler:
    """A ``type: "mcp_tool"`` handler: ``tool`` on the connected MCP ``server``, with
    ``input`` (its strings may name ``${path}``s of the hook input)."""

    type: Literal["mcp_tool"]
    server: str
    tool: str
    input: dict[str, Any] | None = None
    timeout: float | None = None
    onFailure: Literal["continue", "block"] = "continue"
    if_: str | None = None
    statusMessage: str | None = None
    once: bool | None = None


MCP_FIELDS = {"type", "server", "tool", "input", "timeout", "onFailure", "if",
              "statusMessage", "once"}


def command_of(h: PromptHandler | McpToolHandler) -> str:
    """What the entry shows as its command: the prompt, or ``server:tool`` and its input."""
    if isinstance(h, PromptHandler):
        return h.prompt
    args = f" {json.dumps(h.input, sort_keys=True, ensure_ascii=False)}" if h.input else ""
    return f"{h.server}:{h.tool}{args}"


def refused(h: PromptHandler | McpToolHandler, event: str) -> str | None:
    """Why Claude Code does not take this handler on ``event`` (``None``: it does)."""
    if isinstance(h, PromptHandler) and event not in MODEL_EVENTS:
        return (f"{event} does not accept {h.type} handlers (as in Claude Code: only command, "
                "http and mcp_tool): skipped")
    if isinstance(h, McpToolHandler) and event in NO_MCP_EVENTS:
        return f"{event} does not accept mcp_tool handlers (as in Claude Code): skipped"
    return None


def fields(h: PromptHandler | McpToolHandler) -> dict[str, Any]:
    """The :class:`~.handler.ClaudeHandler` fields of ``h`` besides the common ones."""
    if isinstance(h, PromptHandler):
        return {"type": h.type, "model": h.model, "continueOnBlock": h.continueOnBlock}
    return {"type": "mcp_tool", "server": h.server, "tool": h.tool, "input": dict(h.input or {})}
