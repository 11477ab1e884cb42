"""Folding many answers into one verdict.

Rules (design.md, "Folding verdicts"):

* the most restrictive decision wins: deny = block > defer > ask > allow > none; among answers
  of the winning rank the first one's decision is kept;
* the reasons given at the winning rank are joined with a newline, in answer order;
* a context-only answer is never a veto: contexts are all kept, in order, with their sources;
* the last ``updated_input`` (and ``updated_output``) wins, which is both "the hook that finished
  last" for parallel external hooks and "the end of the chain" for native plugins; a denied
  verdict carries no rewrite (its effective input is the original: nothing runs);
* the first ``halt`` sticks, whatever any other answer says.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from hookwire.events import Seam
from hookwire.verdicts import (
    Answer,
    Context,
    Decision,
    Halt,
    HookReport,
    PluginReport,
    Reason,
    Verdict,
)


def fold(
    seam: Seam,
    answers: Sequence[Answer],
    *,
    original_input: Mapping[str, Any] | None = None,
    hooks: Iterable[HookReport] = (),
    diagnostics: Iterable[str] = (),
    plugins: Iterable[PluginReport] = (),
) -> Verdict:
    """Fold ``answers`` (in the order they count) into the :class:`Verdict` of ``seam``."""
    decision = Decision.NONE
    reasons: list[Reason] = []
    effective = original_input
    updated_output: Any = None
    contexts: list[Context] = []
    halt: Halt | None = None
    messages: list[str] = []
    diags: list[str] = []
    for answer in answers:
        if answer.decision.rank > decision.rank:
            decision = answer.decision
        if answer.reason and answer.decision is not Decision.NONE:
            reasons.append(Reason(decision=answer.decision, text=answer.reason,
                                  source=answer.source))
        if answer.updated_input is not None:
            effective = answer.updated_input
        if answer.updated_output is not None:
            updated_output = answer.updated_output
        contexts.extend(answer.contexts)
        if halt is None and answer.halt is not None:
            halt = answer.halt
        messages.extend(answer.system_messages)
        diags.extend(answer.diagnostics)
    diags.extend(diagnostics)
    if decision is Decision.DENY:
        # nothing runs: a rewrite another hook made in parallel is not what the host may run
        effective = original_input
    winning = [r.text for r in reasons if r.decision.rank == decision.rank]
    return Verdict(
        seam=seam,
        decision=decision,
        reason="\n".join(winning) if winning else None,
        reasons=tuple(reasons),
        original_input=original_input,
        effective_input=effective,
        updated_output=updated_output,
        contexts=tuple(contexts),
        halt=halt,
        system_messages=tuple(messages),
        hooks=tuple(hooks),
        diagnostics=tuple(diags),
        plugins=tuple(plugins),
    )

