"""Pytest fixtures for dialect, plugin and host authors (loaded as the ``hookwire`` plugin).

* ``hook_script`` writes an executable hook script to ``tmp_path`` and returns its path;
* ``hookwire_kernel`` is a :class:`~hookwire.Kernel` with every installed dialect and plugin;
* ``bare_kernel`` is a kernel that loaded no entry points (register what the test needs).
"""

from __future__ import annotations

import json
import stat
import textwrap
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import attrs
import pytest

from hookwire.dialect import Dialect, EventSpec, HookEntry
from hookwire.errors import UnknownEventError
from hookwire.events import EVENT_TYPES, Seam, SeamEvent, SessionInfo
from hookwire.kernel import Kernel
from hookwire.runner import Command, Outcome, OutcomeKind
from hookwire.verdicts import Answer, Context, Decision, Halt, Source, SourceKind

ScriptFactory = Callable[..., Path]


@pytest.fixture
def hook_script(tmp_path: Path) -> ScriptFactory:
    """``hook_script(body, name="hook.sh", shebang="#!/bin/sh")``: an executable script.

    ``body`` is dedented; pass ``shebang="#!/usr/bin/env python3"`` for a Python hook.
    """
    counter = iter(range(1_000_000))

    def make(body: str, name: str | None = None, shebang: str = "#!/bin/sh") -> Path:
        path = tmp_path / (name or f"hook{next(counter)}")
        path.write_text(f"{shebang}\n{textwrap.dedent(body).lstrip()}")
        path.chmod(path.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
        return path

    return make


@pytest.fixture
def hookwire_kernel() -> Kernel:
    """A kernel with every installed dialect and plugin loaded through entry points."""
    return Kernel()


@pytest.fixture
def bare_kernel() -> Kernel:
    """A kernel that loaded nothing from entry points."""
    return Kernel(load_entry_points=False)


def pid_alive(pid: int) -> bool:
    """True while ``pid`` names a process that is not a zombie."""
    try:
        with open(f"/proc/{pid}/stat") as fh:
            state = fh.read().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return False
    return state not in ("Z", "X")


class EchoDialect(Dialect):
    """A deliberately plain dialect for kernel, host and plugin tests.

    Native event names are the seam names; the matcher is an exact tool name (or ``None`` for
    all); hooks are argv commands or shell text; stdin is the event as JSON with the session id
    and cwd. Exit 2 refuses (DENY on tool seams, BLOCK elsewhere) with stderr as the reason;
    exit 0 with JSON stdout may set ``decision``, ``reason``, ``updated_input``, ``context``,
    ``halt``; anything else is no opinion with a diagnostic. ``parallel`` is settable per
    instance.
    """

    name = "echo"
    harness = "hookwire test dialect"
    events = {seam.value: EventSpec(name=seam.value, seam=seam, matcher_field="tool_name",
                                    can_block=True) for seam in Seam}

    def __init__(self, *, parallel: bool = True, timeout: float = 30.0) -> None:
        self.parallel = parallel  # type: ignore[misc]
        self.timeout = timeout

    def entry(self, event: str, command: str | Sequence[str], *, matcher: str | None = None,
              **kwargs: Any) -> HookEntry:
        """A hook entry of this dialect (``command``: shell text or an argv list)."""
        cmd = command if isinstance(command, str) else tuple(command)
        return HookEntry(dialect=self.name, event=event, command=cmd, matcher=matcher, **kwargs)

    def select(self, entries: Sequence[HookEntry], event: SeamEvent, native: str,
               session: SessionInfo) -> list[HookEntry]:
        name = getattr(event, "tool_name", None)
        return [e for e in entries if self.matches_tool(e, native, name or "")]

    def matches_tool(self, entry: HookEntry, native: str, tool_name: str) -> bool:
        return entry.matcher is None or entry.matcher == tool_name

    def command(self, entry: HookEntry, event: SeamEvent, native: str,
                session: SessionInfo) -> Command:
        payload = {"event": native, "session_id": session.session_id, "cwd": session.cwd,
                   **attrs.asdict(event, recurse=True)}
        stdin = json.dumps(payload, default=str).encode()
        timeout = entry.timeout if entry.timeout is not None else self.timeout
        if isinstance(entry.command, str):
            return Command(shell=entry.command, stdin=stdin, cwd=session.cwd, timeout=timeout)
        return Command(argv=entry.command, stdin=stdin, cwd=session.cwd, timeout=timeout)

    def interpret(self, entry: HookEntry, event: SeamEvent, native: str,
                  outcome: Outcome) -> Answer:
        refuse = Decision.DENY if event.seam in (Seam.TOOL_PRE, Seam.APPROVE) else Decision.BLOCK
        if outcome.kind is OutcomeKind.EXITED and outcome.exit_code == 2:
            return Answer(decision=refuse, reason=(outcome.stderr_text or "").strip())
        if not outcome.ok:
            return Answer(diagnostics=(f"hook {outcome.kind.value} "
                                       f"(exit {outcome.exit_code}, signal {outcome.signal})",))
        text = (outcome.stdout_text or "").strip()
        if not text:
            return Answer()
        try:
            data = json.loads(text)
        except json.JSONDecodeError:
            return Answer(diagnostics=("stdout is not JSON",))
        source = Source(kind=SourceKind.HOOK, name=entry.display, dialect=self.name,
                        event=native)
        contexts: tuple[Context, ...] = ()
        if data.get("context"):
            contexts = (Context(text=str(data["context"]), source=source),)
        halt = Halt(reason=data["halt"], source=source) if "halt" in data else None
        return Answer(decision=Decision(data.get("decision", "none")), reason=data.get("reason"),
                      updated_input=data.get("updated_input"), contexts=contexts, halt=halt)

    def event_from_wire(self, native: str, data: Mapping[str, Any]) -> SeamEvent:
        try:
            cls = EVENT_TYPES[Seam(native)]
        except ValueError:
            raise UnknownEventError(self.name, native, list(self.events)) from None
        return cls(**data)


__all__ = ["EchoDialect", "bare_kernel", "hook_script", "hookwire_kernel", "pid_alive"]
