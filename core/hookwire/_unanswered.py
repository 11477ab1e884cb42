"""A hook that gave no answer at all, said where a person looks.

A guard that could not start, was killed or timed out checked nothing, and the call it was
meant to check usually goes ahead (that is the dialect's failure policy). The dialect words it
in the verdict's diagnostics; this puts the same words in a warning on the ``hookwire``
logger, naming the hook, so it is never only in a verdict nobody reads.
"""

from __future__ import annotations

import logging

from hookwire.dialect import HookEntry
from hookwire.runner import Command, Outcome, OutcomeKind
from hookwire.verdicts import Answer, Decision

log = logging.getLogger("hookwire")

_WHY = {OutcomeKind.FAILED_TO_START: "could not start",
        OutcomeKind.SIGNALED: "was killed by a signal",
        OutcomeKind.TIMED_OUT: "timed out"}


def warn(dialect: str, native: str, entry: HookEntry, command: Command, outcome: Outcome,
         answer: Answer) -> None:
    """Log a warning when ``outcome`` is no answer and the dialect made no decision of it."""
    why = _WHY.get(outcome.kind)
    if why is None and command.shell is not None and outcome.exit_code in (126, 127):
        why = "could not start (its shell found no such command, or could not run it)"
    if why is not None and answer.decision is Decision.NONE:
        log.warning("%s %s hook %s %s: %s", dialect, native, entry.display, why,
                    "; ".join(answer.diagnostics) or "no answer, the call went ahead")
