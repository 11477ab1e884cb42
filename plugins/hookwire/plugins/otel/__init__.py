"""OpenTelemetry tracing: one span per seam, one child span per hook run (the ``otel`` extra).

``pip install 'hookwire[otel]'``. The entry point's plugin traces when tracing is configured:
``HOOKWIRE_OTEL=1``, or an SDK tracer provider set globally before the kernel is built
(Logfire, LangSmith, Phoenix, Langfuse set one); ``HOOKWIRE_OTEL=0`` turns it off. Otherwise it
implements no audit hookspec and costs nothing. In code: ``Kernel(plugins=[Tracing()])``
(``tracer_provider=`` for a provider of your own).

Spans and attributes:

* ``hookwire.seam <seam>`` (the seam's span; the host's current span is its parent):
  ``hookwire.seam``, ``hookwire.session_id``, ``hookwire.decision``, ``hookwire.halt``,
  ``hookwire.hook_count``, ``hookwire.input_rewritten``;
* ``hookwire.hook <dialect>:<event>`` (a child per external hook run):
  ``hookwire.dialect``, ``hookwire.event``, ``hookwire.matcher``, ``hookwire.command``,
  ``hookwire.outcome``, ``hookwire.exit_code``, ``hookwire.signal``, ``hookwire.timed_out``,
  ``hookwire.duration_ms``, ``hookwire.decision``, ``hookwire.halt``; status ERROR when the
  hook could not run (timed out, failed to start, over its output cap);
* ``hookwire.plugin <name>`` (a child per native plugin asked): ``hookwire.plugin``,
  ``hookwire.decision``, ``hookwire.halt``; status ERROR when it raised.
"""

from __future__ import annotations

import contextvars
import os
import sys
from typing import TYPE_CHECKING, Any

from hookwire.hookspecs import hookimpl

if TYPE_CHECKING:  # annotations only: every Kernel() loads this entry point
    from hookwire.audit import Invocation, InvocationResult
    from hookwire.events import SeamEvent
    from hookwire.verdicts import Verdict

__all__ = ["ENV", "Tracing", "plugin"]

ENV = "HOOKWIRE_OTEL"
AUDIT = ("seam_started", "hook_invoked", "hook_result", "seam_verdict")
#: The seam span of the dispatch running in this task (child tasks inherit it).
_seam: contextvars.ContextVar[Any] = contextvars.ContextVar("hookwire_otel_seam", default=None)
_FAILED = {"timed_out", "failed_to_start", "over_cap", "not_utf8", "signaled"}


class Tracing:
    """A native plugin on the audit plane that emits OpenTelemetry spans."""

    hookwire_name = "otel"

    def __init__(self, tracer_provider: Any = None) -> None:
        from opentelemetry import trace

        from hookwire import __version__

        self._trace = trace
        self.tracer = trace.get_tracer("hookwire", __version__, tracer_provider=tracer_provider)
        self._hooks: dict[int, Any] = {}  # invocation id → its open span
        self._tokens: dict[int, Any] = {}  # id(event) → the context token of its seam span

    @hookimpl
    def seam_started(self, event: SeamEvent, session: Any) -> None:
        span = self.tracer.start_span(f"hookwire.seam {event.seam.value}", attributes={
            "hookwire.seam": event.seam.value,
            "hookwire.session_id": session.info.session_id,
            "hookwire.enforcement": session.kernel.dispatcher.mode()})
        token = _seam.set((span, self._trace.set_span_in_context(span)))
        self._tokens[id(event)] = token

    @hookimpl
    def hook_invoked(self, invocation: Invocation) -> None:
        current = _seam.get()
        context = current[1] if current is not None else None
        entry = invocation.entry
        if entry is not None:
            name = f"hookwire.hook {entry.dialect}:{invocation.native_event}"
            attributes = {"hookwire.dialect": entry.dialect,
                          "hookwire.event": invocation.native_event or entry.event,
                          "hookwire.matcher": entry.matcher or "",
                          "hookwire.command": entry.display,
                          "hookwire.seam": invocation.seam.value}
        else:
            name = f"hookwire.plugin {invocation.source.name}"
            attributes = {"hookwire.plugin": invocation.source.name,
                          "hookwire.seam": invocation.seam.value}
        self._hooks[invocation.id] = self.tracer.start_span(name, context=context,
                                                            attributes=attributes)

    @hookimpl
    def hook_result(self, result: InvocationResult) -> None:
        span = self._hooks.pop(result.invocation.id, None)
        if span is None:
            return
        answer, outcome = result.answer, result.outcome
        span.set_attribute("hookwire.decision", answer.decision.value)
        span.set_attribute("hookwire.halt", answer.halt is not None)
        if outcome is not None:
            span.set_attribute("hookwire.outcome", outcome.kind.value)
            if outcome.exit_code is not None:
                span.set_attribute("hookwire.exit_code", outcome.exit_code)
            if outcome.signal is not None:
                span.set_attribute("hookwire.signal", outcome.signal)
            span.set_attribute("hookwire.timed_out", outcome.kind.value == "timed_out")
            if outcome.duration_ms is not None:
                span.set_attribute("hookwire.duration_ms", float(outcome.duration_ms))
            if outcome.kind.value in _FAILED:
                span.set_status(self._trace.Status(self._trace.StatusCode.ERROR,
                                                   outcome.kind.value))
        if result.error is not None:
            span.record_exception(result.error)
            span.set_status(self._trace.Status(self._trace.StatusCode.ERROR, repr(result.error)))
        span.end()

    @hookimpl
    def seam_verdict(self, event: SeamEvent, verdict: Verdict) -> None:
        token = self._tokens.pop(id(event), None)
        current = _seam.get()
        if current is None:
            return
        span = current[0]
        span.set_attribute("hookwire.decision", verdict.decision.value)
        span.set_attribute("hookwire.halt", verdict.halt is not None)
        span.set_attribute("hookwire.hook_count", len(verdict.hooks))
        span.set_attribute("hookwire.input_rewritten", verdict.input_rewritten)
        span.end()
        if token is not None:
            try:
                _seam.reset(token)
            except ValueError:  # set in another context: leave it, the task ends with it
                _seam.set(None)


def _enabled() -> bool:
    raw = os.environ.get(ENV, "").strip().lower()
    if raw in ("0", "off", "false", "no"):
        return False
    if raw in ("1", "on", "true", "yes"):
        return True
    if "opentelemetry.sdk.trace" not in sys.modules:
        # nobody can have installed an SDK provider without importing the SDK: spare every
        # Kernel() the ~40 ms of importing it only to find tracing off
        return False
    try:
        from opentelemetry import trace
        from opentelemetry.sdk.trace import TracerProvider
    except ImportError:
        return False
    return isinstance(trace.get_tracer_provider(), TracerProvider)


class plugin:  # named as the entry point; a class, so that each Kernel() decides anew
    """The ``hookwire.plugins`` entry point ``otel``: traces only when tracing is configured
    (see the module docstring); otherwise it has no hook implementation at all."""

    hookwire_name = "otel"

    def __init__(self) -> None:
        self.tracing = Tracing() if _enabled() else None
        if self.tracing is not None:
            for name in AUDIT:
                setattr(self, name, getattr(self.tracing, name))
