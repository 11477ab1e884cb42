"""What the ``install``, ``uninstall`` and ``portable-hook`` commands need to be registered on
the CLI, without importing the installers: ``hookwire --help`` builds every subcommand's
parser, and the installers import the portable dialect (~170 ms)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

#: Every supported client's ``--client`` name, in ``engine.clients()`` order (a test holds
#: the two together).
CLIENT_NAMES = ("claude-code", "codex", "cursor", "copilot-cli", "gemini-cli", "cline",
                "windsurf", "opencode", "grok", "kilo", "pi", "kiro")
#: The module installed entries fall back to (the full shim).
SHIM_MODULE = "hookwire.plugins.install.shim"
#: How clients start the shim unless ``--command`` says otherwise.
DEFAULT_PREFIX: tuple[str, ...] = (sys.executable, "-m", SHIM_MODULE)


def add_shim_arguments(parser: argparse.ArgumentParser) -> None:
    """The arguments of ``hookwire portable-hook`` (and ``python -m`` the shim)."""
    parser.add_argument("--client", required=True,
                        help="the agent client that runs this entry (claude-code, cursor, ...)")
    parser.add_argument("--event", required=True, help="the client's native event name")
    parser.add_argument("--plugin", action="append", required=True, type=Path,
                        help="plugin root (repeatable: handlers run plugin by plugin)")
