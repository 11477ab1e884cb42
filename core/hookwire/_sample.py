"""What a hook would run outside a session, and its harness's own verdict on it (used by
``hookwire trust`` and ``check``, and by the trust gate; re-exported by :mod:`hookwire.trust`)."""

from __future__ import annotations

import logging
from typing import Any

from hookwire.dialect import NO_HARNESS_TRUST, HarnessTrust, HookEntry
from hookwire.runner import Command

log = logging.getLogger("hookwire.trust")



def sample_command(entry: HookEntry, dialect: Any, *, project_dir: str) -> Command:
    """The Command ``entry`` would run in a session started in ``project_dir`` (what
    ``hookwire trust`` and ``check`` pin and compare), as the dialect builds it
    (:meth:`~hookwire.Dialect.sample_command`: its placeholders substituted). Falls back to the
    entry's own command, run in ``project_dir``, when the dialect cannot build one outside a
    real event."""
    try:
        return dialect.sample_command(entry, project_dir)  # type: ignore[no-any-return]
    except Exception as exc:
        log.debug("dialect %s cannot build a sample command: %r", dialect.name, exc)
    if isinstance(entry.command, str):
        return Command(shell=entry.command, cwd=project_dir)
    return Command(argv=tuple(entry.command), cwd=project_dir)


def dialect_trust(kernel: Any, entry: HookEntry) -> HarnessTrust:
    """The harness's own verdict on ``entry``, for harnesses that keep their own trust records
    (:meth:`~hookwire.Dialect.harness_trust`): ``runs`` ``True`` when the harness trusts it
    (hookwire honours that), ``False`` when the harness will not run it (``kind`` says
    whether it is disabled or untrusted), ``None`` when none applies (or the dialect fails to
    say) and hookwire's trust alone decides."""
    try:
        found = kernel.dialect(entry.dialect).harness_trust(entry)
    except Exception:
        log.debug("dialect %s cannot tell its own trust of %s", entry.dialect, entry.display,
                  exc_info=True)
        return NO_HARNESS_TRUST
    if not isinstance(found, HarnessTrust):
        log.warning("dialect %s: harness_trust returned %r, not a HarnessTrust; its own trust "
                    "is ignored", entry.dialect, found)
        return NO_HARNESS_TRUST
    return found
