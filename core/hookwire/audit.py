"""Records the audit plane hands to its observers (``hook_invoked``, ``hook_result``)."""

from __future__ import annotations

import itertools

import attrs

from hookwire.dialect import HookEntry
from hookwire.events import Seam
from hookwire.runner import Command, Outcome
from hookwire.verdicts import Answer, HookReport, Source

_ids = itertools.count(1)


def next_id() -> int:
    """A process-wide, increasing invocation id."""
    return next(_ids)


@attrs.frozen(kw_only=True)
class Invocation:
    """One contributor about to be asked: an external hook (``entry`` and ``command`` set, with
    the exact stdin bytes in ``command.stdin``) or a native plugin (both ``None``)."""

    id: int
    seam: Seam
    source: Source
    session_id: str
    native_event: str | None = None
    entry: HookEntry | None = None
    command: Command | None = None


@attrs.frozen(kw_only=True)
class InvocationResult:
    """How the contributor answered: ``outcome`` for external hooks, ``error`` when a plugin
    raised, the resulting ``answer`` and the ``report`` line (external hooks)."""

    invocation: Invocation
    answer: Answer
    outcome: Outcome | None = None
    error: BaseException | None = None
    report: HookReport | None = None
