"""The prompt of the turn a Gemini CLI ``AfterAgent`` hook is told about.

Gemini CLI gives AfterAgent hooks the turn's ``prompt`` beside the response; hookwire's stop
event carries no prompt. :class:`Prompts` is the dialect's companion plugin: it watches each
session's ``prompt_submit`` (as a native plugin, answering nothing) and keeps the latest
prompt per session, which the payload of AfterAgent then carries. A host may also pass it
itself as ``extra={"prompt": ...}`` on the stop event.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

from hookwire import hookimpl

#: Sessions whose last prompt is remembered (the oldest is forgotten first).
KEPT = 256


class Prompts:
    """Native plugin ``gemini-prompts``: the last prompt of each session."""

    def __init__(self) -> None:
        self._last: OrderedDict[str, str] = OrderedDict()

    @hookimpl(tryfirst=True)
    def prompt_submit(self, event: Any, session: Any) -> None:
        key = session.info.session_id
        self._last[key] = event.prompt
        self._last.move_to_end(key)
        while len(self._last) > KEPT:
            self._last.popitem(last=False)

    def last(self, session_id: str) -> str:
        return self._last.get(session_id, "")
