"""From one Codex hook's outcome to an :class:`~hookwire.Answer`, and from the answers of one
event to what Codex would do with them.

Per hook (:func:`interpret`): exit 0 parses stdout (trimmed; empty is a no-op) as exactly one
JSON object validated against ``schemas/<event>.output.schema.json`` and then by Codex's
semantic rules; text that starts with ``{``/``[`` but does not parse is a failure; other text is
ignored, taken as context (SessionStart, SubagentStart, UserPromptSubmit) or a failure (Stop,
SubagentStop). Exit 2 acts with stderr where the event allows it. Any other end is a failure.
An invalid reply keeps its ``systemMessage`` and loses everything else. Failures fail open.

``continue: false`` ends the current turn (``Halt.scope == "turn"``), not the session, as
Codex does.

Per event (:func:`combine`): Codex's combination rules, folded in configured order except
``updatedInput`` (the hook that finished last wins), with context spilling.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import attrs

from hookwire.dialect import HookEntry
from hookwire.dialects.codex import _schema, _spill
from hookwire.dialects.codex import events as ev
from hookwire.dialects.codex.config import MAX_DEPTH
from hookwire.dialects.codex.handler import handler_of
from hookwire.events import SeamEvent
from hookwire.runner import Outcome, OutcomeKind
from hookwire.verdicts import Answer, Context, Decision, Halt, Source, SourceKind
from hookwire.wire import parse_json

_SLUGS = {name: re.sub(r"(?<!^)(?=[A-Z])", "-", name).lower() for name in ev.EVENTS}
#: Events whose plain (non-JSON) stdout becomes additional context.
_PLAIN_CONTEXT = frozenset({"SessionStart", "SubagentStart", "UserPromptSubmit"})
#: How Codex names each event in "hook returned invalid ... JSON output".
_INVALID_NAME = {
    "PreToolUse": "pre-tool-use", "PermissionRequest": "permission-request",
    "PostToolUse": "post-tool-use", "UserPromptSubmit": "user prompt submit",
    "Stop": "stop hook", "SubagentStop": "subagent stop hook",
    "SessionStart": "session start", "SubagentStart": "subagent start",
    "PreCompact": "PreCompact hook", "PostCompact": "PostCompact hook",
}
_EXIT2_MISSING = {
    "PreToolUse": "did not write a blocking reason to stderr",
    "UserPromptSubmit": "did not write a blocking reason to stderr",
    "PermissionRequest": "did not write a denial reason to stderr",
    "PostToolUse": "did not write feedback to stderr",
    "Stop": "did not write a continuation prompt to stderr",
    "SubagentStop": "did not write a continuation prompt to stderr",
}
_NO_STATUS_TERMINATED = frozenset({"PreCompact", "PostCompact", "SessionEnd",
                                   "PreModelRequest", "PostModelRequest"})


def source_of(entry: HookEntry, native: str) -> Source:
    return Source(kind=SourceKind.HOOK, name=entry.display, dialect="codex", event=native)


def _trimmed(text: str | None) -> str | None:
    text = (text or "").strip()
    return text or None


# -- one hook ------------------------------------------------------------------------------------


def interpret(entry: HookEntry, event: SeamEvent, native: str, outcome: Outcome) -> Answer:
    """Codex's reading of one hook run (never raises for a bad hook)."""
    src = source_of(entry, native)
    failure = _failure(entry, native, outcome)
    if failure is not None:
        return Answer(diagnostics=(failure,), source=src)
    stdout = outcome.stdout.decode("utf-8", "replace")  # Codex reads both streams lossily
    stderr = outcome.stderr.decode("utf-8", "replace")
    code = outcome.exit_code
    if native == "SessionEnd":  # stdout ignored entirely
        if code == 0:
            return Answer(source=src)
        return _fail(src, _trimmed(stderr) or f"hook exited with code {code}")
    if code != 0 and native in ("PreCompact", "PostCompact"):
        return _fail(src, _trimmed(stderr) or f"hook exited with code {code}")
    if code == 2:
        return _exit2(native, event, src, stderr)
    if code != 0:
        return _fail(src, f"hook exited with code {code}")
    text = stdout.strip()
    if not text:
        return Answer(source=src)
    data = _parse(native, text)
    if data is None:
        if native in ("Stop", "SubagentStop") or text.startswith(("{", "[")):
            return _fail(src, f"hook returned invalid {_INVALID_NAME[native]} JSON output")
        if native in _PLAIN_CONTEXT:
            return Answer(contexts=(Context(text=text, source=src),), source=src)
        return Answer(source=src)  # plain text is ignored
    answer: Answer = _READERS[native](data, event, src)
    return answer


def _failure(entry: HookEntry, native: str, outcome: Outcome) -> str | None:
    kind = outcome.kind
    if kind in (OutcomeKind.EXITED, OutcomeKind.NOT_UTF8):
        return None
    if kind is OutcomeKind.TIMED_OUT:
        return f"hook timed out after {int(entry.timeout or ev.DEFAULT_TIMEOUT)}s"
    if kind is OutcomeKind.FAILED_TO_START:
        return f"failed to spawn hook: {outcome.start_error}"
    if kind is OutcomeKind.OVER_CAP:
        return "hook output exceeded hookwire's output cap (named divergence D9)"
    if kind is OutcomeKind.CANCELLED:
        return "hook was cancelled"
    if native in _NO_STATUS_TERMINATED:
        return "hook process terminated without an exit code"
    return "hook exited without a status code"


def _fail(src: Source, message: str, messages: Sequence[str] = ()) -> Answer:
    return Answer(diagnostics=(message,), system_messages=tuple(messages), source=src)


def _parse(native: str, text: str) -> dict[str, Any] | None:
    """Exactly one JSON object that the event's output schema accepts, else ``None``."""
    try:
        data = parse_json(text, max_depth=MAX_DEPTH)  # serde_json's limit
    except ValueError:
        return None
    if not isinstance(data, dict) or native not in _READERS:
        return None
    schema = _schema.load(f"{_SLUGS[native]}.output")
    return None if _schema.errors(data, schema) else data


def _exit2(native: str, event: SeamEvent, src: Source, stderr: str) -> Answer:
    reason = _trimmed(stderr)
    if native not in _EXIT2_MISSING:
        return _fail(src, "hook exited with code 2")
    if reason is None:
        return _fail(src, f"{native} hook exited with code 2 but {_EXIT2_MISSING[native]}")
    if native == "PreToolUse" or native == "PermissionRequest":
        return Answer(decision=Decision.DENY, reason=reason, source=src)
    if native == "PostToolUse":
        return Answer(decision=Decision.BLOCK, reason=reason, updated_output=reason, source=src)
    return Answer(decision=Decision.BLOCK, reason=reason, source=src)


def _messages(data: Mapping[str, Any]) -> tuple[str, ...]:
    msg = data.get("systemMessage")
    return (msg,) if msg is not None else ()


def _hso(data: Mapping[str, Any]) -> Mapping[str, Any]:
    return data.get("hookSpecificOutput") or {}


def _contexts(data: Mapping[str, Any], src: Source) -> tuple[Context, ...]:
    text = _hso(data).get("additionalContext")
    return (Context(text=text, source=src),) if text is not None else ()


def _unsupported_universal(native: str, data: Mapping[str, Any]) -> str | None:
    if data.get("continue") is False:
        return f"{native} hook returned unsupported continue:false"
    if data.get("stopReason") is not None:
        return f"{native} hook returned unsupported stopReason"
    if data.get("suppressOutput") is True:
        return f"{native} hook returned unsupported suppressOutput"
    return None


def _pre_tool_use(data: dict[str, Any], event: SeamEvent, src: Source) -> Answer:
    msgs = _messages(data)
    hso = _hso(data)
    decision, why = hso.get("permissionDecision"), hso.get("permissionDecisionReason")
    updated = hso.get("updatedInput")
    use_hso = decision is not None or why is not None or updated is not None
    invalid = _unsupported_universal("PreToolUse", data)
    if invalid is None and use_hso:
        if updated is not None and decision != "allow":
            invalid = "PreToolUse hook returned updatedInput without permissionDecision:allow"
        elif decision in ("allow", "ask") and (decision == "ask" or updated is None):
            invalid = f"PreToolUse hook returned unsupported permissionDecision:{decision}"
        elif decision == "deny" and _trimmed(why) is None:
            invalid = ("PreToolUse hook returned permissionDecision:deny without a non-empty "
                       "permissionDecisionReason")
        elif decision is None and why is not None:
            invalid = ("PreToolUse hook returned permissionDecisionReason without "
                       "permissionDecision")
    elif invalid is None:
        legacy, reason = data.get("decision"), data.get("reason")
        if legacy == "approve":
            invalid = "PreToolUse hook returned unsupported decision:approve"
        elif legacy == "block" and _trimmed(reason) is None:
            invalid = "PreToolUse hook returned decision:block without a non-empty reason"
        elif legacy is None and reason is not None:
            invalid = "PreToolUse hook returned reason without decision"
    if invalid is not None:
        return _fail(src, invalid, msgs)
    contexts = _contexts(data, src)
    block = _trimmed(why) if use_hso and decision == "deny" else (
        _trimmed(data.get("reason")) if not use_hso and data.get("decision") == "block"
        else None)
    if block is not None:
        return Answer(decision=Decision.DENY, reason=block, contexts=contexts,
                      system_messages=msgs, source=src)
    if updated is None:
        return Answer(contexts=contexts, system_messages=msgs, source=src)
    effective = _rewrite(event, updated)
    if effective is None:
        return Answer(contexts=contexts, system_messages=msgs, source=src, diagnostics=(
            "updatedInput is not a JSON object: ignored (named divergence D10)",))
    return Answer(updated_input=effective, contexts=contexts, system_messages=msgs, source=src)


def _rewrite(event: SeamEvent, updated: Any) -> dict[str, Any] | None:
    """The host input after ``updatedInput``: for Bash only ``command`` is replaced."""
    if not isinstance(updated, dict):
        return None
    original = dict(getattr(event, "tool_input", {}) or {})
    name = getattr(event, "tool_name", "")
    if ev.canonical_tool(name) == "Bash" and "command" in updated:
        return {**original, "command": updated["command"]}
    return dict(updated)


def _permission_request(data: dict[str, Any], event: SeamEvent, src: Source) -> Answer:
    msgs = _messages(data)
    decision = _hso(data).get("decision")
    invalid = _unsupported_universal("PermissionRequest", data)
    if invalid is None and decision is not None:
        for key in ("updatedInput", "updatedPermissions"):
            if decision.get(key) is not None:
                invalid = f"PermissionRequest hook returned unsupported {key}"
                break
        else:
            if decision.get("interrupt") is True:
                invalid = "PermissionRequest hook returned unsupported interrupt:true"
    if invalid is not None:
        return _fail(src, invalid, msgs)
    if decision is None:
        return Answer(system_messages=msgs, source=src)
    if decision["behavior"] == "allow":
        return Answer(decision=Decision.ALLOW, system_messages=msgs, source=src)
    message = _trimmed(decision.get("message")) or "PermissionRequest hook denied approval"
    return Answer(decision=Decision.DENY, reason=message, system_messages=msgs, source=src)


def _post_tool_use(data: dict[str, Any], event: SeamEvent, src: Source) -> Answer:
    msgs = _messages(data)
    block = data.get("decision") == "block"
    reason = data.get("reason")
    go_on = data.get("continue", True)
    invalid = None
    if data.get("suppressOutput") is True:
        invalid = "PostToolUse hook returned unsupported suppressOutput"
    elif _hso(data).get("updatedMCPToolOutput") is not None:
        invalid = "PostToolUse hook returned unsupported updatedMCPToolOutput"
    elif block and _trimmed(reason) is None:
        invalid = "PostToolUse hook returned decision:block without a non-empty reason"
    elif not block and go_on and reason is not None:
        invalid = "PostToolUse hook returned reason without decision"
    if invalid is not None:
        return _fail(src, invalid, msgs)
    contexts = _contexts(data, src)
    if not go_on:  # "stopped": the model gets this text as the tool result, the turn goes on
        text = (_trimmed(reason) or _trimmed(data.get("stopReason"))
                or "PostToolUse hook stopped execution")
    elif block:
        text = _trimmed(reason) or ""
    else:
        return Answer(contexts=contexts, system_messages=msgs, source=src)
    return Answer(decision=Decision.BLOCK, reason=text, updated_output=text, contexts=contexts,
                  system_messages=msgs, source=src)


def _blocking(native: str, halts: bool, blocks_on_stop: bool):  # type: ignore[no-untyped-def]
    """Readers of the events with ``decision: block`` and/or ``continue: false``."""

    def read(data: dict[str, Any], event: SeamEvent, src: Source) -> Answer:
        msgs = _messages(data)
        block = data.get("decision") == "block"
        reason = data.get("reason")
        if block and _trimmed(reason) is None:
            return _fail(src, f"{native} hook returned decision:block without a non-empty "
                              "reason", msgs)
        contexts = _contexts(data, src)
        answer = Answer(contexts=contexts, system_messages=msgs, source=src)
        if data.get("continue") is False:
            stop = data.get("stopReason")
            if blocks_on_stop:
                answer = attrs.evolve(answer, decision=Decision.BLOCK,
                                      reason=_trimmed(reason) or _trimmed(stop))
            if halts:
                answer = attrs.evolve(answer, halt=Halt(reason=stop, source=src, scope="turn"))
            return answer
        if block:
            return attrs.evolve(answer, decision=Decision.BLOCK, reason=_trimmed(reason))
        return answer

    return read


def _no_block(native: str, halts: bool, blocks_on_stop: bool = False):  # type: ignore[no-untyped-def]
    def read(data: dict[str, Any], event: SeamEvent, src: Source) -> Answer:
        answer = Answer(contexts=_contexts(data, src), system_messages=_messages(data),
                        source=src)
        if data.get("continue") is False:
            if blocks_on_stop:
                answer = attrs.evolve(answer, decision=Decision.BLOCK,
                                      reason=_trimmed(data.get("stopReason")))
            if halts:
                answer = attrs.evolve(answer, halt=Halt(reason=data.get("stopReason"),
                                                        source=src, scope="turn"))
        return answer

    return read


_READERS = {
    "PreToolUse": _pre_tool_use,
    "PermissionRequest": _permission_request,
    "PostToolUse": _post_tool_use,
    "UserPromptSubmit": _blocking("UserPromptSubmit", halts=False, blocks_on_stop=True),
    "Stop": _blocking("Stop", halts=True, blocks_on_stop=False),
    "SubagentStop": _blocking("SubagentStop", halts=True, blocks_on_stop=False),
    "SessionStart": _no_block("SessionStart", halts=True),
    "SubagentStart": _no_block("SubagentStart", halts=False),
    "PreCompact": _no_block("PreCompact", halts=True, blocks_on_stop=True),
    "PostCompact": _no_block("PostCompact", halts=True),
}


# -- one event -----------------------------------------------------------------------------------


def combine(native: str, results: Sequence[tuple[HookEntry, Answer]], *, session_id: str,
            spill_dir: Path) -> list[Answer]:
    """Codex's combination of one event's answers (``results`` in finish order).

    Answers come back in configured order, rewritten so the generic fold yields Codex's result.
    """
    finished_last = {id(a): i for i, (_, a) in enumerate(results)}
    ordered = sorted(results, key=lambda r: r[0].order)
    out: list[Answer] = []
    for entry, answer in ordered:
        limit = handler_of(entry).effective_context_limit

        def fit(text: str, limit: int = limit) -> str:
            return _spill.maybe_spill(text, limit=limit, root=spill_dir, thread_id=session_id)

        if answer.contexts:
            answer = attrs.evolve(answer, contexts=tuple(
                attrs.evolve(c, text=fit(c.text)) for c in answer.contexts))
        if answer.reason and native in ("Stop", "SubagentStop", "PostToolUse") and \
                answer.decision is Decision.BLOCK:
            text = fit(answer.reason)
            answer = attrs.evolve(answer, reason=text, updated_output=(
                text if native == "PostToolUse" else answer.updated_output))
        out.append(answer)

    blocked = [a for a in out if a.decision in (Decision.DENY, Decision.BLOCK)]
    if native == "PreToolUse":
        # First blocking hook in configured order gives the reason; a block drops rewrites;
        # otherwise the rewrite of the hook that finished last wins.
        last = max((a for _, a in results if a.updated_input is not None),
                   key=lambda a: finished_last[id(a)], default=None)
        out = [_keep_reason(a, a is _first(blocked)) for a in out]
        out = [a if (a.updated_input is None or (not blocked and _same(a, last, results, out)))
               else attrs.evolve(a, updated_input=None) for a in out]
    elif native == "PermissionRequest":
        denies = [a for a in out if a.decision is Decision.DENY]
        out = [_keep_reason(a, a is _first(denies)) if a.decision is Decision.DENY else a
               for a in out]
    elif native in ("Stop", "SubagentStop") and blocked:
        if any(a.halt is not None for a in out):
            # continue:false wins over any continuation
            return [attrs.evolve(a, decision=Decision.NONE, reason=None)
                    if a.decision is Decision.BLOCK else a for a in out]
        # each blocking hook is one <hook_prompt> fragment, named by its hook_run_id
        out = [attrs.evolve(a, source=attrs.evolve(a.source, run_id=run_id(native, e)))
               if a.decision is Decision.BLOCK else a
               for (e, _), a in zip(ordered, out, strict=True)]
    elif native == "PostToolUse" and blocked:
        joined = "\n\n".join(a.reason or "" for a in blocked if a.reason)
        first = blocked[0]
        out = [attrs.evolve(a, reason=joined, updated_output=joined) if a is first else
               (attrs.evolve(a, reason=None, updated_output=None) if a in blocked else a)
               for a in out]
    return out


def run_id(native: str, entry: HookEntry) -> str:
    """Codex's ``hook_run_id`` of a Stop/SubagentStop hook: ``<event>:<display order>:<source
    path>``. A hook not read from a Codex file counts by its configuration order and names the
    file it came from."""
    order = handler_of(entry).display_order
    return f"{ev.LABELS[native]}:{entry.order if order is None else order}:{entry.location.file}"


def _first(answers: Sequence[Answer]) -> Answer | None:
    return answers[0] if answers else None


def _keep_reason(answer: Answer, keep: bool) -> Answer:
    return answer if keep or answer.reason is None else attrs.evolve(answer, reason=None)


def _same(a: Answer, last: Answer | None, results: Sequence[tuple[HookEntry, Answer]],
          out: Sequence[Answer]) -> bool:
    """Whether ``a`` (a possibly rewritten answer) carries the rewrite of ``last``."""
    return last is not None and a.updated_input is not None and a.updated_input is \
        last.updated_input


def blocked_tool_output(tool_name: str, tool_input: Mapping[str, Any], reason: str) -> str:
    """What Codex gives the model in place of a tool call a PreToolUse hook blocked."""
    name = ev.canonical_tool(tool_name)
    if name in ("Bash", "apply_patch"):
        return (f"Command blocked by PreToolUse hook: {reason}. "
                f"Command: {tool_input.get('command', '')}")
    return f"Tool call blocked by PreToolUse hook: {reason}. Tool: {name}"
