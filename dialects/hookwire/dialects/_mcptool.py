"""What every dialect's ``mcp_tool`` hook does on the host's MCP sessions, whatever its
harness: find the dotted ``${path}`` a placeholder names in the hook input, and call the tool
on a server the host lent (:class:`~hookwire.hostparts.HostMcp`), giving its text result as the
hook's stdout. How placeholders are filled and how the answer is read stay each dialect's.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from hookwire.errors import HostPartMissing
from hookwire.hostparts import HostParts, answered, failed
from hookwire.runner import Outcome

#: A ``${dotted.path}`` placeholder in an ``input`` string.
PLACEHOLDER = re.compile(r"\$\{([A-Za-z0-9_.\-]+)\}")
#: What :func:`lookup` returns for a path that names nothing.
MISSING: Any = object()


def lookup(body: Any, path: str) -> Any:
    """The value at dotted ``path`` of ``body`` (list items by index), else :data:`MISSING`."""
    for key in path.split("."):
        if isinstance(body, Mapping) and key in body:
            body = body[key]
        elif isinstance(body, list) and key.isdigit() and int(key) < len(body):
            body = body[int(key)]
        else:
            return MISSING
    return body


async def call(server: str, tool: str, arguments: Mapping[str, Any],
               parts: HostParts) -> Outcome:
    """Call ``tool`` on the host's ``server`` with ``arguments``: its text is the stdout of an
    exit 0; a server not connected, or a result marked as an error, is an exit 1 naming it;
    no MCP lent raises :class:`~hookwire.errors.HostPartMissing` (the hook did not start)."""
    mcp = parts.mcp
    if mcp is None:
        raise HostPartMissing("no MCP client: the host lends hookwire no MCP session, so an "
                              "mcp_tool hook cannot run (use an adapter that lends its MCP "
                              "sessions, or set kernel.parts = HostParts(mcp=...))")
    if server not in mcp.servers():
        return failed(f"MCP server {server!r} is not connected (connected: "
                      f"{', '.join(mcp.servers()) or 'none'})")
    result = await mcp.call_tool(server, tool, arguments)
    if result.is_error:
        return failed(f"MCP tool {server}:{tool} returned an error: {result.text}")
    return answered(result.text)
