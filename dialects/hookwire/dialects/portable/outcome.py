"""Outcome → answer: observe-only, except the opt-in context-result mode.

Exit status and output never change the agent's behaviour: a handler can neither block, nor
rewrite, nor halt. Failures become diagnostics. A handler declared with ``"result":
"context"`` may print one result envelope (``schema/result.schema.json``) on exit 0::

    {"context": "UTF-8 text for the agent", "metadata": {...}}

whose text is contributed as a labelled context when it fits the client's limit (hookwire's
default: :data:`DEFAULT_CONTEXT_LIMIT` bytes of UTF-8); a larger one is dropped whole, with a
diagnostic, never cut.
"""

from __future__ import annotations

from hookwire.dialect import HookEntry
from hookwire.dialects.portable import _wire
from hookwire.dialects.portable.handler import handler_of
from hookwire.events import SeamEvent
from hookwire.runner import Outcome, OutcomeKind
from hookwire.verdicts import Answer, Context, Source, SourceKind
from hookwire.wire import parse_json

DEFAULT_CONTEXT_LIMIT = 10_000


def interpret(entry: HookEntry, event: SeamEvent, native: str, outcome: Outcome, *,
              dialect: str = "portable",
              context_limit: int = DEFAULT_CONTEXT_LIMIT) -> Answer:
    if not outcome.ok:
        return Answer(diagnostics=(_failure(outcome),))
    if not handler_of(entry).context:
        return Answer()
    text = outcome.stdout_text
    if text is None or not text.strip():
        return Answer()
    try:
        data = parse_json(text)  # any depth, size: a ValueError, never recursion
    except ValueError:
        return Answer(diagnostics=("context result is not JSON: nothing contributed",))
    envelope = _wire.structure(data, _wire.ResultEnvelope)[0] if isinstance(data, dict) \
        else None
    if envelope is None:
        return Answer(diagnostics=('context result must be {"context": string}: nothing '
                                   "contributed",))
    context = envelope.context
    size = len(context.encode("utf-8"))
    if size > context_limit:
        return Answer(diagnostics=(f"context of {size} bytes exceeds the client's limit of "
                                   f"{context_limit} bytes: dropped",))
    if not context:
        return Answer()
    source = Source(kind=SourceKind.HOOK, name=entry.display, dialect=dialect,
                    event=entry.event.split("/")[0])
    return Answer(contexts=(Context(text=context, source=source),))


def _failure(outcome: Outcome) -> str:
    kind = outcome.kind
    if kind is OutcomeKind.EXITED:
        return f"exited {outcome.exit_code} (ignored: portable hooks are observe-only)"
    if kind is OutcomeKind.FAILED_TO_START:
        return f"failed to start: {outcome.start_error}"
    if kind is OutcomeKind.SIGNALED:
        return f"killed by signal {outcome.signal}"
    return f"{kind.value} (ignored: portable hooks are observe-only)"
