"""A scripted model for the reference host: no network, fully deterministic."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import attrs


@attrs.frozen(kw_only=True)
class ToolCall:
    """One tool call the model asks for."""

    name: str
    input: Mapping[str, Any]
    id: str


@attrs.frozen(kw_only=True)
class ModelTurn:
    """What the model answers to one request: text, tool calls, or both."""

    text: str | None = None
    tool_calls: tuple[ToolCall, ...] = ()


@attrs.frozen(kw_only=True)
class Message:
    """One message of the conversation. ``source`` labels anything that is not the user's or
    the model's own words (hook contexts, hook feedback, tool results)."""

    role: str  # "user", "assistant", "tool", "system"
    content: str
    source: str | None = None
    tool_use_id: str | None = None
    is_error: bool = False


class TransientModelError(Exception):
    """A retryable model failure (rate limit, dropped connection)."""


Responder = Callable[[Sequence[Message]], ModelTurn]


class ScriptedModel:
    """Answers each request with the next scripted turn (or by calling a function).

    A script entry that is an exception instance is raised instead, to simulate a failing
    request. Every request's messages are kept in :attr:`requests`.
    """

    def __init__(self, script: Sequence[ModelTurn | BaseException] | Responder) -> None:
        self._script = list(script) if not callable(script) else None
        self._responder = script if callable(script) else None
        self.requests: list[tuple[Message, ...]] = []

    async def respond(self, messages: Sequence[Message]) -> ModelTurn:
        self.requests.append(tuple(messages))
        if self._responder is not None:
            return self._responder(messages)
        assert self._script is not None
        if not self._script:
            return ModelTurn(text="(the script has ended)")
        item = self._script.pop(0)
        if isinstance(item, BaseException):
            raise item
        return item
