"""Start-up does only what is used (#16): ``Kernel()`` loads the plugin entry points but
imports no dialect module until a dialect is first asked for, and ``hookwire --version``
loads no entry point. Checked in fresh interpreters, by the modules they end up holding."""

from __future__ import annotations

import json
import subprocess
import sys

_PROBE = """
import json, sys
import hookwire
kernel = hookwire.Kernel()
before = sorted(m for m in sys.modules if m.startswith("hookwire.dialects."))
observed = kernel.registry.observed
kernel.dialect("claude")
after = sorted(m for m in sys.modules if m.startswith("hookwire.dialects."))
print(json.dumps([before, observed, after, kernel.registry.observed]))
"""


def _run(code: str, *args: str) -> str:
    proc = subprocess.run([sys.executable, *args, "-c", code] if code else [sys.executable, *args],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def test_kernel_imports_a_dialect_on_first_use() -> None:
    before, pending, after, observed = json.loads(_run(_PROBE))
    assert before == []
    assert pending is True  # the first dispatch takes the path that loads them
    assert "hookwire.dialects.claude" in after
    assert observed is False  # no audit observer once loaded (none is configured)


def test_version_loads_no_entry_point() -> None:
    code = ("import sys, runpy; sys.argv = ['hookwire', '--version']\n"
            "try:\n    runpy.run_module('hookwire', run_name='__main__')\n"
            "except SystemExit:\n    pass\n"
            "print(sorted(m for m in sys.modules if m.startswith('hookwire.')"
            " and m.split('.')[1] in ('dialects', 'plugins')))")
    assert _run(code).strip().splitlines()[-1] == "[]"
