"""Running a Codex ``mcp_tool`` hook on the host's MCP sessions (:mod:`hookwire.hostparts`).

As Codex 0.171.0 does: the hook's ``input`` is filled from its stdin JSON, each string's
``${path.in.event}`` placeholders resolved by dotted path; a string that is one whole
placeholder takes the value with its JSON type, a placeholder inside a longer string its text
(JSON for a non-string); a path that names nothing is a hook error. The tool's text result is
then read like a command hook's stdout, by Codex's rules (:mod:`.outcome`). The server is named
as the host names its MCP session (named divergence D7).
"""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping
from typing import Any

import attrs

from hookwire.dialect import HookEntry, Prepared
from hookwire.dialects import _mcptool
from hookwire.dialects.codex import outcome, payload
from hookwire.dialects.codex.handler import CodexHandler, handler_of
from hookwire.events import SeamEvent, SessionInfo
from hookwire.hostparts import HostParts, failed
from hookwire.runner import Command, Outcome, OutcomeKind
from hookwire.verdicts import Answer


class _Unresolved(Exception):
    """A placeholder names no value of the hook input."""


def prepare(entry: HookEntry, event: SeamEvent, native: str,
            session: SessionInfo) -> Prepared:
    """The in-process run of the mcp_tool hook ``entry`` for ``event``."""
    body = payload.build(event, native, session)
    command = Command(shell=entry.display, stdin=payload.encode(body), timeout=entry.timeout,
                      cwd=session.cwd)
    return Prepared(command=command,
                    interpret=functools.partial(_interpret, entry, event, native),
                    run=functools.partial(_call, handler_of(entry), body))


async def _call(handler: CodexHandler, body: Mapping[str, Any], parts: HostParts) -> Outcome:
    try:
        arguments = fill(handler.input, body)
    except _Unresolved as exc:
        return failed(f"mcp_tool hook input placeholder ${{{exc}}} names no value of the "
                      "hook input")
    return await _mcptool.call(handler.server or "", handler.tool or "", arguments, parts)


def fill(value: Any, body: Mapping[str, Any]) -> Any:
    """``value`` with its placeholders resolved against ``body`` (raises :class:`_Unresolved`
    naming a path that names nothing)."""
    if isinstance(value, str):
        whole = _mcptool.PLACEHOLDER.fullmatch(value)
        if whole:
            return _resolve(body, whole.group(1))
        return _mcptool.PLACEHOLDER.sub(lambda m: _text(_resolve(body, m.group(1))), value)
    if isinstance(value, Mapping):
        return {k: fill(v, body) for k, v in value.items()}
    if isinstance(value, list):
        return [fill(v, body) for v in value]
    return value


def _resolve(body: Mapping[str, Any], path: str) -> Any:
    found = _mcptool.lookup(body, path)
    if found is _mcptool.MISSING:
        raise _Unresolved(path)
    return found


def _text(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def _interpret(entry: HookEntry, event: SeamEvent, native: str, outcome_: Outcome) -> Answer:
    answer = outcome.interpret(entry, event, native, outcome_)
    why = outcome_.stderr.decode("utf-8", "replace").strip()
    if outcome_.kind is OutcomeKind.EXITED and outcome_.exit_code == 1 and why:
        return attrs.evolve(answer, diagnostics=(f"hook failed: {why}",))
    return answer
