"""What each client can do with the six portable events, and the report install prints."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import attrs

from hookwire.dialects.portable.events import PORTABLE_EVENTS

NATIVE = "native"            #: the client has the event; hookwire wires it directly
SYNTHESISED = "synthesised"  #: the client has no such event; the shim derives it from others
PARTIAL = "partial"          #: wired, but the client fires it in fewer cases (see note)
UNSUPPORTED = "unsupported"  #: the client cannot observe it; handlers of this event never run
LEVELS = (NATIVE, SYNTHESISED, PARTIAL, UNSUPPORTED)


@attrs.frozen(kw_only=True)
class Support:
    """How one portable event maps: ``level``, the client's ``natives`` wired, a ``note``."""

    level: str
    natives: tuple[str, ...] = ()
    note: str = ""


@attrs.frozen(kw_only=True)
class Capabilities:
    """A client's map of the six events, the native events whose context channel the shim
    uses for ``"result": "context"`` handlers, and client-wide ``notes``."""

    events: Mapping[str, Support]
    context: frozenset[str] = frozenset()
    notes: tuple[str, ...] = ()

    def natives(self, event: str) -> tuple[str, ...]:
        return self.events[event].natives

    def to_json(self, used: Iterable[str] = PORTABLE_EVENTS) -> dict[str, object]:
        used = set(used)
        return {
            "events": {e: {"level": s.level, "native": list(s.natives), "note": s.note,
                           "used": e in used} for e, s in self.events.items()},
            "context": sorted(self.context),
            "notes": list(self.notes),
        }


def render(client: str, caps: Capabilities, used: Iterable[str], targets: Iterable[str]) -> str:
    """The capability report printed by ``hookwire install``."""
    used = set(used)
    lines = [f"{client}: capability report", "  writes: " + ", ".join(targets)]
    width = max(len(e) for e in PORTABLE_EVENTS)
    for event in PORTABLE_EVENTS:
        s = caps.events[event]
        natives = ", ".join(s.natives) or "-"
        mark = "" if event in used else "  (not used by this plugin)"
        lines.append(f"  {event:<{width}}  {s.level:<11}  {natives}{mark}")
        if s.note:
            lines.append(f"  {'':<{width}}  {'':<11}  {s.note}")
    ctx = ", ".join(sorted(caps.context)) or "none (context results are dropped)"
    lines.append(f"  context results reach the agent on: {ctx}")
    lines.extend(f"  note: {n}" for n in caps.notes)
    return "\n".join(lines) + "\n"
