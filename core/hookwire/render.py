"""What the model reads: a verdict rendered into the text and placement a harness gives it.

Each dialect renders the part of a verdict its own hooks produced (:meth:`Dialect.render`), in
its harness's exact wording and place (Claude Code's ``PreToolUse:Bash hook error: …``, its
Stop feedback inside a ``<system-reminder>``, Codex's ``Command blocked by PreToolUse hook:
…``). :func:`render` splits a folded verdict by dialect and asks each; native plugins and the
kernel get hookwire's neutral labelled form (:func:`neutral`), which a host may also choose for
everything. Hook text is always labelled with its source: never the user's words.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import attrs

from hookwire.events import Seam
from hookwire.verdicts import Context, Decision, Source, Verdict


class Placement(enum.StrEnum):
    """Where a text goes in the conversation the model reads."""

    TOOL_RESULT = "tool_result"                #: is the tool call's result (replaces it)
    BEFORE_TOOL_RESULT = "before_tool_result"  #: a message just before the tool result
    AFTER_TOOL_RESULT = "after_tool_result"    #: a message right after the tool result
    BEFORE_PROMPT = "before_prompt"            #: a message before the user's prompt
    AFTER_PROMPT = "after_prompt"              #: a message after the user's prompt
    NEXT_USER_MESSAGE = "next_user_message"    #: a new user-role message, then a new request
    SYSTEM = "system"                          #: a message before the next model request
    RESULT = "result"                          #: the run's result, shown to the user only

    def __str__(self) -> str:
        return self.value


@attrs.frozen(kw_only=True)
class ModelText:
    """One text the model reads: ``role`` (``tool``, ``system``, ``developer``, ``user``) and
    ``placement`` say where; ``source`` is the hook or plugin it came from (label it so)."""

    text: str
    placement: Placement
    role: str = "system"
    source: Source | None = None
    is_error: bool = False


@attrs.frozen(kw_only=True)
class Subject:
    """What a verdict was about: the tool call (name and input as the host ran it) or the
    user's prompt; the wording of some renderings names them."""

    tool_name: str = ""
    tool_input: Mapping[str, Any] = attrs.field(factory=dict)
    prompt: str = ""


def no_approval_surface(reason: str | None) -> str:
    """The refusal of an ``ask`` in a session with no way to ask anyone, worded as Claude Code
    2.1.332 words it (``--permission-prompts none``), with the hook's reason."""
    what = f" What required approval: {reason}" if reason else ""
    return ("Permission for this tool use was denied. It requires approval, and this session "
            f"has no approval surface.{what}")


def render_context(context: Context) -> str:
    """hookwire's neutral form of a context: labelled with its source."""
    return f"[hookwire: context from {context.source.label()}]\n{context.text}"


def render_feedback(kind: str, verdict: Verdict) -> str:
    """hookwire's neutral form of hook feedback (a stop continuation, a post-tool block)."""
    who = verdict.reasons[0].source.label() if verdict.reasons else "hookwire"
    return f"[hookwire: {kind} from {who}]\n{verdict.reason or ''}".rstrip()


_CONTEXT_PLACE = {
    Seam.TOOL_PRE: Placement.AFTER_TOOL_RESULT, Seam.TOOL_POST: Placement.AFTER_TOOL_RESULT,
    Seam.TOOL_FAILURE: Placement.AFTER_TOOL_RESULT, Seam.TOOL_BATCH: Placement.SYSTEM,
    Seam.PROMPT_SUBMIT: Placement.AFTER_PROMPT, Seam.SESSION_START: Placement.AFTER_PROMPT,
    Seam.SUBAGENT_START: Placement.BEFORE_PROMPT,
}


def neutral(verdict: Verdict, subject: Subject) -> list[ModelText]:
    """hookwire's neutral labelled rendering (what hosts did before dialects rendered)."""
    seam = verdict.seam
    out: list[ModelText] = []
    src = verdict.reasons[0].source if verdict.reasons else None
    if seam in (Seam.TOOL_PRE, Seam.APPROVE) and verdict.denied:
        out.append(ModelText(text=verdict.reason or "denied by a hook", role="tool",
                             placement=Placement.TOOL_RESULT, source=src, is_error=True))
    elif seam in (Seam.TOOL_POST, Seam.TOOL_FAILURE):
        if verdict.updated_output is not None:
            out.append(ModelText(text=str(verdict.updated_output), role="tool",
                                 placement=Placement.TOOL_RESULT, source=src))
        if verdict.decision is Decision.BLOCK and verdict.reason:
            out.append(ModelText(text=render_feedback("PostToolUse feedback", verdict),
                                 placement=Placement.AFTER_TOOL_RESULT, source=src))
    elif seam is Seam.PROMPT_SUBMIT and (verdict.denied or verdict.halt is not None):
        out.append(ModelText(text=verdict.reason or (verdict.halt.reason if verdict.halt
                                                      else None) or "blocked by a hook",
                             placement=Placement.RESULT, source=src))
    elif verdict.continue_turn:
        out.append(ModelText(text=render_feedback("Stop hook feedback", verdict),
                             placement=Placement.SYSTEM, source=src))
    place = _CONTEXT_PLACE.get(seam, Placement.SYSTEM)
    out += [ModelText(text=render_context(c), placement=place, source=c.source)
            for c in verdict.contexts]
    return out


def render(verdict: Verdict, dialect: Callable[[str], Any], subject: Subject | None = None, *,
           neutral_form: bool = False) -> list[ModelText]:
    """``verdict`` as the model reads it: each dialect renders what its hooks produced
    (``dialect`` looks one up by name: ``kernel.dialect``), everything else is neutral.
    ``neutral_form``: hookwire's labelled form for all of it."""
    subject = subject or Subject()
    if neutral_form:
        return neutral(verdict, subject)
    names: list[str | None] = []
    for source in [r.source for r in verdict.reasons] + [c.source for c in verdict.contexts]:
        if source.dialect not in names:
            names.append(source.dialect)
    if verdict.halt is not None and verdict.halt.source.dialect not in names:
        names.append(verdict.halt.source.dialect)
    if not names:
        names.append(None)
    out: list[ModelText] = []
    for name in names:
        part = _part(verdict, name, first=name == names[0])
        try:
            renderer = dialect(name).render if name is not None else None
        except Exception:  # an unknown dialect: say it neutrally rather than not at all
            renderer = None
        out += renderer(part, subject) if renderer is not None else neutral(part, subject)
    return out


def _part(verdict: Verdict, name: str | None, *, first: bool) -> Verdict:
    """The share of ``verdict`` that ``name``'s hooks (``None``: plugins, kernel) produced."""
    reasons = tuple(r for r in verdict.reasons if r.source.dialect == name)
    winning = [r.text for r in reasons if r.decision.rank == verdict.decision.rank]
    mine = bool(winning) or (first and not verdict.reasons)
    halt = verdict.halt if verdict.halt is not None and \
        verdict.halt.source.dialect == name else None
    return attrs.evolve(
        verdict, decision=verdict.decision if mine else Decision.NONE,
        reason="\n".join(winning) if winning else (verdict.reason if mine else None),
        reasons=reasons, contexts=tuple(c for c in verdict.contexts if c.source.dialect == name),
        updated_output=verdict.updated_output if mine else None, halt=halt)


def texts_at(texts: Sequence[ModelText], *places: Placement) -> list[ModelText]:
    """The texts of ``texts`` placed at one of ``places``, in order."""
    return [t for t in texts if t.placement in places]


def texts_but(texts: Sequence[ModelText], *places: Placement) -> list[ModelText]:
    """The texts of ``texts`` not placed at any of ``places``, in order."""
    return [t for t in texts if t.placement not in places]


def first_text(texts: Sequence[ModelText], place: Placement) -> str | None:
    """The first text placed at ``place`` (``None``: none is)."""
    return next((t.text for t in texts if t.placement is place), None)


def tool_result(texts: Sequence[ModelText], verdict: Verdict, result: Any) -> Any:
    """What the model gets as a tool's result: the rendered replacement if any (a hook's
    structured ``updated_output`` as the hook gave it when that is all it is), else ``result``."""
    text = first_text(texts, Placement.TOOL_RESULT)
    if text is None:
        return result
    if verdict.updated_output is not None and text == str(verdict.updated_output):
        return verdict.updated_output
    return text


def source_label(text: ModelText) -> str:
    """Who a rendered text came from (a hook or plugin: never the user)."""
    return text.source.label() if text.source is not None else "hookwire"


__all__: Sequence[str] = ("ModelText", "Placement", "Subject", "first_text", "neutral",
                          "no_approval_surface", "render", "render_context", "render_feedback",
                          "source_label", "texts_at", "texts_but", "tool_result")
