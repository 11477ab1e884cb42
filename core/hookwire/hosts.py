"""Host profiles: which seams a host emits, so ``hookwire check --host NAME`` is exact.

A host adapter declares its profile from a ``register_hosts`` hook implementation; the
reference host's profile is built in.
"""

from __future__ import annotations

import attrs

from hookwire.events import Seam


@attrs.frozen(kw_only=True)
class HostProfile:
    """A host: its ``name`` (what ``--host`` takes), the ``seams`` it emits, and why the others
    are missing (``missing``: seam → reason, shown by ``hookwire check``)."""

    name: str
    seams: frozenset[Seam]
    description: str = ""
    missing: dict[Seam, str] = attrs.field(factory=dict)

    def emits(self, seam: Seam) -> bool:
        return seam in self.seams


REFERENCE = HostProfile(
    name="reference",
    description="hookwire's reference agent loop (hookwire.reference.Agent)",
    seams=frozenset({Seam.SESSION_START, Seam.PROMPT_SUBMIT, Seam.TOOL_PRE, Seam.APPROVE,
                     Seam.TOOL_POST, Seam.TOOL_FAILURE, Seam.TOOL_BATCH, Seam.STOP,
                     Seam.STOP_FAILURE, Seam.SESSION_END}),
    missing={
        Seam.SUBAGENT_START: "the reference loop has no sub-agents",
        Seam.SUBAGENT_STOP: "the reference loop has no sub-agents",
        Seam.PRE_COMPACT: "the reference loop never compacts its context",
        Seam.POST_COMPACT: "the reference loop never compacts its context",
        Seam.NOTIFICATION: "the reference loop has no user to notify",
    },
)
