"""Enforcement modes, run-wide: what hookwire does with a guard's failure, and whether it
enforces verdicts at all.

* ``enforce`` (the default): each dialect's own failure policy, as its harness has it (Claude
  Code: a guard that times out lets the call go ahead).
* ``fail-closed``: a guard on a blocking event that could not start, was killed, timed out,
  exited with an error or gave no usable answer blocks, in every dialect.
* ``shadow``: hooks run and their answers are recorded (run log, traces, the verdict's
  diagnostics and hook reports) but nothing is enforced: the verdict the host gets is neutral.

The mode is, first found: the host's ``Kernel(enforcement=...)``, ``$HOOKWIRE_ENFORCEMENT``,
the hooks file's ``enforcement:``, else ``enforce``.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Mapping

import attrs

from hookwire import _unanswered
from hookwire._policy import ENFORCE as ENFORCE
from hookwire._policy import FAIL_CLOSED as FAIL_CLOSED
from hookwire._policy import MODES as MODES
from hookwire._policy import SHADOW as SHADOW
from hookwire.dialect import Dialect, HookEntry
from hookwire.events import CONTINUE_SEAMS, Seam
from hookwire.runner import Command, Outcome, OutcomeKind
from hookwire.verdicts import Answer, Decision, Source, Verdict

log = logging.getLogger("hookwire")

ENV = "HOOKWIRE_ENFORCEMENT"
#: Where fail-closed refuses: the seams on which a guard's block stops something.
_REFUSE = {Seam.TOOL_PRE: Decision.DENY, Seam.APPROVE: Decision.DENY,
           Seam.PROMPT_SUBMIT: Decision.BLOCK, Seam.TOOL_BATCH: Decision.DENY}


def active(host: str | None, file: str | None, env: Mapping[str, str] | None = None) -> str:
    """The mode in force: the host's, else the environment's, else the hooks file's."""
    if host is not None:
        return host
    raw = (os.environ if env is None else env).get(ENV, "").strip().lower()
    if raw in MODES:
        return raw
    if raw:
        log.warning("%s=%r is not one of %s; using %s", ENV, raw, ", ".join(MODES),
                    file or ENFORCE)
    return file or ENFORCE


def no_answer(command: Command, outcome: Outcome, answer: Answer) -> str | None:
    """Why ``outcome`` is no usable answer from a guard, or ``None`` when it is one."""
    if outcome.kind is OutcomeKind.FAILED_TO_START:
        return "could not start"
    if outcome.kind is OutcomeKind.SIGNALED:
        return "was killed by a signal"
    if outcome.kind is OutcomeKind.TIMED_OUT:
        return "timed out"
    if answer.decision is not Decision.NONE or answer.updated_input is not None:
        return None
    if outcome.exit_code not in (0, None):
        return f"exited {outcome.exit_code} without a decision"
    if answer.diagnostics and answer.is_empty:
        return "gave no usable answer"
    return None


def after_run(mode: str, dialect: Dialect, native: str, entry: HookEntry, seam: Seam,
              command: Command, outcome: Outcome, answer: Answer) -> Answer:
    """A hook's answer under ``mode``: warned about when it is no answer (every mode) and,
    under fail-closed, turned into a refusal on a blocking seam."""
    _unanswered.warn(dialect.name, native, entry, command, outcome, answer)
    if mode != FAIL_CLOSED or entry.background or seam in CONTINUE_SEAMS:
        return answer
    decision = _REFUSE.get(seam)
    spec = dialect.events.get(native)
    why = no_answer(command, outcome, answer)
    if decision is None or why is None or spec is None or not spec.can_block:
        return answer
    text = f"{dialect.name} {native} hook `{entry.display}` {why}; enforcement is fail-closed"
    log.warning("%s: refused", text)
    return attrs.evolve(answer, decision=decision, reason=f"hookwire: {text}",
                        diagnostics=(*answer.diagnostics, text))


def shadowed(verdict: Verdict) -> Verdict:
    """What a host gets under shadow: nothing enforced, what would have been in diagnostics."""
    would = []
    if verdict.decision is not Decision.NONE:
        would.append(verdict.decision.value + (f" ({verdict.reason})" if verdict.reason else ""))
    if verdict.input_rewritten:
        would.append("a rewritten input")
    if verdict.halt is not None:
        would.append(f"a halt ({verdict.halt.reason})")
    if verdict.contexts:
        would.append(f"{len(verdict.contexts)} added context(s)")
    if not would:
        return verdict
    note = f"shadow (not enforced): the hooks would have given {', '.join(would)}"
    log.info("seam %s: %s", verdict.seam.value, note)
    return attrs.evolve(verdict, decision=Decision.NONE, reason=None, reasons=(),
                        effective_input=verdict.original_input, updated_output=None,
                        contexts=(), halt=None, system_messages=(),
                        diagnostics=(*verdict.diagnostics, note))


#: Seams besides the tool seams on which a failing plugin with a closed policy refuses.
_BLOCKABLE = frozenset({Seam.PROMPT_SUBMIT, Seam.PRE_COMPACT})


def plugin_failure(mode: str, seam: Seam, plugin: object, error: Exception,
                   source: Source) -> Answer:
    """The answer of a native plugin that raised: its ``hookwire_failure_policy`` attribute
    says ``open`` (default: no opinion, a diagnostic) or ``closed`` (refuse where the seam
    can); under fail-closed every plugin is closed."""
    policy = "closed" if mode == FAIL_CLOSED else getattr(plugin, "hookwire_failure_policy",
                                                          "open")
    diag = (str(error),)
    if policy == "closed":
        if seam in (Seam.TOOL_PRE, Seam.APPROVE):
            return Answer(decision=Decision.DENY, reason=str(error), diagnostics=diag,
                          source=source)
        if seam in _BLOCKABLE:
            return Answer(decision=Decision.BLOCK, reason=str(error), diagnostics=diag,
                          source=source)
    return Answer(diagnostics=diag, source=source)
