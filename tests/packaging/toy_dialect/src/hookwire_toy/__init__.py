"""A toy dialect: one event, ``BeforeTool``, riding on the ``tool_pre`` seam.

Its wire format: the hook gets ``{"event": ..., "tool": ..., "input": ...}`` on stdin; exit 2
denies with stderr as the reason, anything else is no opinion. The matcher is an exact tool name
or ``*``.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from hookwire import (
    Answer,
    Command,
    Decision,
    Dialect,
    EventSpec,
    HookEntry,
    Outcome,
    Seam,
    SeamEvent,
    SessionInfo,
    hookimpl,
)


class ToyDialect(Dialect):
    """The toy wire contract."""

    name = "toy"
    harness = "toy 1.0"
    events = {
        "BeforeTool": EventSpec(name="BeforeTool", seam=Seam.TOOL_PRE,
                                matcher_field="tool_name", can_block=True),
    }

    def select(self, entries: Sequence[HookEntry], event: SeamEvent, native: str,
               session: SessionInfo) -> list[HookEntry]:
        tool = getattr(event, "tool_name", "")
        return [e for e in entries if e.matcher in (None, "*", tool)]

    def command(self, entry: HookEntry, event: SeamEvent, native: str,
                session: SessionInfo) -> Command:
        payload = {"event": native, "tool": getattr(event, "tool_name", None),
                   "input": dict(getattr(event, "tool_input", {}))}
        stdin = json.dumps(payload).encode()
        if isinstance(entry.command, str):
            return Command(shell=entry.command, stdin=stdin, cwd=session.cwd,
                           timeout=entry.timeout)
        return Command(argv=entry.command, stdin=stdin, cwd=session.cwd, timeout=entry.timeout)

    def interpret(self, entry: HookEntry, event: SeamEvent, native: str,
                  outcome: Outcome) -> Answer:
        if outcome.exit_code == 2:
            return Answer(decision=Decision.DENY,
                          reason=(outcome.stderr_text or "").strip() or "denied by toy hook")
        return Answer()


class ToyPlugin:
    """The object the entry point names: it declares the toy dialect."""

    @hookimpl
    def register_dialects(self) -> list[Dialect]:
        return [ToyDialect()]


plugin = ToyPlugin()
