"""What Codex CLI 0.171.0 gives the model for its hooks' answers (``docs/dialects/codex.md``,
"What the model reads").

* PreToolUse block: the function output ``Command blocked by PreToolUse hook: <reason>.
  Command: <command>`` (Bash, apply_patch), else ``Tool call blocked by PreToolUse hook:
  <reason>. Tool: <name>``;
* PostToolUse block / exit 2 / ``continue: false``: the reason replaces the tool output;
* ``additionalContext`` of a tool event: a developer message just before the tool output;
* SessionStart context: developer messages before the first user message; UserPromptSubmit
  context: developer messages after the prompt (kept even when the prompt is blocked);
* UserPromptSubmit block: the prompt is not sent; the reason is shown to the user only;
* Stop block: one user message, one ``<hook_prompt hook_run_id="stop:<display order>:<source
  path>">REASON</hook_prompt>`` per blocking hook in configured order (text and id XML-escaped).
"""

from __future__ import annotations

from hookwire.dialects.codex.outcome import blocked_tool_output
from hookwire.events import Seam
from hookwire.render import ModelText, Placement, Subject
from hookwire.verdicts import Decision, Verdict


def render(verdict: Verdict, subject: Subject) -> list[ModelText]:
    seam = verdict.seam
    out: list[ModelText] = []
    first = verdict.reasons[0].source if verdict.reasons else None
    ctx_place = {Seam.SESSION_START: Placement.BEFORE_PROMPT,
                 Seam.SUBAGENT_START: Placement.BEFORE_PROMPT,
                 Seam.PROMPT_SUBMIT: Placement.AFTER_PROMPT,
                 Seam.TOOL_PRE: Placement.BEFORE_TOOL_RESULT,
                 Seam.TOOL_POST: Placement.BEFORE_TOOL_RESULT,
                 Seam.TOOL_FAILURE: Placement.BEFORE_TOOL_RESULT}.get(seam, Placement.SYSTEM)
    if seam is Seam.TOOL_PRE and verdict.decision is Decision.DENY:
        out.append(ModelText(text=blocked_tool_output(subject.tool_name, subject.tool_input,
                                                      verdict.reason or ""),
                             placement=Placement.TOOL_RESULT, role="tool", source=first,
                             is_error=True))
    elif seam in (Seam.TOOL_POST, Seam.TOOL_FAILURE) and verdict.updated_output is not None:
        out.append(ModelText(text=str(verdict.updated_output), placement=Placement.TOOL_RESULT,
                             role="tool", source=first))
    elif seam is Seam.PROMPT_SUBMIT and verdict.denied:
        out.append(ModelText(text=verdict.reason or "", placement=Placement.RESULT,
                             source=first))
    elif seam in (Seam.STOP, Seam.SUBAGENT_STOP) and verdict.continue_turn:
        label = "stop" if seam is Seam.STOP else "subagent_stop"
        text = "".join(
            f'<hook_prompt hook_run_id="{_attr(r.source.run_id or f"{label}:{i}:")}">'
            f"{_text(r.text)}</hook_prompt>"
            for i, r in enumerate(verdict.reasons) if r.decision is Decision.BLOCK)
        out.append(ModelText(text=text, placement=Placement.NEXT_USER_MESSAGE, role="user",
                             source=first))
    out += [ModelText(text=c.text, placement=ctx_place, role="developer", source=c.source)
            for c in verdict.contexts]
    return out


def _text(value: str) -> str:
    """XML text, escaped as Codex escapes a fragment's text (``&``, ``<``, ``>``)."""
    return value.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _attr(value: str) -> str:
    """An XML attribute value, escaped as Codex escapes ``hook_run_id`` (quotes too)."""
    return _text(value).replace('"', "&quot;").replace("'", "&apos;")
