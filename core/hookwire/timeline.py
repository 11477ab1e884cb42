"""The timeline of a session: each seam, the hooks that ran, their outcomes and the verdict.

One renderer for a live session (``hookwire demo``, through :class:`Timeline` on the audit
plane) and a recorded one (``hookwire log``, reading the run log's JSON lines): both go through
:func:`seam_record`, the JSON shape of one seam, and :func:`render_seam`.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterable, Mapping
from typing import Any, TextIO

import attrs

from hookwire.audit import Invocation
from hookwire.events import SeamEvent
from hookwire.hookspecs import hookimpl
from hookwire.verdicts import Verdict

__all__ = ["Timeline", "render", "render_seam", "seam_record", "status_message"]

_PROJECT_VAR = re.compile(r'"?\$\{?[A-Z]*_?PROJECT_DIR\}?"?')
#: Event fields the timeline leaves out of a seam's one-line description.
_QUIET = ("prompt_id", "tool_use_id", "extra", "agent_id", "agent_type")


def seam_record(event: SeamEvent, verdict: Verdict, *, session_id: str | None = None,
                duration_ms: float | None = None) -> dict[str, Any]:
    """The JSON record of one dispatched seam: its event's fields, the verdict's JSON shape
    (``docs/verdict-json.md``) with the original and effective input, and when."""
    fields = {k: v for k, v in attrs.asdict(event, recurse=False).items()
              if v not in (None, {}, "", ())}
    out = verdict.to_json()
    out["original_input"] = _plain(verdict.original_input)
    out["effective_input"] = _plain(verdict.effective_input)
    record: dict[str, Any] = {"type": "seam", "time": time.time(), "session_id": session_id,
                              "seam": event.seam.value, "event": _plain(fields),
                              "verdict": out}
    if duration_ms is not None:
        record["duration_ms"] = round(duration_ms, 3)
    return record


def status_message(invocation: Invocation) -> str | None:
    """The ``statusMessage`` a hook's handler declares (Claude Code, Codex), shown while it
    runs; ``None`` when it has none."""
    handler = invocation.entry.handler if invocation.entry is not None else None
    for name in ("status_message", "statusMessage"):
        value = getattr(handler, name, None)
        if isinstance(value, str) and value:
            return value
    return None


def render_seam(record: Mapping[str, Any], out: TextIO, *, root: str | None = None) -> None:
    """Write one seam record as the timeline shows it (``root`` is shortened to ``.``)."""
    w = out.write
    verdict = record["verdict"]
    w(f"\n● {record['seam']:<14} {_describe(record.get('event') or {})}\n")
    for h in verdict.get("hooks", ()):
        how = (f"exit {h['exit_code']}" if h.get("exit_code") is not None
               else f"signal {h['signal']}" if h.get("signal") else h["outcome"])
        cmd = h["command"]
        if root:
            cmd = cmd.replace(root, ".")
        cmd = _PROJECT_VAR.sub(".", cmd)  # "$<HARNESS>_PROJECT_DIR" reads as the project
        w(f"    hook {h['dialect']}:{h['event']:<16} {cmd:<36} {how:<8} "
          f"{h['duration_ms']:7.1f} ms  → {h['decision']}\n")
        for d in h.get("diagnostics", ()):
            w(f"         ! {d}\n")
    for p in verdict.get("plugins", ()):
        w(f"    plugin {p['name']:<50} {p['outcome']:<10} {p['duration_ms']:7.1f} ms  "
          f"→ {p['decision']}\n")
    w(f"    verdict: {_summary(verdict)}\n")
    if verdict.get("updated_input") is not None:
        w(f"    effective input: {json.dumps(verdict['updated_input'])}\n")
    for c in verdict.get("contexts", ()):
        w(f"    + context from {c['source']['label']}: {_short(c['text'])}\n")


def render(records: Iterable[Mapping[str, Any]], out: TextIO) -> int:
    """Write a recorded session (the run log's records, in order) as its timeline: a header,
    each hook's status message when it started, each seam; returns the number of seams."""
    seams = 0
    root: str | None = None
    for record in records:
        kind = record.get("type")
        if kind == "session":
            root = record.get("project_dir") or record.get("cwd")
            started = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(record["time"]))
            out.write(f"session {record['session_id']}  started {started}  "
                      f"host {record.get('host') or '?'}  cwd {record.get('cwd') or '?'}\n")
        elif kind == "invoked" and record.get("status_message"):
            out.write(f"\n  … {record['status_message']}")
        elif kind == "seam":
            seams += 1
            render_seam(record, out, root=root)
    return seams


class Timeline:
    """A native plugin on the audit plane printing each seam of a live session as it is
    folded (``as_json``: one :func:`seam_record` per line). A hook's ``statusMessage`` is the
    host's to show when the hook starts (the reference host's ``on_status``)."""

    hookwire_name = "timeline"

    def __init__(self, out: TextIO, *, root: str | None = None, as_json: bool = False) -> None:
        self.out = out
        self.root = root
        self.as_json = as_json

    @hookimpl
    def seam_verdict(self, event: SeamEvent, verdict: Verdict) -> None:
        record = seam_record(event, verdict)
        if self.as_json:
            self.out.write(json.dumps(record, default=str) + "\n")
        else:
            render_seam(record, self.out, root=self.root)


def _describe(fields: Mapping[str, Any]) -> str:
    shown = {k: v for k, v in fields.items() if k not in _QUIET}
    return _short(json.dumps(shown, default=str), 90)


def _summary(v: Mapping[str, Any]) -> str:
    if v.get("halt") is not None:
        return f"HALT ({v['halt']['reason']})"
    if v.get("continue"):
        return f"CONTINUE the turn: {_short(v.get('reason') or '')}"
    if v["decision"] == "none":
        return "no objection"
    return str(v["decision"]).upper() + (f": {_short(v['reason'])}" if v.get("reason") else "")


def _short(text: str, limit: int = 110) -> str:
    text = text.replace("\n", " ⏎ ")
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _plain(value: Any) -> Any:
    """``value`` as JSON can hold it (mappings and tuples of the event made plain)."""
    return json.loads(json.dumps(value, default=str)) if value is not None else None
