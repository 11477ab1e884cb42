"""What the model reads for the portable profile's hooks (``docs/dialects/portable.md``).

Its harness is the portable six-event profile, which is observe-only: a handler's exit status
and output never decide, rewrite or halt anything, so no verdict of its hooks carries a refusal,
feedback or a replaced tool result. What can reach the model is an opt-in context result
(``"result": "context"``); the profile says only that its text "is added to the agent's
context, labelled with the hook as its source (never as the user's words)" and prescribes no
wording or place. So a context is rendered in **hookwire's neutral labelled form**
(:func:`hookwire.render.neutral`: ``[hookwire: context from portable:<event> hook `…`]`` and
the text, where the neutral form places a context of its seam), which is what the profile asks
for; this is also :meth:`hookwire.Dialect.render`'s default.
"""

from __future__ import annotations

from hookwire.render import ModelText, Subject, neutral
from hookwire.verdicts import Verdict


def render(verdict: Verdict, subject: Subject) -> list[ModelText]:
    """``verdict`` (the part the portable hooks produced) as the model reads it."""
    return neutral(verdict, subject)
