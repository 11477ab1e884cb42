"""Gemini CLI's hook events (0.61.0) and the kernel seams they ride on.

Every event Gemini CLI knows is listed, so a settings file naming one is never silently
dropped: the model events (``BeforeModel``, ``AfterModel``, ``BeforeToolSelection``) have no
hookwire seam and load as "not emitted by this host".
"""

from __future__ import annotations

from collections.abc import Mapping

from hookwire.dialect import EventSpec
from hookwire.events import Seam

VERSION = "0.61.0"
HARNESS = f"Gemini CLI {VERSION}"

#: Gemini CLI's default hook timeout: 60000 ms.
DEFAULT_TIMEOUT = 60.0


def _spec(name: str, seam: Seam | None, matcher: str | None = None, block: bool = False,
          also: tuple[Seam, ...] = ()) -> EventSpec:
    return EventSpec(name=name, seam=seam, matcher_field=matcher, can_block=block, also=also)


_SPECS = (
    _spec("BeforeTool", Seam.TOOL_PRE, "tool_name", True),
    # AfterTool fires after the tool returned, also when its result is an error.
    _spec("AfterTool", Seam.TOOL_POST, "tool_name", True, also=(Seam.TOOL_FAILURE,)),
    _spec("BeforeAgent", Seam.PROMPT_SUBMIT, None, True),
    _spec("AfterAgent", Seam.STOP, None, True),
    _spec("SessionStart", Seam.SESSION_START, "source"),
    _spec("SessionEnd", Seam.SESSION_END, "reason"),
    _spec("Notification", Seam.NOTIFICATION),
    _spec("PreCompress", Seam.PRE_COMPACT, "trigger"),
    # The model request events: no hookwire seam fires them.
    _spec("BeforeModel", None),
    _spec("AfterModel", None),
    _spec("BeforeToolSelection", None),
)

EVENTS: Mapping[str, EventSpec] = {s.name: s for s in _SPECS}

#: Keys of the ``hooks`` object that are not events (skipped without a word, as Gemini does).
CONFIG_FIELDS = frozenset({"enabled", "disabled", "notifications"})

#: Events whose matcher is a regular expression on the tool name.
TOOL_EVENTS = frozenset({"BeforeTool", "AfterTool"})
#: Events whose matcher must equal a trigger (``source``, ``reason``, ``trigger``) exactly.
TRIGGER_EVENTS = frozenset({"SessionStart", "SessionEnd", "PreCompress"})

#: Events whose outputs Gemini merges with "any block wins" (the others: later fields win).
OR_EVENTS = frozenset({"BeforeTool", "AfterTool", "BeforeAgent", "AfterAgent",
                       "SessionStart"})
#: Events whose ``hookSpecificOutput.additionalContext`` reaches the model.
CONTEXT_EVENTS = frozenset({"AfterTool", "BeforeAgent", "SessionStart"})
#: Events on which ``decision`` / ``continue`` change anything.
FLOW_EVENTS = frozenset({"BeforeTool", "AfterTool", "BeforeAgent", "AfterAgent"})

#: What each event's fields are called on stdin (after the common five).
SESSION_START_SOURCES = ("startup", "resume", "clear")
SESSION_END_REASONS = ("exit", "clear", "logout", "prompt_input_exit", "other")
COMPRESS_TRIGGERS = ("manual", "auto")
