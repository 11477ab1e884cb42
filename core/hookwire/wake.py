"""Waking the agent from a background hook (Claude Code's ``asyncRewake``).

A background hook cannot decide anything, but a dialect may let one ask to wake the agent:
Claude Code's ``asyncRewake`` hook that exits 2 puts its output before the model at once,
even when the session is idle. The hook's answer carries the text (``Answer.wake``); the
kernel hands it to the session's ``on_wake`` callback as a :class:`Wake`::

    async def woken(wake: Wake) -> None:
        ...  # idle: start a model turn with wake.text; busy: add it before the next request

    async with kernel.session(cwd=project, on_wake=woken) as session:
        ...

The callback runs in the session's task group (it may run a whole model turn; it is
cancelled when the session closes) and may be synchronous. A session without one cannot be
woken: each hook that could wake it is reported when the session starts (``Session.problems``,
kind ``unsupported``), and a wake that comes anyway is logged and dropped.
"""

from __future__ import annotations

import inspect
import logging
from collections.abc import Awaitable, Callable, Iterable, Mapping
from typing import TYPE_CHECKING

import attrs

from hookwire.dialect import Dialect, HookEntry
from hookwire.problems import Problem, ProblemKind
from hookwire.verdicts import Answer, Source

if TYPE_CHECKING:
    from hookwire.session import Session

log = logging.getLogger("hookwire")


@attrs.frozen(kw_only=True)
class Wake:
    """A background hook asks to wake the agent. ``text``: what the model reads, in the
    dialect's wording (Claude Code: a system reminder); ``message``: the hook's own words,
    for a host that words it itself; ``summary``: what to show the user, never the model
    (Claude Code's ``rewakeSummary``); ``source``: the hook."""

    text: str
    message: str
    source: Source
    summary: str | None = None


WakeCallback = Callable[[Wake], Awaitable[None] | None]


async def deliver(session: Session, answer: Answer) -> None:
    """Hand ``answer``'s wake to the session's ``on_wake`` (a broken callback is logged, never
    raised into the hook's task)."""
    if answer.wake is None:
        return
    wake = Wake(text=answer.wake, message=answer.reason or answer.wake, source=answer.source,
                summary=answer.system_messages[0] if answer.system_messages else None)
    callback = session.on_wake
    if callback is None:
        log.warning("%s asked to wake the agent, but the host gave no on_wake: dropped",
                    answer.source.label())
        return
    try:
        result = callback(wake)
        if inspect.isawaitable(result):
            await result
    except Exception:
        log.exception("the host's on_wake failed for %s", answer.source.label())


def problems(entries: Iterable[HookEntry], dialects: Mapping[str, Dialect]) -> list[Problem]:
    """The hooks among ``entries`` that could wake the agent: reported for a session that
    cannot be woken."""
    out = []
    for entry in entries:
        dialect = dialects.get(entry.dialect)
        if entry.background and dialect is not None and dialect.wakes(entry):
            out.append(Problem(
                kind=ProblemKind.UNSUPPORTED, location=entry.location, entry=entry,
                message=f"{entry.dialect} {entry.event} hook `{entry.display}` wakes the agent "
                        "on exit 2, but the host gave no on_wake: it runs as a plain async "
                        "hook and its wake is dropped"))
    return out
