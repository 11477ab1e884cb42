"""Running the Claude Code hooks that are not processes, on what the host lends
(:mod:`hookwire.hostparts`): ``prompt`` and ``agent`` hooks on its model, ``mcp_tool`` hooks on
its MCP client sessions.

Each becomes a :class:`~hookwire.dialect.Prepared` whose ``run`` the kernel awaits instead of a
process; its ``command`` only describes the hook (the prompt or ``server:tool``, the payload,
the timeout). An ``mcp_tool`` hook's text result is read like a command hook's stdout; a server
that is not connected, or a result marked as an error, is a non-blocking error.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping
from typing import Any

import attrs

from hookwire.dialect import HookEntry, Prepared
from hookwire.dialects import _mcptool
from hookwire.dialects.claude import _prompt
from hookwire.dialects.claude import outcome as _outcome
from hookwire.dialects.claude import payload as _payload
from hookwire.dialects.claude.events import DEFAULT_TIMEOUT, EVENT_TIMEOUTS
from hookwire.dialects.claude.handler import ClaudeHandler, handler_of
from hookwire.events import SeamEvent, SessionInfo
from hookwire.hostparts import HostParts, ModelAsk, answered, failed
from hookwire.runner import Command, Outcome


def prepare(entry: HookEntry, event: SeamEvent, native: str,
            session: SessionInfo) -> Prepared:
    """The in-process run of ``entry`` (a prompt, agent or mcp_tool hook) for ``event``."""
    handler = handler_of(entry)
    body = _payload.build(event, native, session)
    stdin = _payload.encode(body)
    timeout = entry.timeout
    if timeout is None:
        timeout = (_prompt.default_timeout(handler) if handler.type != "mcp_tool"
                   else EVENT_TIMEOUTS.get(native, DEFAULT_TIMEOUT))
    command = Command(shell=entry.display, stdin=stdin, timeout=timeout, cwd=session.cwd)
    interpret = functools.partial(_outcome.interpret, entry, event, native)
    if handler.type == "mcp_tool":
        return Prepared(command=command, interpret=interpret,
                        run=functools.partial(_call_tool, handler, body))
    ask = _prompt.ask(entry, native, stdin, _prompt.transcript(session.transcript_path),
                      session.project_dir, session.transcript_path)
    if handler.type == "agent":
        from hookwire.dialects.claude import _agenttools

        ask = attrs.evolve(ask, tools=_agenttools.tools(session.project_dir,
                                                       session.transcript_path))
    return Prepared(command=command, run=functools.partial(_ask, ask),
                    interpret=functools.partial(_prompt.interpret, entry, event, native))


async def _ask(ask: ModelAsk, parts: HostParts) -> Outcome:
    model, note = parts.model_for(ask.model)
    reply = await model.ask(ask)
    if reply.output is None:
        said = f": it wrote {reply.text[:200]!r}" if reply.text else ""
        how = f"through {ask.output_tool}" if ask.output_tool else "in the answer's shape"
        return failed(f"the model gave no answer {how}{said}")
    return answered(json.dumps(dict(reply.output), ensure_ascii=False), note)


async def _call_tool(handler: ClaudeHandler, body: Mapping[str, Any],
                     parts: HostParts) -> Outcome:
    return await _mcptool.call(handler.server or "", handler.tool or "",
                               fill(handler.input, body), parts)


def fill(value: Any, body: Mapping[str, Any]) -> Any:
    """``value`` (an mcp_tool ``input``) with each ``${path}`` in its strings replaced by that
    dotted path of the hook input (a string as it is, anything else as JSON; ``""`` when the
    path names nothing)."""
    if isinstance(value, str):
        return _mcptool.PLACEHOLDER.sub(
            lambda m: _text(_mcptool.lookup(body, m.group(1))), value)
    if isinstance(value, Mapping):
        return {k: fill(v, body) for k, v in value.items()}
    if isinstance(value, list):
        return [fill(v, body) for v in value]
    return value


def _text(value: Any) -> str:
    if value is None or value is _mcptool.MISSING:
        return ""
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
