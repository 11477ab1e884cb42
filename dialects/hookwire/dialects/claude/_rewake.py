"""``asyncRewake``: a background hook whose exit 2 wakes the agent.

Claude Code 2.1.332 runs an ``asyncRewake`` hook as it runs an ``async`` one (in the
background, unable to decide anything), but an exit 2 wakes the model at once, even in an idle
session: the hook's stderr, or its stdout when stderr is empty, is put before the model as a
system reminder. The hook's ``timeout`` is enforced (600 s by default). ``rewakeMessage`` and
``rewakeSummary`` are keys Claude Code's own plugins set on such hooks: hookwire puts the
message before the hook's output, in place of its own heading, and shows the summary to the
user (``Wake.summary``), never to the model. Claude Code's wording around the text was not
recorded: the reminder reads ``<system-reminder>\\n<heading>\\n<output>\\n</system-reminder>``,
the heading being ``rewakeMessage`` or ``Async <Event> hook feedback:``.

Any other exit is a plain async hook's: nothing reaches the model.
"""

from __future__ import annotations

from hookwire.dialects.claude.handler import ClaudeHandler
from hookwire.runner import Outcome, OutcomeKind
from hookwire.verdicts import Answer


def interpret(handler: ClaudeHandler, native: str, outcome: Outcome) -> Answer:
    """The answer of an ``asyncRewake`` hook: a wake (``Answer.wake``) on exit 2."""
    if outcome.kind is not OutcomeKind.EXITED or outcome.exit_code != 2:
        return Answer()
    output = outcome.stderr.decode("utf-8", "replace").strip() or \
        outcome.stdout.decode("utf-8", "replace").strip()
    heading = handler.rewakeMessage or f"Async {native} hook feedback:"
    summary = () if handler.rewakeSummary is None else (handler.rewakeSummary,)
    return Answer(reason=output, system_messages=summary,
                  wake=f"<system-reminder>\n{heading}\n{output}\n</system-reminder>")
