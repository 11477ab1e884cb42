"""What the ``import``, ``trust`` and ``check`` subcommands share."""

from __future__ import annotations

import os
import sys
from typing import Any

EXIT_OK, EXIT_PROBLEMS, EXIT_USAGE = 0, 1, 2



def _kernel() -> Any:
    from hookwire.kernel import Kernel

    return Kernel()


def _host(kernel: Any, name: str) -> Any:
    from hookwire.errors import HookwireError

    hosts = kernel.hosts
    if name not in hosts:
        raise HookwireError(f"unknown host {name!r} (declared: {', '.join(sorted(hosts))})")
    return hosts[name]


def _load() -> Any:
    from hookwire.config import load

    return load(os.getcwd())


def _print_file_errors(exc: Any) -> int:
    for err in getattr(exc, "errors", (exc,)):
        print(f"invalid     {err.file}:{err.line or '?'}  {err.message}"
              + (f" (event {err.event})" if err.event else "")
              + (f" [{err.entry}]" if err.entry else ""))
    sys.stderr.write("hookwire: error: a hooks file is invalid\n")
    return EXIT_USAGE


def _where(file: str | None, line: int | None) -> str:
    if file is None:
        return "<memory>"
    try:
        shown = os.path.relpath(file)
        if shown.startswith(".." + os.sep + ".."):
            shown = file
    except ValueError:
        shown = file
    return f"{shown}:{line or '?'}"


def _what(entry: Any) -> str:
    matcher = f" [{entry.matcher}]" if entry.matcher else ""
    return f"{entry.dialect}:{entry.event}{matcher}  `{entry.display}`"


def _in_process(kernel: Any, entry: Any) -> str | None:
    """Where ``entry`` runs when it is not a process (an http, prompt, agent or mcp_tool
    hook), else ``None``: its approval pins its text, and no file is read to run it."""
    try:
        part = kernel.dialect(entry.dialect).runs_on(entry)
    except Exception:  # a dialect that cannot say: treat it as a process
        return None
    if part is None:
        return None
    return "in hookwire's process" if part == "hookwire" else \
        f"on the host's {_PARTS.get(part, part)}"


_PARTS = {"model": "model", "mcp": "MCP session"}


def _pin_now(kernel: Any, entry: Any, root: str) -> Any:
    from hookwire import trust

    command = trust.sample_command(entry, kernel.dialect(entry.dialect), project_dir=root)
    return trust.resolve(command)[0]
