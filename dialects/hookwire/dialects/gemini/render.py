"""What Gemini CLI 0.61.0 gives the model for its hooks' answers (observed wording and
placement; ``docs/dialects/gemini.md``, "What the model reads").

* BeforeTool block (deny, block, exit 2, any other non-zero exit with text): the tool result,
  an error: ``Tool execution blocked: <reason>``; ``continue: false``: ``Agent execution
  stopped by hook: <reason>`` (and the agent stops); a rewrite: ``[System] Tool input
  parameters were modified by a hook before execution.`` after the result;
* AfterTool block: the reason alone replaces the result (an error);
* AfterTool ``additionalContext``: ``<hook_context>CTX</hook_context>`` after the result (Gemini
  appends it to the result text after a blank line);
* BeforeAgent ``additionalContext``: ``<hook_context>CTX</hook_context>`` right after the
  prompt (a part of the same user message); BeforeAgent block: no model request, the user
  reads ``Agent execution blocked: <reason>``;
* SessionStart ``additionalContext``: ``<hook_context>CTX</hook_context>`` before the prompt
  (Gemini prefixes the prompt text with it and a blank line);
* AfterAgent block: the reason alone, as a new user message, then a new model request.
"""

from __future__ import annotations

from hookwire.events import Seam
from hookwire.render import ModelText, Placement, Subject
from hookwire.verdicts import Decision, Verdict


def wrap(text: str) -> str:
    return f"<hook_context>{text}</hook_context>"


def render(verdict: Verdict, subject: Subject) -> list[ModelText]:
    seam = verdict.seam
    out: list[ModelText] = []
    first = verdict.reasons[0].source if verdict.reasons else None
    halt = verdict.halt
    if seam is Seam.TOOL_PRE and verdict.decision in (Decision.DENY, Decision.BLOCK):
        text = (f"Agent execution stopped by hook: {halt.reason}" if halt is not None
                else f"Tool execution blocked: {verdict.reason or ''}")
        out.append(ModelText(text=text, placement=Placement.TOOL_RESULT, role="tool",
                             source=first or (halt.source if halt else None), is_error=True))
    elif seam in (Seam.TOOL_POST, Seam.TOOL_FAILURE) and (
            verdict.decision is Decision.BLOCK or halt is not None):
        why = (f"Agent execution stopped by hook: {halt.reason}" if halt is not None
               else verdict.reason)
        out.append(ModelText(text=why or "", placement=Placement.TOOL_RESULT, role="tool",
                             source=first or (halt.source if halt else None), is_error=True))
    elif seam is Seam.PROMPT_SUBMIT and (verdict.denied or halt is not None):
        why = verdict.reason or (halt.reason if halt is not None else "") or ""
        out.append(ModelText(text=f"Agent execution blocked: {why}",
                             placement=Placement.RESULT, source=first))
    elif seam is Seam.STOP and verdict.continue_turn:
        out.append(ModelText(text=verdict.reason or "", placement=Placement.NEXT_USER_MESSAGE,
                             role="user", source=first))
    place = {Seam.SESSION_START: Placement.BEFORE_PROMPT,
             Seam.PROMPT_SUBMIT: Placement.AFTER_PROMPT}.get(seam, Placement.AFTER_TOOL_RESULT)
    if seam is Seam.TOOL_PRE and not out and verdict.input_rewritten:
        # Gemini appends its notice to the result of the rewritten call
        out += [ModelText(text=c.text, placement=Placement.AFTER_TOOL_RESULT, role="tool",
                          source=c.source) for c in verdict.contexts]
    blocked = bool(out) and seam is not Seam.STOP
    if not blocked and seam in (Seam.TOOL_POST, Seam.TOOL_FAILURE, Seam.PROMPT_SUBMIT,
                                Seam.SESSION_START):
        out += [ModelText(text=wrap(c.text), placement=place, role="user" if seam in (
            Seam.PROMPT_SUBMIT, Seam.SESSION_START) else "tool", source=c.source)
            for c in verdict.contexts]
    return out
