"""A pydantic-ai agent's MCP toolsets lent to hookwire's ``mcp_tool`` hooks
(:class:`hookwire.hostparts.HostMcp`): each ``MCPToolset`` with an ``id`` is the server of that
name, connected while it runs (during the agent's run); a tool error is a result marked as an
error, as the MCP server said it."""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from pydantic_ai.exceptions import ModelRetry, ToolFailed

from hookwire.errors import HostPartMissing
from hookwire.hostparts import McpResult


class PydanticAIMcp:
    """The MCP toolsets of ``agent`` (found through prefixing, renaming and other wrappers)."""

    def __init__(self, agent: Any) -> None:
        self.agent = agent

    def _toolsets(self) -> dict[str, Any]:
        return {ts.id: ts for ts in _mcp_toolsets(getattr(self.agent, "toolsets", ()))
                if ts.id and getattr(ts, "is_running", False)}

    def servers(self) -> Sequence[str]:
        return list(self._toolsets())

    async def call_tool(self, server: str, tool: str,
                        arguments: Mapping[str, Any]) -> McpResult:
        toolset = self._toolsets().get(server)
        if toolset is None:
            raise HostPartMissing(f"MCP server {server!r} is not connected")
        try:
            value = await toolset.direct_call_tool(tool, dict(arguments))
        except (ModelRetry, ToolFailed) as exc:  # the server's error result
            return McpResult(text=str(exc), is_error=True)
        if isinstance(value, str):
            return McpResult(text=value)
        return McpResult(text=json.dumps(value, ensure_ascii=False, default=str),
                         structured=value)


def _mcp_toolsets(toolsets: Any) -> Iterator[Any]:
    for toolset in toolsets or ():
        for _ in range(32):  # wrappers of wrappers, but never a cycle
            if is_mcp(toolset):
                yield toolset
                break
            inner = getattr(toolset, "toolsets", None)
            if isinstance(inner, list | tuple):  # a combined toolset
                yield from _mcp_toolsets(inner)
                break
            toolset = getattr(toolset, "wrapped", None)
            if toolset is None:
                break


def is_mcp(toolset: Any) -> bool:
    """An MCP toolset of pydantic-ai (``pydantic_ai.mcp`` needs the ``mcp`` extra: not
    imported here, recognised by its class)."""
    return any(c.__name__ == "MCPToolset" and c.__module__.startswith("pydantic_ai.mcp")
               for c in type(toolset).__mro__)
