"""How a host run answers ``ask``: the kernel's ``approve`` seam, or the runtime's own approval
surface (a mixin of :class:`hookwire.driver.HostRun`, documented there)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

import attrs

from hookwire._hosttypes import Action, ToolGo, invalid_rewrite
from hookwire.render import ModelText, no_approval_surface
from hookwire.verdicts import Decision

if TYPE_CHECKING:
    from hookwire._hostdriver import HostDriver
    from hookwire.session import Session


class Approvals:
    """:class:`~hookwire.driver.HostRun`'s answers to a tool call beyond ``tool_pre``'s."""

    driver: HostDriver
    pending: list[ModelText]
    _pre_texts: dict[str, list[ModelText]]

    if TYPE_CHECKING:
        async def tool_pre(self, name: str, tool_input: Mapping[str, Any], call_id: str, *,
                           approved: bool = False) -> ToolGo: ...
        def refuse(self, call_id: str, text: str) -> None: ...
        def _refused(self, call_id: str, text: str) -> None: ...
        def _session(self) -> Session: ...

    async def gate(self, name: str, tool_input: Mapping[str, Any], call_id: str, *,
                   check: Callable[[dict[str, Any]], object | None] | None = None) -> ToolGo:
        """:meth:`tool_pre` for a runtime with no approval surface of its own: an ``ask`` (or
        ``defer``) is answered by :meth:`approve`; a rewritten input is :meth:`checked`. The
        answer is run or refuse."""
        go = await self.tool_pre(name, tool_input, call_id)
        if go.action in (Action.ASK, Action.DEFER):
            go = await self.approve(name, go, call_id)
        return self.checked(name, go, call_id, check)

    async def asking(self, name: str, tool_input: Mapping[str, Any], call_id: str, *,
                     surface: bool = True) -> ToolGo:
        """:meth:`tool_pre` once per call: a runtime that asks again (before it runs the call,
        or after its approval surface answered) gets the same answer. An ``ask`` is answered by
        :meth:`approve` unless the runtime's approval ``surface`` answers it."""
        go = self.driver.pre.get(call_id) or await self.tool_pre(name, tool_input, call_id)
        if go.action is Action.ASK and not surface:
            go = await self.approve(name, go, call_id)
        return go

    async def admit(self, name: str, tool_input: Mapping[str, Any], call_id: str, *,
                    surface: bool = True,
                    check: Callable[[dict[str, Any]], object | None] | None = None) -> ToolGo:
        """The runtime runs a call now, after its approval surface had its say: an ``ask``
        or ``defer`` it was asked about (the earlier answer) was approved; a call not seen
        before gets :meth:`tool_pre` (an ``ask`` answered by :meth:`approve` unless the
        ``surface`` answers asks), and one still open is refused. Run (:meth:`checked`) or
        refuse."""
        go = self.driver.pre.get(call_id)
        if go is not None and go.action in (Action.ASK, Action.DEFER):
            go = attrs.evolve(go, action=Action.RUN)
        elif go is None:
            go = await self.asking(name, tool_input, call_id, surface=surface)
            if go.action in (Action.ASK, Action.DEFER):
                go = self.answered(go, call_id, False, text=go.text or "denied by a hook")
        return self.checked(name, go, call_id, check)

    def checked(self, name: str, go: ToolGo, call_id: str,
                check: Callable[[dict[str, Any]], object | None] | None) -> ToolGo:
        """``go``, refused if a hook rewrote its input into one ``check`` says the tool refuses
        (``check`` gives why, or ``None``), for a runtime that does not check it again."""
        error = check(go.input) if check and go.rewritten and go.action is Action.RUN else None
        if error is None:
            return go
        text = invalid_rewrite(name, error)
        self.refuse(call_id, text)
        return attrs.evolve(go, action=Action.REFUSE, text=text)

    def answered(self, go: ToolGo, call_id: str, allowed: bool,
                 tool_input: Mapping[str, Any] | None = None, text: str | None = None) -> ToolGo:
        """The runtime's own approval surface answered an ``ask``: allowed, the call runs (with
        the input the surface may have edited); refused, the model reads ``text``."""
        if allowed:
            return attrs.evolve(go, action=Action.RUN,
                                input=dict(go.input if tool_input is None else tool_input))
        text = text or go.reason or "denied: approval required"
        self.refuse(call_id, text)
        return attrs.evolve(go, action=Action.REFUSE, text=text)

    async def needs_approval(self, name: str, tool_input: Mapping[str, Any], call_id: str, *,
                             surface: bool = True) -> bool | None:
        """Whether the runtime's approval surface asks about a call, as Claude Code decides
        (:meth:`asking`): yes for a hook's ``ask`` or ``defer``; no when a hook allowed the call
        (no permission prompt) or refused it (refused when the runtime runs it); ``None``: no
        hook decided, the runtime's own policy does."""
        go = await self.asking(name, tool_input, call_id, surface=surface)
        if go.action in (Action.ASK, Action.DEFER):
            return True
        if go.action is Action.REFUSE or go.verdict.decision is Decision.ALLOW:
            return False
        return None

    async def approve(self, name: str, go: ToolGo, call_id: str) -> ToolGo:
        """The kernel's ``approve`` seam answers an ``ask`` (no approval surface): allow runs
        it, deny refuses it with the reason, no answer refuses it as Claude Code does."""
        answer = await self._session().approve(name, go.input, call_id, reason=go.reason)
        if answer.decision is Decision.ALLOW:
            tool_input = dict(answer.effective_input or go.input)
            go = attrs.evolve(go, action=Action.RUN, input=tool_input)
        elif answer.decision is Decision.DENY:
            go = attrs.evolve(go, action=Action.REFUSE,
                              text=answer.reason or "denied by the approval hook")
        else:
            go = attrs.evolve(go, action=Action.REFUSE, text=no_approval_surface(go.reason))
        if go.action is Action.REFUSE:
            self.pending += self._pre_texts.pop(call_id, [])
            self._refused(call_id, go.text or "")
        self.driver.pre[call_id] = go
        return go
