"""The fast installed entry: what ``hookwire install`` writes by default for every client.

:func:`compile_plan` turns the plugin's hooks (read and validated by the portable dialect) and
the client's payload shape into a JSON plan kept beside the install receipt; :func:`command`
is the client entry that runs ``_entry/hookwire_entry.py`` (standard library only, no hookwire
import) on it, and :func:`prefix` its argv before the per-event arguments (Cline's hook files
and the TypeScript bridge add one ``--plan PLAN --plugin ROOT`` pair per plugin). The design
and its guarantees are in ``docs/install.md``.
"""

from __future__ import annotations

import contextlib
import os
import py_compile
import shlex
import sys
from importlib.util import cache_from_source
from pathlib import Path
from typing import Any

from hookwire.dialects.portable import config as portable_config
from hookwire.dialects.portable import events as pe
from hookwire.dialects.portable.handler import handler_of
from hookwire.dialects.portable.outcome import DEFAULT_CONTEXT_LIMIT
from hookwire.dialects.portable.payload import PAYLOAD_ID

#: The marker token of a fast entry (ownership: see ``_base.owns``).
MARK = "hookwire-entry"
ENTRY_DIR = Path(__file__).resolve().parent / "_entry"
ENTRY_FILE = ENTRY_DIR / "hookwire_entry.py"
#: Every module the entry imports from ``ENTRY_DIR`` (compiled at install: see precompile).
ENTRY_MODULES = (ENTRY_FILE, ENTRY_DIR / "hookwire_payload.py", ENTRY_DIR / "hookwire_run.py")
PLAN_SCHEMA = 1


def plan_path(receipt_path: Path) -> Path:
    """Where the plan of an install lives: beside its receipt (``<plugin>.entry.json``)."""
    return receipt_path.with_suffix(".entry.json")


def prefix() -> list[str]:
    """The entry's argv up to its per-event arguments: ``-I -S`` (no site-packages scan, no
    user site), the entry's folder first on ``sys.path``, and the marker token."""
    boot = f"import sys;sys.path[:0]=[{str(ENTRY_DIR)!r}];import hookwire_entry"
    return [sys.executable, "-I", "-S", "-c", boot, MARK]


def command(plan: Path, client: str, native: str, root: str, answer: str = "") -> str:
    """The shell text a client runs: the entry, and ``|| true`` (or ``|| printf`` of the
    client's empty ``answer``) so that a missing interpreter or a removed hookwire leaves the
    client's answer empty and its exit status 0."""
    from hookwire.plugins.install._base import fail_open

    argv = [*prefix(), "--plan", str(plan), "--client", client, "--event", native,
            "--plugin", root]
    return shlex.join(argv) + fail_open(answer)


def _signature(path: Path) -> list[int] | None:
    try:
        st = path.stat()
    except OSError:
        return None
    return [st.st_size, st.st_mtime_ns]


def compile_plan(client: Any, hooks: portable_config.PluginHooks) -> dict[str, Any]:
    """The plan the entry runs: handlers (unexpanded, as the portable dialect validated them),
    the plugin's identity, the files whose change makes the plan stale, and the client's
    payload shape (``client.fast_entry`` plus its field names and events)."""
    from hookwire.plugins.install._base import STANDARD

    handlers = []
    for entry in portable_config.entries(hooks):
        if entry.event == pe.POST_FAILED:
            continue  # the shadow of post-tool-use: the entry fires post-tool-use itself
        h = handler_of(entry)
        assert not isinstance(entry.command, str)
        handlers.append({
            "event": entry.event, "command": entry.command[0], "args": list(h.args or ()),
            "env": dict(h.env), "cwd": h.cwd, "context": h.context, "display": entry.display,
            "timeout": entry.timeout or pe.EVENT_TIMEOUTS.get(entry.event, pe.DEFAULT_TIMEOUT),
        })
    natives: dict[str, str] = {}
    for event, support in client.capabilities.events.items():
        for native in support.natives:
            natives.setdefault(native, event)
    names = {**STANDARD, **client.fields}
    root = Path(hooks.root)
    return {
        "schema": PLAN_SCHEMA, "root": str(root), "real_root": os.path.realpath(root),
        "name": hooks.name, "payload_id": PAYLOAD_ID, "context_limit": DEFAULT_CONTEXT_LIMIT,
        "signatures": {hooks.file.name: _signature(hooks.file),
                       "plugin.json": _signature(root / "plugin.json")},
        "handlers": handlers,
        "client": {"name": client.name, **client.fast_entry, "natives": natives,
                   "fields": {k: list(names[k]) for k in STANDARD},
                   "failure_events": sorted(client.failure_events),
                   "context": sorted(client.capabilities.context),
                   "project_env": list(client.project_env),
                   "duplicate_of": _duplicate_signs(client)},
    }


def _duplicate_signs(client: Any) -> dict[str, list[list[str]]]:
    """The clients that also read this client's files, with how each is recognised
    (``_base.HOST_SIGNS``): the entry skips its copy under them when the plugin is installed
    for them too."""
    from hookwire.plugins.install._base import HOST_SIGNS

    return {name: [list(HOST_SIGNS[name][0]), list(HOST_SIGNS[name][1])]
            for name in client.read_by}


def precompile() -> None:
    """Cache the entry's bytecode now, so that no client event pays for compiling it."""
    # a read-only install: Python compiles it on each run, still correct
    for module in ENTRY_MODULES:
        with contextlib.suppress(OSError, py_compile.PyCompileError):
            py_compile.compile(str(module), cfile=cache_from_source(str(module)), doraise=True)
