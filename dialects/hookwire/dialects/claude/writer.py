"""Writing Claude Code's hook configuration: the inverse of :mod:`.config` for command and
http handlers.

The document is what a settings file or a plugin's ``hooks.json`` holds under ``hooks``:
``{"hooks": {Event: [{"matcher"?, "hooks": [handler, ...]}, ...]}}``. One group per
consecutive run of one event and matcher, so the order of the hooks is kept. Keys appear in
the order Claude Code's documentation writes them (``type``, ``command``, ``timeout``, ...)
and only when they differ from Claude Code's defaults. Commands are written as the entry holds
them: plugin placeholders an entry was read with are already substituted.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import attrs

from hookwire.dialect import HookEntry

#: attrs field names of a typed handler that Claude Code spells otherwise.
_WIRE_NAMES = {"if_": "if", "async_": "async"}


def write_config(entries: Sequence[HookEntry]) -> dict[str, Any]:
    """The ``{"hooks": ...}`` document holding ``entries``, as Claude Code reads it."""
    hooks: dict[str, list[dict[str, Any]]] = {}
    for entry in entries:
        groups = hooks.setdefault(entry.event, [])
        if not groups or groups[-1].get("matcher") != entry.matcher:
            group: dict[str, Any] = {} if entry.matcher is None else {"matcher": entry.matcher}
            group["hooks"] = []
            groups.append(group)
        groups[-1]["hooks"].append(handler(entry))
    return {"hooks": hooks}


def handler(entry: HookEntry) -> dict[str, Any]:
    """The handler object of one entry."""
    fields = _fields(entry)
    out: dict[str, Any]
    if fields.get("type") == "http":
        out = {"type": "http", "url": entry.display}
        if fields.get("headers"):
            out["headers"] = dict(fields["headers"])
        if fields.get("allowedEnvVars"):
            out["allowedEnvVars"] = list(fields["allowedEnvVars"])
    elif isinstance(entry.command, str):
        out = {"type": "command", "command": entry.command}
        if fields.get("shell") == "powershell":
            out["shell"] = "powershell"
    else:  # exec form
        out = {"type": "command", "command": entry.command[0], "args": list(entry.command[1:])}
    if entry.timeout is not None:
        out["timeout"] = _number(entry.timeout)
    if fields.get("asyncRewake"):
        out["asyncRewake"] = True  # read back as a background hook
        for key in ("rewakeMessage", "rewakeSummary"):
            if fields.get(key) is not None:
                out[key] = fields[key]
    elif entry.background:
        out["async"] = True
    if fields.get("onFailure", "continue") != "continue":
        out["onFailure"] = fields["onFailure"]
    for key in ("if", "statusMessage"):
        if fields.get(key) is not None:
            out[key] = fields[key]
    return out


def _fields(entry: HookEntry) -> Mapping[str, Any]:
    """The entry's Claude-specific fields by their wire names, from its typed handler (none:
    Claude Code's defaults)."""
    if entry.handler is not None and attrs.has(type(entry.handler)):
        return {_WIRE_NAMES.get(k, k): v
                for k, v in attrs.asdict(entry.handler, recurse=False).items()}
    return {}


def _number(seconds: float) -> int | float:
    """Whole seconds as an integer (``600``, not ``600.0``), as people write them."""
    return int(seconds) if float(seconds).is_integer() else seconds
