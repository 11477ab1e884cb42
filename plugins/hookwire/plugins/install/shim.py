"""The full path of an installed client entry: one client event → the plugin's portable
handlers, run by hookwire's portable dialect, observe-only. Entries written with
``--command`` run it, and the fast entry (``entry.py``) execs it when a plan is missing or
stale; ``tests/plugins/install/test_fast_entry.py`` holds the two to the same envelopes.

    python -m hookwire.plugins.install.shim --client cursor --event postToolUse --plugin ROOT

It reads the client's native payload on stdin, translates it to seam events (nothing is
normalised: the client's tool name passes through), dispatches them to the handlers of every
``--plugin`` in order, prints the client's answer (its context channel, or an empty answer),
and exits 0 whatever the handlers did, so no client ever reads a block from a portable hook.
SIGTERM from a client's own timeout ends the running handlers' process groups.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import anyio

from hookwire.dialect import Provenance
from hookwire.dialects.portable import PortableDialect
from hookwire.dialects.portable import config as portable_config
from hookwire.dialects.portable.payload import data_dir
from hookwire.kernel import Kernel
from hookwire.plugins.install import receipt
from hookwire.plugins.install._base import Client, Translation, running_under
from hookwire.plugins.install.names import add_shim_arguments as add_arguments
from hookwire.verdicts import Context


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="hookwire portable-hook")
    add_arguments(parser)
    return run(parser.parse_args(argv))


def run(args: argparse.Namespace) -> int:
    from hookwire.plugins.install.engine import clients

    cl = clients().get(args.client)
    raw = sys.stdin.buffer.read()
    try:
        payload = json.loads(raw) if raw.strip() else {}
    except ValueError:
        payload = {}
    if cl is None or not isinstance(payload, dict):
        return 0
    contexts: list[Context] = []
    try:
        contexts = anyio.run(_fire, cl, args.event, payload, list(args.plugin))
    except Exception as exc:  # never let a portable hook problem reach the client as a block
        sys.stderr.write(f"hookwire: portable hooks not run: {exc}\n")
    sys.stdout.buffer.write(cl.respond(args.event, contexts))
    sys.stdout.flush()
    return 0


async def _fire(cl: Client, native: str, payload: dict[str, Any],
                roots: list[Path]) -> list[Context]:
    contexts: list[Context] = []
    async with anyio.create_task_group() as tg:
        tg.start_soon(_on_sigterm, tg.cancel_scope)
        for root in roots:
            if _duplicate(cl, root, payload):
                continue
            contexts += await _fire_plugin(cl, native, payload, root)
        tg.cancel_scope.cancel()
    return contexts


async def _fire_plugin(cl: Client, native: str, payload: dict[str, Any],
                       root: Path) -> list[Context]:
    hooks = portable_config.load(root)
    dialect = PortableDialect()
    kernel = Kernel(load_entry_points=False)
    kernel.add_dialect(dialect)
    kernel.add_hooks(portable_config.entries(hooks, Provenance.USER))
    state = data_dir(hooks.name) / ".hookwire"
    found: list[Translation] = cl.translations(native, payload, state,
                                               "session-start" in hooks.events)
    contexts: list[Context] = []
    for t in found:
        async with kernel.session(session_id=t.session_id, cwd=t.cwd,
                                  project_dir=t.project_dir or t.cwd) as session:
            verdict = await session.dispatch(t.event)
        contexts += verdict.contexts
        for report in verdict.hooks:
            for diag in report.diagnostics:
                sys.stderr.write(f"hookwire: {report.command}: {diag}\n")
    return contexts


async def _on_sigterm(scope: anyio.CancelScope) -> None:
    with anyio.open_signal_receiver(signal.SIGTERM) as signals:
        async for _ in signals:
            scope.cancel()
            return


def _duplicate(cl: Client, root: Path, payload: dict[str, Any]) -> bool:
    """Cursor, Copilot CLI and Grok also run Claude Code's settings, and Grok Cursor's: skip
    that copy under them when the plugin is installed for them too (it fires there through
    their own entry)."""
    host = running_under(cl.read_by, payload)
    if host is None:
        return False
    name = portable_config.plugin_name(root)
    home = Path(os.environ.get("HOME") or Path.home())
    installs = receipt.config_home(home) / "installs" / host
    return installs.is_dir() and any(installs.glob(f"*/{name}.json"))


if __name__ == "__main__":
    raise SystemExit(main())
