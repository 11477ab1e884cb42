"""The portable profile's six events and the kernel seams they ride on.

``post-tool-use`` fires exactly once per tool attempt, whatever became of it, so it rides on
two seams: ``tool_post`` (succeeded) and ``tool_failure`` (failed, timed out, cancelled).
The kernel indexes one seam per native event, so the failure side is registered under a
shadow name (:data:`POST_FAILED`) that the config reader fills with the same handlers; the
payload always says ``post-tool-use``. Denied attempts are synthesised (see ``pairing.py``).
"""

from __future__ import annotations

from collections.abc import Mapping

from hookwire.dialect import EventSpec
from hookwire.events import Seam, SeamEvent, ToolFailure, ToolPost

SESSION_START = "session-start"
TURN_START = "turn-start"
PRE_TOOL_USE = "pre-tool-use"
POST_TOOL_USE = "post-tool-use"
TURN_END = "turn-end"
SESSION_END = "session-end"

#: The six portable events, in lifecycle order (the order of the profile document).
PORTABLE_EVENTS = (SESSION_START, TURN_START, PRE_TOOL_USE, POST_TOOL_USE, TURN_END, SESSION_END)

#: Shadow event carrying the post-tool-use handlers on the ``tool_failure`` seam.
POST_FAILED = "post-tool-use/failed"

#: Default timeout per event, seconds. session-end is best effort: a client is shutting down.
DEFAULT_TIMEOUT = 30.0
EVENT_TIMEOUTS: Mapping[str, float] = {SESSION_END: 5.0}
MAX_TIMEOUT = 600.0

#: What became of a tool attempt (``result.status`` in the payload).
STATUSES = ("succeeded", "failed", "timed_out", "cancelled", "denied")

_SPECS = (
    EventSpec(name=SESSION_START, seam=Seam.SESSION_START),
    EventSpec(name=TURN_START, seam=Seam.PROMPT_SUBMIT),
    EventSpec(name=PRE_TOOL_USE, seam=Seam.TOOL_PRE),
    EventSpec(name=POST_TOOL_USE, seam=Seam.TOOL_POST),
    EventSpec(name=POST_FAILED, seam=Seam.TOOL_FAILURE),
    EventSpec(name=TURN_END, seam=Seam.STOP),
    EventSpec(name=SESSION_END, seam=Seam.SESSION_END),
)

EVENTS: Mapping[str, EventSpec] = {s.name: s for s in _SPECS}

#: Seam → the native (or shadow) event that fires on it.
BY_SEAM: Mapping[Seam, str] = {s.seam: s.name for s in _SPECS}


def public_name(native: str) -> str:
    """The event name a hook author wrote (the shadow reads as ``post-tool-use``)."""
    return POST_TOOL_USE if native == POST_FAILED else native


def tool_status(event: SeamEvent) -> str:
    """The attempt's status: a host (or the pairing synthesiser) may say it in
    ``extra["status"]``; otherwise succeeded / cancelled (interrupt) / failed."""
    status = event.extra.get("status")
    if isinstance(status, str) and status in STATUSES:
        return status
    if isinstance(event, ToolPost):
        return "succeeded"
    if isinstance(event, ToolFailure) and event.is_interrupt:
        return "cancelled"
    return "failed"
