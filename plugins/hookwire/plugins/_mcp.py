"""MCP client sessions lent to hookwire's ``mcp_tool`` hooks (:class:`hookwire.hostparts.HostMcp`),
for any runtime whose MCP servers answer ``call_tool(name, arguments)`` with an MCP
``CallToolResult``: the ``mcp`` package's ``ClientSession``, the OpenAI Agents SDK's
``MCPServer``. Read by shape, so this module imports no MCP library.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any, TypeVar

from hookwire.errors import HostPartMissing
from hookwire.hostparts import McpResult

T = TypeVar("T")


def result_of(result: Any) -> McpResult:
    """An MCP ``CallToolResult`` (either spelling of its fields) as an :class:`McpResult`:
    its text contents joined with newlines."""
    parts = getattr(result, "content", None) or []
    text = "\n".join(str(getattr(p, "text", "")) for p in parts
                     if getattr(p, "type", "text") == "text")
    # MCP SDK 2 spells the fields in snake case (the camel-case ones warn); 1 in camel case
    v2 = hasattr(result, "is_error")
    error = getattr(result, "is_error" if v2 else "isError", False)
    structured = getattr(result, "structured_content" if v2 else "structuredContent", None)
    if not text and structured is not None:
        text = json.dumps(structured, ensure_ascii=False)
    return McpResult(text=text, is_error=bool(error), structured=structured)


async def on_loop(loop: Any, fn: Callable[[], Awaitable[T]]) -> T:
    """``await fn()`` on the asyncio event ``loop`` that owns what it uses (an MCP session's
    streams, a model client's connections), when the caller runs on another one: a runtime
    whose callbacks hookwire drives from its helper thread. ``loop`` ``None``: here."""
    import asyncio

    if loop is None or loop is asyncio.get_running_loop() or loop.is_closed():
        return await fn()

    async def call() -> T:
        return await fn()

    return await asyncio.wrap_future(asyncio.run_coroutine_threadsafe(call(), loop))


def running_loop() -> Any:
    """The asyncio loop running here, if one is (what :func:`on_loop` is given)."""
    import asyncio

    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None


class McpSessions:
    """Connected MCP sessions by server name, as the host's configuration names them.
    ``sessions`` is a mapping, or a function giving one (read at each call: servers connect
    and disconnect as the runtime runs). ``loop``: the asyncio loop the sessions live on, when
    hooks run on another (see :func:`on_loop`)."""

    def __init__(self, sessions: Mapping[str, Any] | Callable[[], Mapping[str, Any]], *,
                 loop: Any = None) -> None:
        self._sessions = sessions
        self.loop = loop

    def _now(self) -> Mapping[str, Any]:
        return self._sessions() if callable(self._sessions) else self._sessions

    def servers(self) -> Sequence[str]:
        return list(self._now())

    async def call_tool(self, server: str, tool: str,
                        arguments: Mapping[str, Any]) -> McpResult:
        session = self._now().get(server)
        if session is None:
            raise HostPartMissing(f"MCP server {server!r} is not connected")
        return result_of(await on_loop(self.loop, lambda: session.call_tool(tool,
                                                                             dict(arguments))))
