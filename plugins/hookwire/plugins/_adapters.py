"""What the runtime adapters share: their exceptions and how they render hook text.

Nothing here imports a runtime, so the host-profile plugins stay importable without the extras.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterable, Iterator
from contextvars import ContextVar

from hookwire.driver import PromptBlocked as PromptBlocked
from hookwire.driver import Renderer as Renderer
from hookwire.driver import RunHalted as RunHalted
from hookwire.driver import prompt_text as prompt_text
from hookwire.driver import status_error_kind as status_error_kind
from hookwire.render import first_text as first_text
from hookwire.render import render_context as render_context
from hookwire.render import source_label as source_label
from hookwire.render import texts_at as texts_at
from hookwire.render import texts_but as texts_but
from hookwire.render import tool_result as tool_result
from hookwire.verdicts import Context, Verdict


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
