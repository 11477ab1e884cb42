"""How the reference agent is woken by a background hook (:mod:`hookwire.wake`).

A wake that comes while the agent runs a turn is added, as a user-role message holding the
hook's system reminder, before the turn's next model request. One that comes while the agent
is idle, or that the turn ended without reading, starts a turn of its own: the wake is the
first message, no ``prompt_submit`` fires (no user spoke), and its result is kept in
``Agent.woken`` for the host.
"""

from __future__ import annotations

import contextlib
from collections.abc import Awaitable, Callable, Iterator
from typing import Any

import anyio

from hookwire.reference.model import Message
from hookwire.wake import Wake


class Waking:
    """The agent's wakes: those not yet read by the model, and whether a turn is running."""

    def __init__(self, neutral: bool) -> None:
        self.neutral = neutral
        self.queue: list[Wake] = []
        self.results: list[Any] = []
        self._depth = 0
        self._idle = anyio.Event()
        self._idle.set()

    @contextlib.contextmanager
    def busy(self) -> Iterator[None]:
        """Around a turn (nested runs count once)."""
        if self._depth == 0:
            self._idle = anyio.Event()
        self._depth += 1
        try:
            yield
        finally:
            self._depth -= 1
            if self._depth == 0:
                self._idle.set()

    def take(self) -> list[Message]:
        """The wakes to put before the next model request, as messages."""
        wakes, self.queue = self.queue, []
        return [Message(role="user", source=w.source.label(), content=(
            f"[hookwire: wake from {w.source.label()}]\n{w.message}" if self.neutral
            else w.text)) for w in wakes]

    async def woken(self, wake: Wake, turn: Callable[[], Awaitable[Any]]) -> None:
        """The session's ``on_wake``: queue the wake; once no turn runs, if the model has not
        read it yet, run ``turn`` (which reads it first) and keep its result."""
        self.queue.append(wake)
        while self._depth:
            await self._idle.wait()
        if self.queue:
            self.results.append(await turn())
