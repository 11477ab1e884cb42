"""Recording the audit plane to one JSON-lines file per session."""

from __future__ import annotations

import hashlib
import json
import logging
import os
import re
import time
from pathlib import Path
from typing import Any

from hookwire.audit import Invocation, InvocationResult
from hookwire.events import SeamEvent
from hookwire.hookspecs import hookimpl
from hookwire.plugins.runlog.switch import ENV as ENV
from hookwire.plugins.runlog.switch import default_dir as default_dir
from hookwire.plugins.runlog.switch import log_dir as log_dir
from hookwire.timeline import seam_record, status_message
from hookwire.verdicts import Verdict

log = logging.getLogger("hookwire")

AUDIT = ("seam_started", "hook_invoked", "hook_result", "seam_verdict")


def session_file(directory: Path, session_id: str) -> Path:
    """The file of one session (its id made safe for a file name)."""
    return directory / (re.sub(r"[^A-Za-z0-9._-]", "_", session_id)[:120] + ".jsonl")


class RunLog:
    """A native plugin recording every seam, hook and verdict under ``directory``."""

    hookwire_name = "runlog-recorder"

    def __init__(self, directory: str | os.PathLike[str]) -> None:
        self.directory = Path(directory)
        self._sessions: set[str] = set()
        self._started: dict[int, float] = {}
        self._failed = False

    def _write(self, session_id: str, record: dict[str, Any]) -> None:
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
            with open(session_file(self.directory, session_id), "a", encoding="utf-8") as fh:
                fh.write(json.dumps(record, default=str, ensure_ascii=False) + "\n")
        except OSError as exc:  # a full disk must not stop an agent; say so once
            if not self._failed:
                self._failed = True
                log.warning("run log: cannot write under %s: %s", self.directory, exc)

    @hookimpl
    def seam_started(self, event: SeamEvent, session: Any) -> None:
        info = session.info
        if info.session_id not in self._sessions:
            self._sessions.add(info.session_id)
            host = getattr(session, "host", None)
            self._write(info.session_id, {
                "type": "session", "time": time.time(), "session_id": info.session_id,
                "cwd": info.cwd, "project_dir": info.project_dir, "model": info.model,
                "permission_mode": info.permission_mode,
                "host": getattr(host, "name", None),
                "enforcement": session.kernel.dispatcher.mode()})
        self._started[id(event)] = time.perf_counter()
        self._write(info.session_id, {"type": "seam_started", "time": time.time(),
                                      "seam": event.seam.value})

    @hookimpl
    def hook_invoked(self, invocation: Invocation) -> None:
        record: dict[str, Any] = {
            "type": "invoked", "time": time.time(), "id": invocation.id,
            "seam": invocation.seam.value, "source": invocation.source.label(),
            "native_event": invocation.native_event}
        entry, command = invocation.entry, invocation.command
        if entry is not None:
            record.update(dialect=entry.dialect, matcher=entry.matcher,
                          provenance=entry.provenance.value,
                          file=entry.location.file, line=entry.location.line,
                          status_message=status_message(invocation))
        if command is not None:
            record.update(
                command=list(command.argv) if command.argv is not None else command.shell,
                shell=command.shell is not None,
                stdin_sha256=hashlib.sha256(command.stdin).hexdigest(),
                stdin_bytes=len(command.stdin),
                env_keys=sorted(command.env) if command.env is not None else None,
                cwd=command.cwd, timeout=command.timeout)
        self._write(invocation.session_id, record)

    @hookimpl
    def hook_result(self, result: InvocationResult) -> None:
        answer, outcome = result.answer, result.outcome
        record: dict[str, Any] = {
            "type": "result", "time": time.time(), "id": result.invocation.id,
            "decision": answer.decision.value, "reason": answer.reason,
            "updated_input": answer.updated_input, "contexts": [c.text for c in answer.contexts],
            "halt": answer.halt.reason if answer.halt is not None else None,
            "diagnostics": list(answer.diagnostics)}
        if outcome is not None:
            record.update(outcome=outcome.kind.value, exit_code=outcome.exit_code,
                          signal=outcome.signal, duration_ms=outcome.duration_ms,
                          timed_out=outcome.kind.value == "timed_out")
        if result.error is not None:
            record["error"] = repr(result.error)
        self._write(result.invocation.session_id, record)

    @hookimpl
    def seam_verdict(self, event: SeamEvent, session: Any, verdict: Verdict) -> None:
        started = self._started.pop(id(event), None)
        took = (time.perf_counter() - started) * 1000 if started is not None else None
        self._write(session.info.session_id, seam_record(
            event, verdict, session_id=session.info.session_id, duration_ms=took))
