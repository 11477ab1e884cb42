"""The host driver's vocabulary: its exceptions, answers and text helpers (re-exported by
:mod:`hookwire.driver`, which documents them)."""

from __future__ import annotations

import enum
import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

import attrs

from hookwire.errors import HookwireError
from hookwire.render import (
    ModelText,
    Placement,
    Subject,
    first_text,
    render,
    render_feedback,
    texts_but,
)
from hookwire.verdicts import KERNEL, Halt, Verdict


class RunHalted(HookwireError, RuntimeError):
    """A hook answered ``continue: false``: the adapter ended the run. ``halt`` says who and why."""

    def __init__(self, halt: Halt) -> None:
        self.halt = halt
        self.reason = halt.reason
        super().__init__(f"run halted by {halt.source.label()}: {halt.reason or '(no reason)'}")


class PromptBlocked(HookwireError, RuntimeError):
    """A ``prompt_submit`` hook blocked the prompt: the model was never called."""

    def __init__(self, reason: str | None, verdict: Verdict, text: str | None = None) -> None:
        self.reason = reason
        self.verdict = verdict
        #: What the harness shows the user instead of a model reply (Claude Code's
        #: ``UserPromptSubmit operation blocked by hook: …``; the reason in the neutral form).
        self.text = text if text is not None else reason
        super().__init__(f"prompt blocked by a hook: {reason or '(no reason given)'}")


class ToolBatchBlocked(RunHalted):
    """A ``tool_batch`` hook blocked: the run ended after the tool calls, before the next model
    request. ``reason`` says why; the session is not halted, the next run goes on as usual.
    ``text`` is what the harness shows as the run's result (the neutral labelled form where
    it has none); ``texts``: the hooks' other texts, for the model's history."""

    def __init__(self, verdict: Verdict, rendered: Sequence[ModelText] = ()) -> None:
        source = verdict.reasons[0].source if verdict.reasons else KERNEL
        super().__init__(Halt(reason=verdict.reason, source=source))
        self.verdict = verdict
        self.source = source
        self.text = first_text(rendered, Placement.RESULT) or render_feedback(
            "PostToolBatch block", verdict)
        self.texts = texts_but(rendered, Placement.RESULT)


class Renderer:
    """Verdicts into what the model reads: each dialect's own wording and placement, or the
    neutral labelled form (``neutral=True``). A mapped runtime tool is named as the hooks saw
    it (its harness name and fields)."""

    def __init__(self, kernel: Any, *, neutral: bool = False) -> None:
        self.kernel = kernel
        self.neutral = neutral

    def __call__(self, verdict: Verdict, *, tool_name: str | None = None,
                 tool_input: Mapping[str, Any] | None = None,
                 prompt: str | None = None) -> list[ModelText]:
        name, args = tool_name or "", dict(tool_input or {})
        tools = getattr(self.kernel, "tools", None)
        mapping = tools.get(name) if tools is not None and name else None
        if mapping is not None:
            name, args = mapping.harness, mapping.to_harness(args)
        subject = Subject(tool_name=name, tool_input=args, prompt=prompt or "")
        return render(verdict, self.kernel.dialect, subject, neutral_form=self.neutral)


class Action(enum.StrEnum):
    """What the adapter does with a tool call."""

    RUN = "run"        #: run the tool with :attr:`ToolGo.input`
    REFUSE = "refuse"  #: do not run it; the model reads :attr:`ToolGo.text` as its result
    ASK = "ask"        #: ask the runtime's approval surface (or :meth:`HostRun.approve`)
    DEFER = "defer"    #: the runtime's deferred-call path (a hook answered ``defer``)


@attrs.frozen(kw_only=True)
class ToolGo:
    """The driver's answer to a tool call: ``action``, the ``input`` to run it with (a hook
    may have rewritten it: ``rewritten``), the ``text`` the model reads when refused, the
    ``reason`` an approval surface shows, and the ``verdict`` behind it."""

    action: Action
    input: dict[str, Any]
    verdict: Verdict
    text: str | None = None
    reason: str | None = None
    rewritten: bool = False

    def describe(self) -> dict[str, Any]:
        """The pending decision, for a runtime's approval surface (its call metadata)."""
        return {"hookwire": {"decision": self.verdict.decision.value, "reason": self.reason,
                             "original_input": dict(self.verdict.original_input or {}),
                             "effective_input": dict(self.input)}}


def invalid_rewrite(tool_name: str, error: object) -> str:
    """What the model reads when a hook rewrote a tool's input into one its schema refuses."""
    return f"A hook rewrote the input of {tool_name} into an invalid one: {error}"


def prompt_text(prompt: object) -> str:
    """The user's prompt as text: multimodal prompts keep only their text parts; a runtime's
    list of messages (items with a ``role``) gives its last ``user`` message's text."""
    if prompt is None:
        return ""
    if isinstance(prompt, str):
        return prompt
    if isinstance(prompt, Iterable):
        parts = list(prompt)
        if any(field(p, "role") is not None for p in parts):
            return last_text(parts, lambda p: field(p, "role") == "user",
                             lambda p: field(p, "content")) or ""
        return "\n".join(_part_text(p) for p in parts).strip()
    return str(prompt)


def field(item: object, key: str) -> Any:
    """A field of a runtime's item, a mapping or an object."""
    return item.get(key) if isinstance(item, Mapping) else getattr(item, key, None)


def last_text(items: Sequence[Any], match: Callable[[Any], bool], text: Callable[[Any], Any], *,
              until: Callable[[Any], bool] | None = None) -> str | None:
    """The text of the last of a runtime's history ``items`` that ``match`` finds (``None``:
    none, or ``until`` finds a later one first: the last model text of the current turn).
    ``text`` reads an item (a runtime's list of parts is read by :func:`prompt_text`)."""
    for item in reversed(items):
        if until is not None and until(item):
            return None
        if match(item):
            value = text(item)
            return value if value is None or isinstance(value, str) else prompt_text(value)
    return None


def tool_name(tool: object) -> str | None:
    """The name a runtime's model calls ``tool`` by: its ``name`` (a provider's tool dict's
    function name), else a plain function's name."""
    if isinstance(tool, Mapping):
        function = tool.get("function")
        name = function.get("name") if isinstance(function, Mapping) else tool.get("name")
    else:
        name = getattr(tool, "name", None) or getattr(tool, "__name__", None)
    return str(name) if isinstance(name, str) and name else None


def _part_text(part: object) -> str:
    if isinstance(part, str):
        return part
    if isinstance(part, Mapping):
        return str(part.get("text") or "")
    return str(getattr(part, "text", "") or "")


def status_error_kind(status: int) -> str:
    """Claude Code's short error kind (``StopFailure.error``) for an HTTP status of a failed
    model request."""
    if status == 429:
        return "rate_limit"
    if status in (503, 529):
        return "overloaded"
    if status >= 500:
        return "server_error"
    if status in (401, 403):
        return "authentication_failed"
    if status == 400:
        return "invalid_request"
    return "unknown"


#: Words in the class names of provider SDK errors that carry no HTTP status, and their kind.
_NAMED_KINDS = (("RateLimit", "rate_limit"), ("Overloaded", "overloaded"),
                ("Authentication", "authentication_failed"), ("ServerError", "server_error"),
                ("RequestRejected", "invalid_request"), ("TokenLimit", "max_output_tokens"))


def error_kind(exc: BaseException) -> str:
    """Claude Code's short error kind for a failed model request: from the HTTP status the
    provider SDKs put on their errors (``status_code``, ``code``, or ``response.status_code``),
    else from the error's class names (``ModelRateLimitError``: ``rate_limit``); a group of
    errors (fallback models) by its last."""
    if isinstance(exc, BaseExceptionGroup) and exc.exceptions:
        return error_kind(exc.exceptions[-1])
    for status in (getattr(exc, "status_code", None), getattr(exc, "code", None),
                   getattr(getattr(exc, "response", None), "status_code", None)):
        if isinstance(status, int) and not isinstance(status, bool):
            return status_error_kind(status)
    names = " ".join(c.__name__ for c in type(exc).__mro__)
    return next((kind for word, kind in _NAMED_KINDS if word in names), "unknown")


def hookwire_error(exc: BaseException) -> BaseException:
    """The hookwire exception ``exc`` wraps (runtimes re-raise what a callback raised inside
    their own), else ``exc``."""
    seen: list[BaseException] = []
    cause: BaseException | None = exc
    while cause is not None and not any(cause is s for s in seen):
        if isinstance(cause, HookwireError):
            return cause
        seen.append(cause)
        cause = cause.__cause__ or cause.__context__
    return exc


def raise_own(exc: BaseException) -> None:
    """Raise the hookwire exception a runtime wrapped ``exc`` around, if it did (a halt, a
    blocked prompt raised in a callback), in its place."""
    cause = hookwire_error(exc)
    if cause is not exc:
        raise cause from None


def place(items: list[Any], texts: Iterable[ModelText], make: Any, is_prompt: Any) -> None:
    """Put ``texts`` (each made into an item by ``make``) into ``items``: those the harness
    puts before the user's prompt just before the last item ``is_prompt`` finds (or at the
    end), the others at the end, in order."""
    texts = list(texts)
    before = [make(t) for t in texts if t.placement is Placement.BEFORE_PROMPT]
    if before:
        at = next((i for i in range(len(items) - 1, -1, -1) if is_prompt(items[i])), len(items))
        items[at:at] = before
    items += [make(t) for t in texts if t.placement is not Placement.BEFORE_PROMPT]


class Anchored:
    """Hook texts kept where they arose in a runtime's list of request items, and put back
    into each later request the runtime rebuilds from its own history (which drops them)."""

    def __init__(self) -> None:
        self.items: list[tuple[int, Any]] = []

    def add(self, texts: Iterable[ModelText], items: Sequence[Any], make: Any,
            is_prompt: Any) -> None:
        """Anchor each of ``texts`` (made into an item by ``make``) at the end of ``items``,
        or just before the user's prompt (``is_prompt``) where the harness puts it there."""
        for text in texts:
            at = len(items)
            if text.placement is Placement.BEFORE_PROMPT:
                at = next((i for i in range(len(items) - 1, -1, -1) if is_prompt(items[i])), at)
            self.items.append((at, make(text)))

    def apply(self, items: Sequence[Any]) -> list[Any]:
        """``items`` with the anchored texts at their places (none of them twice)."""
        out = [i for i in items if not any(i is item for _, item in self.items)]
        for offset, (at, item) in enumerate(sorted(self.items, key=lambda x: x[0])):
            out.insert(min(at + offset, len(out)), item)
        return out


def output_text(output: Any) -> str | None:
    """A run's final output as text (structured output as JSON)."""
    if output is None or isinstance(output, str):
        return output
    try:
        return json.dumps(output, default=lambda o: getattr(o, "model_dump", lambda: str(o))())
    except (TypeError, ValueError):
        return str(output)


def json_value(result: Any) -> Any:
    """A tool's result as a JSON value (what ``tool_batch`` lists): as it is, else its JSON
    round trip, else its text."""
    if result is None or isinstance(result, str | int | float | bool):
        return result
    try:
        return json.loads(json.dumps(result))
    except (TypeError, ValueError):
        return str(result)
