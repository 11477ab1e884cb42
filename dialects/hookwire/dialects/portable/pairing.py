"""Exactly one post-tool-use per tool attempt, also for attempts that never ran.

A host fires ``tool_post`` or ``tool_failure`` for a tool that ran (or timed out, or was
cancelled, with ``is_interrupt``), but nothing for a call it refused. This observer closes
those attempts with a post-tool-use whose ``result.status`` is ``"denied"``:

* refused at ``tool_pre`` (the folded verdict denies): seen on the audit plane
  (``seam_verdict``), which does not await, so the handlers are started at once in the
  session's task group, shielded, and finish (within their timeouts) even if the session ends;
* refused by the host after ``tool_pre`` let it through (an ``ask`` its approver refused, a
  schema check, an unknown tool): every attempt still open when the host reports the batch
  (``tool_batch``, before the next model request) is closed there, awaited.

A host that fires neither leaves such attempts unpaired; see ``docs/dialects/portable.md``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import anyio

from hookwire import runner
from hookwire.dialects.portable.events import POST_FAILED, POST_TOOL_USE
from hookwire.events import Seam, ToolBatch, ToolFailure, ToolPre
from hookwire.hookspecs import hookimpl
from hookwire.verdicts import Answer

if TYPE_CHECKING:
    from hookwire.dialect import Dialect, HookEntry
    from hookwire.session import Session
    from hookwire.verdicts import Verdict

_CLOSING = frozenset({Seam.TOOL_POST, Seam.TOOL_FAILURE})


class DeniedAttempts:
    """Synthesises post-tool-use for tool calls that were refused instead of run."""

    dialect_name = "portable"

    def __init__(self) -> None:
        #: session id → tool_use_id → the tool_pre event of an attempt not yet closed
        self._open: dict[str, dict[str, ToolPre]] = {}

    @hookimpl
    def seam_verdict(self, event: Any, session: Session, verdict: Verdict) -> None:
        seam, sid = event.seam, session.info.session_id
        if seam is Seam.SESSION_END:
            self._open.pop(sid, None)
        elif seam in _CLOSING:
            self._open.get(sid, {}).pop(event.tool_use_id, None)
        elif seam is Seam.TOOL_PRE and event.agent_id is None:
            if not self._entries(session):
                return
            if verdict.denied:
                denied = _denied(event, verdict.reason or "denied")
                session.spawn_background(self._close, session, denied, True)
            elif event.tool_use_id:
                self._open.setdefault(sid, {})[event.tool_use_id] = event

    @hookimpl
    async def tool_batch(self, event: ToolBatch, session: Session) -> None:
        pending = self._open.get(session.info.session_id)
        if not pending:
            return
        for call in event.tool_calls:
            pre = pending.pop(str(call.get("tool_use_id", "")), None)
            if pre is not None:
                reason = call.get("tool_response") or "refused by the host"
                await self._close(session, _denied(pre, str(reason)), False)

    def _entries(self, session: Session) -> list[HookEntry]:
        kernel = session.kernel
        if self.dialect_name not in kernel.dialects:
            return []
        return [e for e in kernel.hooks
                if e.dialect == self.dialect_name and e.event == POST_TOOL_USE]

    async def _close(self, session: Session, event: ToolFailure, shield: bool) -> None:
        dialect = session.kernel.dialect(self.dialect_name)
        entries = dialect.select(self._entries(session), event, POST_FAILED, session.info)
        with anyio.CancelScope(shield=shield):
            await _run(dialect, entries, event, session)


def _denied(pre: ToolPre, reason: str) -> ToolFailure:
    extra: Mapping[str, Any] = {**pre.extra, "status": "denied"}
    return ToolFailure(tool_name=pre.tool_name, tool_input=dict(pre.tool_input),
                       tool_use_id=pre.tool_use_id, error=reason, prompt_id=pre.prompt_id,
                       agent_id=pre.agent_id, agent_type=pre.agent_type, extra=extra)


async def _run(dialect: Dialect, entries: list[HookEntry], event: ToolFailure,
               session: Session) -> None:
    gate = session.kernel.trust_gate
    for entry in entries:  # declaration order, one at a time, as on every portable event
        decision = gate(entry, Seam.TOOL_FAILURE) if gate is not None else None
        if isinstance(decision, Answer):
            continue  # not trusted: the trust tier said what to do instead
        try:
            command: Any = dialect.command(entry, event, POST_FAILED, session.info)
            if decision is not None:
                command = decision(command)  # a trusted hook's command check
        except Exception:  # as the kernel does: a failing check or build runs nothing
            continue
        if isinstance(command, runner.Command):
            await runner.run(command)
