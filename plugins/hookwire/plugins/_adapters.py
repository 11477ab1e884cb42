"""What the runtime adapters share: their exceptions and how they render hook text.

Nothing here imports a runtime, so the host-profile plugins stay importable without the extras.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextvars import ContextVar
from typing import Any

from hookwire.errors import HookwireError
from hookwire.render import ModelText, Placement, Subject, render
from hookwire.render import render_context as render_context
from hookwire.verdicts import Context, Halt, Verdict


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


class Renderer:
    """How an adapter turns verdicts into what the model reads: each dialect's own wording
    and placement (:func:`hookwire.render.render`), or hookwire's neutral labelled form
    (``neutral=True``). Tool calls are named as the hooks saw them (a mapped runtime tool by
    its harness name and fields)."""

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


def render_contexts(contexts: Iterable[Context]) -> list[str]:
    return [render_context(c) for c in contexts]


def label(verdict: Verdict) -> str:
    """Who gave the verdict's reason (the first contributor at the winning rank)."""
    for reason in verdict.reasons:
        return reason.source.label()
    return "hookwire"


def render_feedback(kind: str, verdict: Verdict) -> str:
    """Hook feedback (a stop continuation, a post-tool block) labelled with its source:
    hookwire's neutral form (:func:`hookwire.render.render_feedback`)."""
    return f"[hookwire: {kind} from {label(verdict)}]\n{verdict.reason or ''}".rstrip()


def prompt_text(prompt: object) -> str:
    """The user's prompt as text (multimodal prompts keep only their text parts)."""
    if prompt is None:
        return ""
    if isinstance(prompt, str):
        return prompt
    if isinstance(prompt, Iterable):
        return "\n".join(_part_text(p) for p in prompt).strip()
    return str(prompt)


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


#: The tools of which adapters are running in this context: ``(owner, session)`` pairs, pushed
#: by :func:`running_tool` around a tool call. A ``ContextVar`` follows ``await``, child tasks
#: and the context copies runtimes make for worker threads, so an agent run started from inside
#: a tool can tell that it is nested.
_RUNNING_TOOLS: ContextVar[tuple[tuple[object, object], ...]] = ContextVar(
    "hookwire_running_tools", default=())


@contextlib.contextmanager
def running_tool(owner: object, session: object) -> Iterator[None]:
    """Mark a tool call of ``owner`` (an adapter's shared state) with ``session`` as running."""
    token = _RUNNING_TOOLS.set((*_RUNNING_TOOLS.get(), (owner, session)))
    try:
        yield
    finally:
        _RUNNING_TOOLS.reset(token)


def enclosing_tool_session(owner: object) -> object | None:
    """The session of the innermost tool call of ``owner`` running in this context: set when an
    agent run was started from inside one of the adapter's own tools (a nested run)."""
    for running, session in reversed(_RUNNING_TOOLS.get()):
        if running is owner:
            return session
    return None
