"""The CLI registers the install commands without importing the installers: what it states
instead must stay what the installers say."""

from __future__ import annotations

import subprocess
import sys

from hookwire.plugins.install import engine
from hookwire.plugins.install.names import CLIENT_NAMES


def test_the_client_names_are_the_installers() -> None:
    assert tuple(engine.clients()) == CLIENT_NAMES


def test_help_imports_no_installer_and_no_dialect() -> None:
    code = ("import sys, contextlib, io\n"
            "from hookwire import cli\n"
            "with contextlib.redirect_stdout(io.StringIO()), contextlib.suppress(SystemExit):\n"
            "    cli.main(['--help'])\n"
            "print(sorted(m for m in sys.modules if m.startswith(('hookwire.dialects',\n"
            "      'hookwire.plugins.install.engine', 'hookwire.plugins.install._base'))))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "[]", out
