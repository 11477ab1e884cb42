"""Host profiles: which seams a host emits, so ``hookwire check --host NAME`` is exact.

A host adapter declares its profile from a ``register_hosts`` hook implementation, most simply
with :func:`declare_host`; the reference host's profile is built in. Profiles are built on
first use: building one imports every seam event, and a host's entry point is loaded by each
``Kernel()``.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

import attrs

from hookwire.plugin import Declared, declare

if TYPE_CHECKING:
    from hookwire.events import Seam

    REFERENCE: HostProfile


@attrs.frozen(kw_only=True)
class HostProfile:
    """A host: its ``name`` (what ``--host`` takes), the ``seams`` it emits, why the others
    are missing (``missing``: seam → reason, shown by ``hookwire check``), and what it
    ``lends`` hooks that are not processes (``"model"``, ``"mcp"``: :mod:`hookwire.hostparts`)."""

    name: str
    seams: frozenset[Seam]
    description: str = ""
    missing: dict[Seam, str] = attrs.field(factory=dict)
    lends: frozenset[str] = frozenset()

    def emits(self, seam: Seam) -> bool:
        return seam in self.seams


def lazy_profile(*, name: str, description: str, seams: str, missing: Mapping[str, str],
                 lends: str = "") -> Callable[[], HostProfile]:
    """A function building (once) the profile of host ``name``: ``seams`` names the seams it
    emits (hookspec names, space-separated), ``missing`` says why each other one is missing,
    ``lends`` what it lends (``"model mcp"``)."""

    @functools.cache
    def build() -> HostProfile:
        from hookwire.events import Seam

        return HostProfile(name=name, description=description,
                           seams=frozenset(Seam(s) for s in seams.split()),
                           missing={Seam(s): why for s, why in missing.items()},
                           lends=frozenset(lends.split()))

    return build


def declare_host(**profile: Any) -> tuple[Declared, Callable[[str], HostProfile]]:
    """What a host adapter's entry-point module needs: its ``plugin`` (``register_hosts``
    declares the profile) and a module ``__getattr__`` answering ``PROFILE``, the profile
    (built on first use of either; ``profile`` as :func:`lazy_profile` takes it)."""
    build = lazy_profile(**profile)

    def __getattr__(name: str) -> HostProfile:
        if name == "PROFILE":
            return build()
        raise AttributeError(f"no attribute {name!r}")

    return declare(register_hosts=lambda: [build()]), __getattr__


reference = lazy_profile(
    name="reference",
    description="hookwire's reference agent loop (hookwire.reference.Agent)",
    seams="session_start prompt_submit tool_pre approve tool_post tool_failure tool_batch stop "
          "stop_failure session_end",
    missing={
        "subagent_start": "the reference loop has no sub-agents",
        "subagent_stop": "the reference loop has no sub-agents",
        "pre_compact": "the reference loop never compacts its context",
        "post_compact": "the reference loop never compacts its context",
        "notification": "the reference loop has no user to notify",
    },
)


def __getattr__(name: str) -> Any:
    if name == "REFERENCE":  # the reference host's profile, built on first use
        return reference()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
