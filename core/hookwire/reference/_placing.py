"""Where the reference host puts each hook text in the conversation (see
:class:`hookwire.render.Placement`): the messages a rendered verdict becomes."""

from __future__ import annotations

from collections.abc import Sequence

from hookwire.reference.model import Message
from hookwire.render import ModelText, Placement


def message(text: ModelText) -> Message:
    """One rendered text as a message, labelled with the hook or plugin it came from."""
    return Message(role=text.role, content=text.text, is_error=text.is_error,
                   source=text.source.label() if text.source is not None else None)


def texts_at(texts: Sequence[ModelText], *places: Placement) -> list[ModelText]:
    return [t for t in texts if t.placement in places]


def at(texts: Sequence[ModelText], *places: Placement) -> list[Message]:
    return [message(t) for t in texts_at(texts, *places)]


def first_text(texts: Sequence[ModelText], place: Placement, default: str | None) -> str | None:
    return next((t.text for t in texts_at(texts, place)), default)


def joined(messages: Sequence[Message]) -> list[Message]:
    """System texts after the prompt share one message, a paragraph each (as Claude Code puts
    SessionStart and UserPromptSubmit context in the system message after the prompt)."""
    system = [m for m in messages if m.role == "system"]
    if len(system) < 2:
        return list(messages)
    labels = "; ".join(dict.fromkeys(m.source for m in system if m.source))
    return [Message(role="system", content="\n\n".join(m.content for m in system),
                    source=labels or None), *(m for m in messages if m.role != "system")]


def around(texts: Sequence[ModelText], tool: Message) -> list[Message]:
    """A tool result with the hook texts placed before and after it."""
    return [*at(texts, Placement.BEFORE_TOOL_RESULT), tool,
            *at(texts, Placement.AFTER_TOOL_RESULT, Placement.SYSTEM)]
