"""Start-up imports only what is used (#16, item 5): ``Kernel()`` registers the plugin entry
points without importing the events, verdicts, dialects, runner or importlib.metadata; the
dispatch side is built on first use; ``hookwire.render`` is the function whichever of it and
its module is imported first; ``--version`` and ``--help`` load no dialect. Each import check
runs in a fresh interpreter and looks at the modules it ends up holding (no timing here:
``benchmarks/bench_import.py`` measures)."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

import pytest

from hookwire import runner
from hookwire.kernel import Kernel

#: Modules that registering the entry points does not need (the dialects' are checked apart).
NOT_AT_START = ("hookwire.events", "hookwire.verdicts", "hookwire.dialect", "hookwire.dispatch",
                "hookwire.runner", "hookwire.tools", "hookwire.session", "hookwire.render",
                "hookwire.audit", "hookwire.timeline",
                "hookwire.driver", "hookwire.plugins.runlog.recorder",
                "importlib.metadata", "email")


def _modules(code: str, tmp_path: Path, **env: str) -> list[str]:
    """The modules a fresh interpreter holds after ``code`` (printed last, as a list)."""
    base = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "HOOKWIRE_"))}
    proc = subprocess.run([sys.executable, "-c", f"{code}\nimport sys\nprint(sorted(sys.modules))"],
                          capture_output=True, text=True, cwd=tmp_path, env={**base, **env},
                          timeout=120)
    assert proc.returncode == 0, proc.stderr
    modules: list[str] = ast.literal_eval(proc.stdout.strip().splitlines()[-1])
    return modules


def test_kernel_imports_only_what_registration_needs(tmp_path: Path) -> None:
    modules = _modules("import hookwire\nhookwire.Kernel()", tmp_path)
    # the plugin entry points did load (a dialect's only on first use)
    assert {"hookwire.plugins.runlog", "hookwire.plugins.otel",
            "hookwire.plugins.pydantic_ai.profile"} <= set(modules)
    assert [m for m in modules if m.startswith("hookwire.dialects.")] == []
    assert [m for m in NOT_AT_START if m in modules] == []


def test_host_profiles_are_built_when_asked_for(tmp_path: Path) -> None:
    _modules("import sys, hookwire\nkernel = hookwire.Kernel()\n"
             "assert 'hookwire.events' not in sys.modules\nhosts = kernel.hosts\n"
             "assert {'reference', 'pydantic-ai', 'langchain', 'openai-agents'} <= set(hosts)\n"
             "from hookwire.plugins.langchain.profile import PROFILE\n"
             "assert hosts['langchain'] is PROFILE and kernel.hosts['langchain'] is PROFILE\n"
             "from hookwire.events import Seam\n"
             "assert PROFILE.emits(Seam.TOOL_PRE) and Seam.NOTIFICATION in PROFILE.missing",
             tmp_path)


def test_the_first_session_builds_the_dispatch_side(tmp_path: Path) -> None:
    modules = _modules("import hookwire\nhookwire.Kernel().session(cwd='.')", tmp_path)
    assert {"hookwire.dispatch", "hookwire.runner", "hookwire.session"} <= set(modules)


def test_the_dispatch_side_is_built_once_on_first_use() -> None:
    kernel = Kernel(load_entry_points=False, output_cap=4096, shell_elision=True)
    assert not {"tools", "dispatcher", "dispatch", "match_check"} & set(vars(kernel))
    tools = kernel.tools
    built = vars(kernel)
    assert built["dispatcher"].tools is tools and built["dispatcher"].index is kernel.index
    # the hot path: an instance attribute holding the dispatcher's own bound method
    assert built["dispatch"] == kernel.dispatcher.dispatch
    assert built["dispatch"].__self__ is kernel.dispatcher
    assert kernel.match_check is built["match_check"]
    assert kernel.output_cap == 4096 and kernel.dispatcher.shell_elision is True
    assert Kernel(load_entry_points=False).output_cap == runner.DEFAULT_OUTPUT_CAP
    with pytest.raises(AttributeError, match="'Kernel' object has no attribute 'toolz'"):
        kernel.toolz  # noqa: B018


_RENDER_CHECK = """
import sys
import hookwire
from hookwire import Verdict, Seam, Subject
module = sys.modules["hookwire.render"]
assert hookwire.render is module.render, hookwire.render
from hookwire.render import ModelText, neutral
assert ModelText is hookwire.ModelText
verdict = Verdict(seam=Seam.STOP)
assert hookwire.render(verdict, lambda name: None) == neutral(verdict, Subject())
"""


@pytest.mark.parametrize("first", [
    "import hookwire\nassert 'hookwire.render' not in sys.modules\nhookwire.render",
    "from hookwire import render",
    "from hookwire.render import ModelText",
    "import hookwire.render",
    "import hookwire.render as alias",
    "import hookwire\nhookwire.ModelText",
], ids=["attribute", "from-package", "from-module", "import-module", "import-as", "class"])
def test_render_is_the_function_whichever_comes_first(first: str, tmp_path: Path) -> None:
    _modules(f"import sys\n{first}\n{_RENDER_CHECK}", tmp_path)


def test_import_hookwire_imports_nothing_more(tmp_path: Path) -> None:
    modules = _modules("import hookwire", tmp_path)
    assert [m for m in modules if m.startswith("hookwire.")] == ["hookwire._version"]


_CLI = ("import runpy, sys\nsys.argv = ['hookwire', {flag!r}]\n"
        "try:\n    runpy.run_module('hookwire', run_name='__main__')\n"
        "except SystemExit:\n    pass")


def test_version_builds_no_kernel(tmp_path: Path) -> None:
    modules = _modules(_CLI.format(flag="--version"), tmp_path)
    assert [m for m in modules if m.startswith(("hookwire.dialects.", "hookwire.plugins."))] == []
    assert "hookwire.kernel" not in modules
    assert [m for m in NOT_AT_START if m in modules] == []


def test_help_loads_no_dialect_entry_point(tmp_path: Path) -> None:
    modules = _modules(_CLI.format(flag="--help"), tmp_path)
    assert "hookwire.plugins.install.cli" in modules  # the plugins' commands are listed
    # (the install plugin's commands import the portable dialect's modules themselves)
    assert "hookwire.dialects.claude" not in modules and "hookwire.dialects.codex" not in modules


def test_help_without_the_install_plugin_imports_no_dialect_module(tmp_path: Path) -> None:
    modules = _modules(_CLI.format(flag="--help"), tmp_path, HOOKWIRE_DISABLE_PLUGINS="install")
    assert [m for m in modules if m.startswith("hookwire.dialects.")] == []
    assert [m for m in NOT_AT_START if m in modules] == []
