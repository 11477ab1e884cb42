"""What hooks and plugins answer, and what a seam answers the host.

An :class:`Answer` is one contributor's reply (one external hook, one native plugin). The kernel
folds the answers of a seam into one :class:`Verdict` (see :mod:`hookwire.fold`).
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from typing import Any

import attrs

from hookwire.events import CONTINUE_SEAMS, Seam


class Decision(enum.StrEnum):
    """A contributor's decision. ``BLOCK`` is the decision of seams that are not tool permission
    checks: it refuses a prompt or a compaction, sends feedback after a tool, and on stop seams
    keeps the agent going."""

    NONE = "none"
    ALLOW = "allow"
    ASK = "ask"
    DEFER = "defer"
    DENY = "deny"
    BLOCK = "block"

    __hash__ = str.__hash__  # see Seam.__hash__

    @property
    def rank(self) -> int:
        """Restrictiveness: deny = block > defer > ask > allow > none."""
        return _RANK[self]

    def __str__(self) -> str:
        return self.value


_RANK = {
    Decision.NONE: 0,
    Decision.ALLOW: 1,
    Decision.ASK: 2,
    Decision.DEFER: 3,
    Decision.DENY: 4,
    Decision.BLOCK: 4,
}


class SourceKind(enum.StrEnum):
    """Who contributed an answer or a context."""

    HOOK = "hook"
    PLUGIN = "plugin"
    KERNEL = "kernel"
    HOST = "host"

    def __str__(self) -> str:
        return self.value


@attrs.frozen(kw_only=True)
class Source:
    """Where something came from: ``kind``, a ``name`` (the hook's command, the plugin's name),
    the ``dialect`` for external hooks and the native ``event`` name it fired on. ``run_id``:
    the harness's own name for this run of the hook, where a dialect gives one for its model
    text (Codex's ``hook_run_id``, ``stop:<display order>:<source path>``)."""

    kind: SourceKind
    name: str
    dialect: str | None = None
    event: str | None = None
    run_id: str | None = None

    def label(self) -> str:
        """A short human label, e.g. ``claude:PreToolUse hook `./guard.sh` ``."""
        if self.kind is SourceKind.HOOK:
            return f"{self.dialect}:{self.event} hook `{self.name}`"
        return f"{self.kind.value} {self.name}"


KERNEL = Source(kind=SourceKind.KERNEL, name="hookwire")


@attrs.frozen(kw_only=True)
class Context:
    """Text to add to the agent's context, with the source it must be labelled with.

    ``text`` is never the user's words: hosts present it as coming from ``source``.
    """

    text: str
    source: Source


@attrs.frozen(kw_only=True)
class Halt:
    """``continue: false``: the host must stop the agent. ``reason`` is for the user.

    ``scope`` is ``"session"`` (sticky: :attr:`Session.halted`, as Claude Code stops) or
    ``"turn"`` (the current turn ends, the next one runs: :attr:`Session.turn_halt`, as Codex
    stops). A halt from ``session_start`` stops the first turn before any model request.
    """

    reason: str | None
    source: Source
    scope: str = "session"


# Answer, Verdict and the seam events are built on every dispatch: without __slots__ a frozen
# attrs instance initialises about 40% faster (slot descriptors are slow to set through
# object.__setattr__), which keeps a dispatch that matches nothing within its budget.
@attrs.frozen(kw_only=True, slots=False)
class Answer:
    """One contributor's reply on a seam.

    Every field is optional: an empty answer means "no opinion". ``updated_input`` replaces the
    tool input (tool_pre); ``updated_output`` replaces the tool output the model sees
    (tool_post); ``contexts`` add text; ``halt`` stops everything; ``system_messages`` are
    shown to the user, never to the model. ``diagnostics`` record what went wrong running the
    contributor (a timeout, an invalid reply) without changing the decision. ``wake``: a
    background hook asks to wake the agent with this text (:mod:`hookwire.wake`).
    """

    decision: Decision = Decision.NONE
    reason: str | None = None
    updated_input: Mapping[str, Any] | None = None
    updated_output: Any = None
    contexts: tuple[Context, ...] = ()
    halt: Halt | None = None
    system_messages: tuple[str, ...] = ()
    diagnostics: tuple[str, ...] = ()
    source: Source = KERNEL
    wake: str | None = None

    @property
    def is_empty(self) -> bool:
        """True when the answer changes nothing."""
        return (
            self.decision is Decision.NONE
            and self.updated_input is None
            and self.updated_output is None
            and not self.contexts
            and self.halt is None
            and not self.system_messages
        )


NO_OPINION = Answer()


def stop_capped(verdict: Verdict, cap: int) -> Verdict:
    """``verdict`` of a stop seam that may not keep the turn going: the cap is reached."""
    return attrs.evolve(verdict, decision=Decision.NONE, diagnostics=(
        *verdict.diagnostics, f"stop hooks kept the turn going {cap} times in a row: cap reached"))


@attrs.frozen(kw_only=True)
class HookReport:
    """How one external hook ran, for the verdict's ``hooks`` list and the audit plane.
    ``escaped``: the pids of descendants that left the hook's session on purpose (``setsid``)
    and were left running (:attr:`hookwire.runner.Outcome.escaped`)."""

    dialect: str
    event: str
    command: str
    outcome: str
    exit_code: int | None = None
    signal: int | None = None
    timed_out: bool = False
    duration_ms: float = 0.0
    decision: Decision = Decision.NONE
    diagnostics: tuple[str, ...] = ()
    trusted: bool = True
    escaped: tuple[int, ...] = ()

    @property
    def daemonized(self) -> bool:
        """A descendant of the hook left its session and was left running."""
        return bool(self.escaped)


@attrs.frozen(kw_only=True)
class PluginReport:
    """How one native plugin answered a seam, for the verdict's ``plugins`` list: ``outcome``
    is ``answered``, ``no opinion`` (it returned ``None``) or ``raised``."""

    name: str
    outcome: str
    decision: Decision = Decision.NONE
    duration_ms: float = 0.0
    diagnostics: tuple[str, ...] = ()


@attrs.frozen(kw_only=True)
class Reason:
    """A reason given for a decision, with who gave it."""

    decision: Decision
    text: str
    source: Source


@attrs.frozen(kw_only=True, slots=False)
class Verdict:
    """A seam's folded answer to the host.

    ``decision`` is the most restrictive decision any contributor made and ``reason`` joins the
    reasons given at that rank (``reasons`` keeps all of them). On ``tool_pre``,
    ``original_input`` is what the host proposed and ``effective_input`` what must run
    (identical when nobody rewrote it). On stop seams, :attr:`continue_turn` tells the host to
    keep going with ``reason`` as the feedback. ``halt`` is sticky for the session.
    """

    seam: Seam
    decision: Decision = Decision.NONE
    reason: str | None = None
    reasons: tuple[Reason, ...] = ()
    original_input: Mapping[str, Any] | None = None
    effective_input: Mapping[str, Any] | None = None
    updated_output: Any = None
    contexts: tuple[Context, ...] = ()
    halt: Halt | None = None
    system_messages: tuple[str, ...] = ()
    hooks: tuple[HookReport, ...] = ()
    diagnostics: tuple[str, ...] = ()
    #: One row per native plugin that was asked, in the order they were asked.
    plugins: tuple[PluginReport, ...] = ()

    @property
    def denied(self) -> bool:
        """The host must not go ahead (tool refused, prompt or compaction blocked)."""
        if self.seam in CONTINUE_SEAMS:
            return False
        return self.decision in (Decision.DENY, Decision.BLOCK)

    @property
    def continue_turn(self) -> bool:
        """On stop seams: a hook asked the agent to keep going (``reason`` says why)."""
        return self.seam in CONTINUE_SEAMS and self.decision is Decision.BLOCK

    @property
    def input_rewritten(self) -> bool:
        """On tool_pre: the effective input differs from the original."""
        return self.effective_input is not None and self.effective_input != self.original_input

    def to_json(self) -> dict[str, Any]:
        """The documented JSON shape (``docs/verdict-json.md``)."""
        out: dict[str, Any] = {
            "seam": self.seam.value,
            "decision": self.decision.value,
            "reason": self.reason,
            "updated_input": dict(self.effective_input) if self.input_rewritten and
            self.effective_input is not None else None,
            "contexts": [
                {"text": c.text, "source": _source_json(c.source)} for c in self.contexts
            ],
            "halt": (
                {"reason": self.halt.reason, "source": _source_json(self.halt.source)}
                if self.halt else None
            ),
            "system_messages": list(self.system_messages),
            "hooks": [
                {
                    "dialect": h.dialect,
                    "event": h.event,
                    "command": h.command,
                    "outcome": h.outcome,
                    "exit_code": h.exit_code,
                    "signal": h.signal,
                    "timed_out": h.timed_out,
                    "duration_ms": round(h.duration_ms, 3),
                    "decision": h.decision.value,
                    "diagnostics": list(h.diagnostics),
                    "daemonized": h.daemonized,
                    "escaped": list(h.escaped),
                }
                for h in self.hooks
            ],
            "plugins": [
                {"name": p.name, "outcome": p.outcome, "decision": p.decision.value,
                 "duration_ms": round(p.duration_ms, 3), "diagnostics": list(p.diagnostics)}
                for p in self.plugins
            ],
            "diagnostics": list(self.diagnostics),
        }
        if self.seam in CONTINUE_SEAMS:
            out["continue"] = self.continue_turn
        if self.updated_output is not None:
            out["updated_output"] = self.updated_output
        return out


_PLAIN = Verdict(seam=Seam.TOOL_PRE).__dict__.copy()


def plain_verdict(seam: Seam, original_input: Mapping[str, Any] | None) -> Verdict:
    """``Verdict(seam=seam, original_input=x, effective_input=x)``, built in half the time.

    The kernel's no-match path answers with this on every dispatch that runs nothing; filling
    the instance's ``__dict__`` from a template skips attrs' field-by-field frozen setattr.
    """
    verdict: Verdict = object.__new__(Verdict)
    fields = verdict.__dict__
    fields.update(_PLAIN)
    fields["seam"] = seam
    fields["original_input"] = fields["effective_input"] = original_input
    return verdict


def _source_json(source: Source) -> dict[str, Any]:
    return {
        "kind": source.kind.value,
        "name": source.name,
        "dialect": source.dialect,
        "event": source.event,
        "label": source.label(),
    }
