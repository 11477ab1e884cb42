"""What the runtime adapters share: their exceptions and how they render hook text.

Nothing here imports a runtime, so the host-profile plugins stay importable without the extras.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterable, Iterator, Mapping
from contextvars import ContextVar

from hookwire.errors import HookwireError
from hookwire.verdicts import Context, Halt, Verdict


class RunHalted(HookwireError, RuntimeError):
    """A hook answered ``continue: false``: the adapter ended the run. ``halt`` says who and why."""

    def __init__(self, halt: Halt) -> None:
        self.halt = halt
        self.reason = halt.reason
        super().__init__(f"run halted by {halt.source.label()}: {halt.reason or '(no reason)'}")


class PromptBlocked(HookwireError, RuntimeError):
    """A ``prompt_submit`` hook blocked the prompt: the model was never called."""

    def __init__(self, reason: str | None, verdict: Verdict) -> None:
        self.reason = reason
        self.verdict = verdict
        super().__init__(f"prompt blocked by a hook: {reason or '(no reason given)'}")


def render_context(context: Context) -> str:
    """A context as the model sees it: labelled with its source, never as the user's words."""
    return f"[hookwire: context from {context.source.label()}]\n{context.text}"


def render_contexts(contexts: Iterable[Context]) -> list[str]:
    return [render_context(c) for c in contexts]


def label(verdict: Verdict) -> str:
    """Who gave the verdict's reason (the first contributor at the winning rank)."""
    for reason in verdict.reasons:
        return reason.source.label()
    return "hookwire"


def render_feedback(kind: str, verdict: Verdict) -> str:
    """Hook feedback (a stop continuation, a post-tool block) labelled with its source."""
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
