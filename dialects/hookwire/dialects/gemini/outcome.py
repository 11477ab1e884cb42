"""What a Gemini CLI 0.61.0 hook's exit code and output mean, and how several hooks' answers
of one event combine.

One hook (:func:`parse`): the text read is stdout trimmed, or stderr trimmed when stdout is
empty; JSON (an object, or a string holding one) is the hook's output **whatever its exit
code**. Other text becomes an output by exit code: 0 → ``allow`` with the text as a system
message; 1 → ``allow`` with ``Warning: <text>``; any other → ``deny`` with the text as the
reason. A hook killed by a signal counts as exit 0. A timeout, a spawn failure, or no output
at all leave no output (the call goes ahead).

Several hooks (:func:`combine`), in configuration order: on BeforeTool, AfterTool,
BeforeAgent, AfterAgent and SessionStart a ``block``/``deny`` of any hook wins, else ``ask``;
every ``reason`` (blocking or not) joins with a newline, as do the system messages, the
``stopReason`` of the hooks that said ``continue: false``, and the ``additionalContext`` texts
(each escaped: ``<`` → ``&lt;``, ``>`` → ``&gt;``); of ``hookSpecificOutput`` the later hook's
fields win. The effective reason is the joined ``stopReason``, else the joined ``reason``,
else ``No reason provided``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

import attrs

from hookwire.dialect import HookEntry
from hookwire.dialects.gemini.events import CONTEXT_EVENTS, FLOW_EVENTS, OR_EVENTS
from hookwire.events import SeamEvent
from hookwire.runner import Outcome, OutcomeKind
from hookwire.verdicts import Answer, Context, Decision, Halt, Source

NO_REASON = "No reason provided"
#: What Gemini CLI appends to the result of a call a BeforeTool hook rewrote (0.61.0).
REWRITE_NOTICE = "[System] Tool input parameters were modified by a hook before execution."
_BLOCKING = ("block", "deny")


def parse(outcome: Outcome) -> tuple[dict[str, Any] | None, list[str]]:
    """The hook's output object (``None``: it has none) and diagnostics."""
    diags: list[str] = []
    if outcome.kind is OutcomeKind.TIMED_OUT:
        return None, ["hook timed out (Gemini CLI goes ahead)"]
    if outcome.kind in (OutcomeKind.FAILED_TO_START, OutcomeKind.CANCELLED):
        return None, [f"hook did not run: {outcome.start_error or outcome.kind.value}"]
    code = outcome.exit_code or 0  # killed by a signal: Node reports null, read as 0
    if code != 0:
        diags.append(f"hook exited with code {code}")
    stdout = outcome.stdout.decode("utf-8", "replace").strip()
    text = stdout or outcome.stderr.decode("utf-8", "replace").strip()
    if not text:
        return None, diags
    try:
        parsed = json.loads(text)
        if isinstance(parsed, str):
            parsed = json.loads(parsed)
    except ValueError:
        if code == 0:
            return {"decision": "allow", "systemMessage": text}, diags
        if code == 1:
            return {"decision": "allow", "systemMessage": f"Warning: {text}"}, diags
        return {"decision": "deny", "reason": text}, diags
    if isinstance(parsed, list):
        return {}, diags
    if isinstance(parsed, dict):
        return parsed, diags
    return None, diags


def escape(text: str) -> str:
    """``additionalContext`` as Gemini CLI passes it on: ``<`` and ``>`` escaped."""
    return text.replace("<", "&lt;").replace(">", "&gt;")


def _specific(output: Mapping[str, Any]) -> Mapping[str, Any]:
    found = output.get("hookSpecificOutput")
    return found if isinstance(found, Mapping) else {}


def _str(value: Any) -> str | None:
    return value if isinstance(value, str) and value else None


def interpret(entry: HookEntry, event: SeamEvent, native: str, outcome: Outcome,
              source: Source) -> Answer:
    """One hook's answer (before :func:`combine` applies Gemini's merge)."""
    output, diags = parse(outcome)
    if output is None:
        return Answer(diagnostics=tuple(diags))
    messages = (output["systemMessage"],) if _str(output.get("systemMessage")) else ()
    if native not in FLOW_EVENTS and native != "SessionStart":
        return Answer(system_messages=messages, diagnostics=tuple(diags))
    contexts: tuple[Context, ...] = ()
    context = _specific(output).get("additionalContext")
    if native in CONTEXT_EVENTS and isinstance(context, str) and context:
        contexts = (Context(text=escape(context), source=source),)
    if native == "SessionStart":  # advisory: decision and continue are ignored
        return Answer(contexts=contexts, system_messages=messages, diagnostics=tuple(diags))
    decision = Decision.NONE
    raw = output.get("decision")
    if raw in _BLOCKING:
        decision = Decision.DENY if native == "BeforeTool" else Decision.BLOCK
    elif raw == "ask" and native == "BeforeTool":
        decision = Decision.ASK
    reason = _str(output.get("reason"))
    halt = None
    if output.get("continue") is False:
        halt = Halt(reason=_str(output.get("stopReason")) or reason or NO_REASON,
                    source=source, scope="turn")
    updated = None
    tool_input = _specific(output).get("tool_input")
    if native == "BeforeTool" and isinstance(tool_input, Mapping):
        updated = dict(tool_input)
        contexts = (Context(text=REWRITE_NOTICE, source=source),)  # what the model reads
    if halt is not None and native != "AfterAgent":  # the call or the turn does not go on
        decision = Decision.DENY if native == "BeforeTool" else Decision.BLOCK
    if decision in (Decision.DENY, Decision.BLOCK):
        reason = reason or NO_REASON
    return Answer(decision=decision, reason=reason, updated_input=updated, contexts=contexts,
                  halt=halt, system_messages=messages, diagnostics=tuple(diags))


def combine(native: str, results: Sequence[tuple[HookEntry, Answer]]) -> list[Answer]:
    """Gemini CLI's merge of one event's answers (see the module docstring)."""
    if native not in OR_EVENTS or len(results) < 2:
        return [a for _, a in results]
    ordered = [a for _, a in sorted(results, key=lambda r: r[0].order)]
    blocking = [a for a in ordered if a.decision in (Decision.DENY, Decision.BLOCK)]
    asking = [a for a in ordered if a.decision is Decision.ASK]
    reasons = [a.reason for a in ordered if a.reason and a.reason != NO_REASON]
    halts = [a.halt for a in ordered if a.halt is not None]
    source = (blocking or asking or [a for a in ordered if a.halt] or ordered)[0].source
    decision = blocking[0].decision if blocking else (Decision.ASK if asking
                                                     else Decision.NONE)
    stop_reasons = [h.reason for h in halts if h.reason and h.reason != NO_REASON]
    halt = None
    if halts:
        halt = attrs.evolve(halts[0], reason="\n".join(stop_reasons) or "\n".join(reasons)
                            or NO_REASON)
    updated = next((a.updated_input for a in reversed(ordered)
                    if a.updated_input is not None), None)
    texts = [c.text for a in ordered for c in a.contexts]
    contexts: tuple[Context, ...] = (Context(text="\n".join(texts), source=next(
        c.source for a in ordered for c in a.contexts)),) if texts else ()
    if native == "BeforeTool":  # one notice for the rewrite that wins, none without one
        contexts = tuple(c for a in reversed(ordered) if a.updated_input is not None
                         for c in a.contexts)[:1]
    if halt is not None and native != "AfterAgent":
        decision = Decision.DENY if native == "BeforeTool" else Decision.BLOCK
    reason = "\n".join(reasons) or (NO_REASON if decision is not Decision.NONE else None)
    merged = Answer(decision=decision, reason=reason, updated_input=updated,
                    contexts=contexts, halt=halt,
                    system_messages=tuple(m for a in ordered for m in a.system_messages),
                    diagnostics=tuple(d for a in ordered for d in a.diagnostics),
                    source=source)
    return [merged]
