"""From one hook's outcome to its answer, by Claude Code 2.1.332's rules (observed).

* exit 2 blocks where the event can (stdout ignored); the reason is ``[<cmd>]: <stderr>``,
  stderr unchanged, trailing newline included (``No stderr output`` when empty);
* on any other exit, stdout that starts with ``{`` (after whitespace) and parses as a JSON
  object is the answer, whatever the exit code; one that fails the schema is ignored wholesale
  with a diagnostic; one that does not parse is plain text;
* plain stdout on exit 0 is context on UserPromptSubmit and SessionStart (and compaction text
  on PreCompact), and ignored elsewhere; on other exits it is a non-blocking error;
* a timeout, a signal or a failed start renders no decision, unless ``onFailure: "block"``.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from collections.abc import Mapping
from typing import Any

from hookwire.dialect import HookEntry
from hookwire.dialects.claude.events import (
    DISCARD_UNIVERSAL,
    EVENTS,
    ON_FAILURE_IGNORED,
    TOOL_EVENTS,
    hook_name,
)
from hookwire.dialects.claude.handler import handler_of
from hookwire.events import SeamEvent
from hookwire.runner import Outcome, OutcomeKind, PlanCache
from hookwire.verdicts import Answer, Context, Decision, Halt, Source, SourceKind
from hookwire.wire import parse_json

NO_VERDICT = "hook_no_verdict: A hook didn't answer in time, so it didn't check this action."
NO_VERDICT_FAILED = ("hook_no_verdict: A hook gave no usable answer, so it didn't check this "
                     "action.")
#: The reason of a PreToolUse deny that gave none (``PreToolUse:<tool> hook error: <this>``).
DENIED_NO_REASON = "Blocked by hook"
NO_USABLE_ANSWER = "A hook gave no usable answer"
#: additionalContext, systemMessage and plain stdout longer than this spill to a file.
CONTEXT_CAP = 10_000
PREVIEW_CHARS = 2_000

_BLOCK_ON_EXIT2: Mapping[str, Decision] = {
    "PreToolUse": Decision.DENY,
    "UserPromptSubmit": Decision.BLOCK, "Stop": Decision.BLOCK, "SubagentStop": Decision.BLOCK,
    "PreCompact": Decision.BLOCK, "PostToolUse": Decision.BLOCK,
    "PostToolUseFailure": Decision.BLOCK, "PostToolBatch": Decision.BLOCK,
}
_TOP_BLOCK = frozenset({"UserPromptSubmit", "PostToolUse", "PostToolUseFailure", "Stop",
                        "SubagentStop", "PreCompact", "PostToolBatch"})
_CONTEXT_LABEL = {"UserPromptSubmit", "SessionStart", "SubagentStart", "Stop", "SubagentStop"}
_ALL_DISCARDED = frozenset({"SessionEnd", "InstructionsLoaded", "StopFailure"})

# hookSpecificOutput fields per event: name -> checker (a type, a tuple of allowed values).
_STR, _BOOL, _OBJ, _LIST, _ANY = str, bool, dict, list, object
_HSO: Mapping[str, Mapping[str, Any]] = {
    "PreToolUse": {"permissionDecision": ("allow", "deny", "ask", "defer"),
                   "permissionDecisionReason": _STR, "updatedInput": _OBJ,
                   "additionalContext": _STR},
    "PostToolUse": {"additionalContext": _STR, "updatedToolOutput": _ANY,
                    "updatedMCPToolOutput": _ANY, "classifierContext": _STR},
    "PostToolUseFailure": {"additionalContext": _STR},
    "PostToolBatch": {"additionalContext": _STR},
    "UserPromptSubmit": {"additionalContext": _STR, "sessionTitle": _STR,
                         "suppressOriginalPrompt": _BOOL},
    "SessionStart": {"additionalContext": _STR, "initialUserMessage": _STR,
                     "sessionTitle": _STR, "watchPaths": _LIST, "reloadSkills": _BOOL},
    "SubagentStart": {"additionalContext": _STR},
    "Stop": {"additionalContext": _STR},
    "SubagentStop": {"additionalContext": _STR},
    "Notification": {"additionalContext": _STR},
    "PermissionRequest": {"decision": _OBJ},
}
_UNIVERSAL: Mapping[str, Any] = {
    "continue": _BOOL, "suppressOutput": _BOOL, "stopReason": _STR, "systemMessage": _STR,
    "decision": ("approve", "block"), "reason": _STR, "hookSpecificOutput": _OBJ,
    "terminalSequence": _STR,
}


class _Invalid(Exception):
    pass


def _check(where: str, value: Any, rule: Any) -> None:
    if value is None:
        return  # treated as absent
    if isinstance(rule, tuple):
        if value not in rule:
            raise _Invalid(f"{where}: expected one of {', '.join(rule)}, got {json.dumps(value)}")
    elif rule is not object and (not isinstance(value, rule) or
                                 (rule is not bool and isinstance(value, bool))):
        raise _Invalid(f"{where}: expected {rule.__name__}, got {json.dumps(value)[:60]}")


def validate(obj: Mapping[str, Any], native: str) -> None:
    """Raise :class:`_Invalid` when ``obj`` fails Claude Code's hook-output schema."""
    for key, rule in _UNIVERSAL.items():
        _check(key, obj.get(key), rule)
    hso = obj.get("hookSpecificOutput")
    if hso is None:
        return
    fields = _HSO.get(native)
    if fields is None:
        raise _Invalid(f"hookSpecificOutput: {native} has no hook-specific output")
    if hso.get("hookEventName") != native:
        raise _Invalid(f"hookSpecificOutput.hookEventName: expected {native!r}, "
                       f"got {json.dumps(hso.get('hookEventName'))}")
    for key, rule in fields.items():
        _check(f"hookSpecificOutput.{key}", hso.get(key), rule)
    decision = hso.get("decision")
    if native == "PermissionRequest" and decision is not None:
        _check("hookSpecificOutput.decision.behavior", decision.get("behavior"), ("allow", "deny"))
        if decision.get("behavior") is None:
            raise _Invalid("hookSpecificOutput.decision.behavior: required")
        for key, rule in (("updatedInput", _OBJ), ("updatedPermissions", _LIST),
                          ("message", _STR), ("interrupt", _BOOL)):
            _check(f"hookSpecificOutput.decision.{key}", decision.get(key), rule)


def parse_stdout(stdout: str) -> dict[str, Any] | None:
    """The JSON object on stdout, or ``None`` when stdout is plain text (Claude Code tries JSON
    only when the first non-whitespace character is ``{``)."""
    if not stdout.lstrip().startswith("{"):
        return None
    try:
        value = parse_json(stdout)  # any depth: a located ValueError, never recursion
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


#: Per (entry, native event, label): its command text, the Source of its answers and Claude
#: Code's hook name, the same for every run of the entry.
_NAMES = PlanCache()


class Interpreter:
    """Interprets one outcome of ``entry`` on ``native``."""

    def __init__(self, entry: HookEntry, event: SeamEvent, native: str) -> None:
        self.entry = entry
        self.event = event
        self.native = native
        label = self._label()
        if label is not None and type(label) is not str:
            label = str(label)  # as the f-string of hook_name would print it; hashable
        self.cmd, self.source, self.name = _NAMES.get(
            entry, _NAMES, (native, label), lambda: (
                entry.display, Source(kind=SourceKind.HOOK, name=entry.display,
                                      dialect="claude", event=native), hook_name(native, label)))

    def _label(self) -> str | None:
        if self.native in TOOL_EVENTS:
            return getattr(self.event, "tool_name", None)
        if self.native == "SessionStart":
            return getattr(self.event, "source", None)
        if self.native == "SubagentStart":
            return self.event.agent_type
        return None

    def answer(self, **kw: Any) -> Answer:
        return Answer(source=self.source, **kw)

    def run(self, outcome: Outcome) -> Answer:
        kind = outcome.kind
        if kind is OutcomeKind.EXITED and outcome.exit_code == 0 and not outcome.stdout:
            return self.answer()  # the usual run: success, nothing said
        if kind in (OutcomeKind.TIMED_OUT, OutcomeKind.CANCELLED):
            return self.failure("timed out", f"{self.name} hook timed out", NO_VERDICT)
        # Killed by a signal or not found: Claude Code 2.1.332 files both with the other
        # non-blocking errors (outcome "error", like exit 127) and adds a hook_no_verdict warning.
        if kind is OutcomeKind.FAILED_TO_START:
            return self.failure("failed", self.non_blocking(str(outcome.start_error or "")),
                                NO_VERDICT_FAILED)
        if kind is OutcomeKind.SIGNALED:
            return self.failure("failed", self.non_blocking(
                outcome.stderr.decode("utf-8", "replace")), NO_VERDICT_FAILED)
        if kind is OutcomeKind.OVER_CAP:
            return self.failure("failed", f"{self.name} hook wrote more output than hookwire "
                                "keeps", NO_VERDICT_FAILED)
        stdout = outcome.stdout.decode("utf-8", "replace")
        stderr = outcome.stderr.decode("utf-8", "replace")
        if outcome.exit_code == 2:
            return self.exit2(stderr)
        obj = parse_stdout(stdout)
        if obj is not None:
            try:
                validate(obj, self.native)
            except _Invalid as exc:
                return self.failure("failed", f"{self.name} hook: {NO_USABLE_ANSWER} "
                                    f"(JSON validation failed: {exc})")
            return self.from_json(obj)
        if outcome.exit_code == 0:
            return self.plain(stdout)
        more = (NO_VERDICT_FAILED,) if outcome.exit_code == 127 else ()  # command not found
        return self.failure("failed", self.non_blocking(stderr), *more)

    def non_blocking(self, stderr: str) -> str:
        """Claude Code's wording of a non-blocking error: the first stderr line."""
        first = stderr.strip().splitlines()[0] if stderr.strip() else ""
        return (f"{self.name} hook error: Failed with non-blocking status code: "
                f"{first or 'No stderr output'}")

    # -- failures and exit 2 ---------------------------------------------------------------

    def failure(self, what: str, diag: str, *more: str) -> Answer:
        diags = (diag, *more)
        on_failure = handler_of(self.entry).onFailure
        if on_failure == "block" and not self.entry.background:
            if self.native in ON_FAILURE_IGNORED:
                return self.answer(diagnostics=(
                    *diags, f'not blocking (onFailure: "block" is ignored on {self.native})'))
            decision = _BLOCK_ON_EXIT2.get(self.native)
            if decision is not None and EVENTS[self.native].can_block:
                reason = f'[{self.cmd}]: {what}; blocking because onFailure is "block"'
                return self.answer(decision=decision, reason=reason, diagnostics=diags)
        return self.answer(diagnostics=diags)

    def exit2(self, stderr: str) -> Answer:
        # stderr reaches the model byte for byte, its trailing newline included (observed)
        reason = f"[{self.cmd}]: {stderr if stderr.strip() else 'No stderr output'}"
        decision = _BLOCK_ON_EXIT2.get(self.native)
        if decision is None:
            note = ("exit 2 is not honoured on PermissionRequest" if self.native ==
                    "PermissionRequest" else f"{self.name} hook error: {reason}")
            return self.answer(diagnostics=(note,))
        return self.answer(decision=decision, reason=reason)

    # -- plain text and JSON -----------------------------------------------------------------

    def plain(self, stdout: str) -> Answer:
        text = stdout.rstrip("\n")
        if not text.strip():
            return self.answer()
        if self.native == "UserPromptSubmit":
            return self.answer(contexts=(self.context(
                f"UserPromptSubmit hook success: {self.cap(text, 'stdout')}"),))
        if self.native == "SessionStart":
            return self.answer(contexts=(self.context(
                f"{self.name} hook success: {self.cap(text, 'stdout')}"),))
        if self.native == "PreCompact":
            return self.answer(contexts=(self.context(self.cap(text, "stdout")),))
        return self.answer()

    def context(self, text: str) -> Context:
        return Context(text=text, source=self.source)

    def from_json(self, obj: Mapping[str, Any]) -> Answer:
        native = self.native
        if native in _ALL_DISCARDED:
            return self.answer()
        kw: dict[str, Any] = {}
        if native not in DISCARD_UNIVERSAL:
            if obj.get("continue") is False:
                kw["halt"] = Halt(reason=obj.get("stopReason"), source=self.source)
            if obj.get("systemMessage"):
                kw["system_messages"] = (self.cap(obj["systemMessage"], "systemMessage"),)
        decision, reason = Decision.NONE, obj.get("reason")
        top = obj.get("decision")
        if native == "PreToolUse" and top == "approve":
            decision = Decision.ALLOW
        elif top == "block" and native == "PreToolUse":
            decision = Decision.DENY
        elif top == "block" and native in _TOP_BLOCK:
            decision = Decision.BLOCK
        hso = obj.get("hookSpecificOutput") or {}
        contexts: list[Context] = []
        ctx = hso.get("additionalContext")
        if native == "PreToolUse":
            pd = hso.get("permissionDecision")
            if pd is not None:
                decision = Decision(pd)
                reason = hso.get("permissionDecisionReason")
            if hso.get("updatedInput") is not None and decision not in (Decision.DENY,
                                                                        Decision.DEFER):
                kw["updated_input"] = dict(hso["updatedInput"])
            if decision is Decision.DEFER:
                ctx = None
        elif native == "PostToolUse":
            tool = getattr(self.event, "tool_name", "")
            if hso.get("updatedToolOutput") is not None:
                kw["updated_output"] = hso["updatedToolOutput"]
            elif hso.get("updatedMCPToolOutput") is not None and tool.startswith("mcp__"):
                kw["updated_output"] = hso["updatedMCPToolOutput"]
        elif native == "PermissionRequest":
            pr = hso.get("decision")
            if pr:
                if pr["behavior"] == "allow":
                    decision, reason = Decision.ALLOW, None
                    if pr.get("updatedInput") is not None:
                        kw["updated_input"] = dict(pr["updatedInput"])
                else:
                    decision, reason = Decision.DENY, pr.get("message")
                    if pr.get("interrupt"):
                        kw["halt"] = Halt(reason=pr.get("message"), source=self.source)
        elif native in ("Stop", "SubagentStop") and ctx:
            decision = Decision.BLOCK  # additionalContext continues the turn (v2.1.163)
        if ctx and native != "Notification":
            label = (f"{native} hook additional context" if native in _CONTEXT_LABEL
                     else f"{self.name} hook additional context")
            contexts.append(self.context(f"{label}: {self.cap(ctx, 'additionalContext')}"))
        if decision is Decision.NONE:
            reason = None
        elif native == "PreToolUse" and decision is Decision.DENY and not reason:
            reason = DENIED_NO_REASON  # what Claude Code gives the model then (2.1.332)
        if "updatedInput" in hso and native != "PreToolUse":
            # Claude Code drops it without a word; the hook's author should hear it
            kw["diagnostics"] = (f"hookSpecificOutput.updatedInput is ignored on {native}: "
                                 "only PreToolUse (and a PermissionRequest decision) can "
                                 "change a tool's input",)
        return self.answer(decision=decision, reason=reason, contexts=tuple(contexts), **kw)

    def cap(self, text: str, field: str) -> str:
        """Claude Code's 10,000-character cap: spill to a file, keep a preview."""
        if len(text) <= CONTEXT_CAP:
            return text
        digest = hashlib.sha256(text.encode("utf-8", "replace")).hexdigest()[:12]
        tool_use_id = getattr(self.event, "tool_use_id", "") or "session"
        folder = os.path.join(tempfile.gettempdir(), f"hookwire-{os.getuid()}", "tool-results")
        os.makedirs(folder, mode=0o700, exist_ok=True)
        path = os.path.join(folder, f"hook-{tool_use_id}-{self.native}-{digest}-{field}.txt")
        with open(path, "w", encoding="utf-8", errors="replace") as fh:
            fh.write(text)
        size = len(text.encode("utf-8", "replace")) / 1024
        return (f"<persisted-output>\nOutput too large ({size:.1f}KB). Full output saved to: "
                f"{path}\n\nPreview (first 2KB):\n{text[:PREVIEW_CHARS]}\n...\n"
                "</persisted-output>")


def interpret(entry: HookEntry, event: SeamEvent, native: str, outcome: Outcome) -> Answer:
    """The answer of ``entry``'s run on ``native`` (never raises for a bad hook)."""
    return Interpreter(entry, event, native).run(outcome)
