"""A third-party dialect in its own distribution is discovered through the entry point.

``toy_dialect/`` is a separate distribution (``hookwire-toy-dialect``) whose only link to
hookwire is the ``hookwire.dialects`` entry point. Both are built into wheels and installed
into a fresh virtual environment without system site-packages, so neither the source tree nor
the development install can leak in; everything is then asked in a subprocess of that
environment.
"""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
TOY = Path(__file__).resolve().parent / "toy_dialect"
TOY_DIST, TOY_VERSION = "hookwire-toy-dialect", "0.3.1"


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("PYTHON", "HOOKWIRE_")) and k != "VIRTUAL_ENV"}
    return {**env, **extra}


def _run(*argv: str | Path, cwd: Path | None = None,
         env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    args = [str(a) for a in argv]
    proc = subprocess.run(args, capture_output=True, text=True, cwd=cwd, env=env or _env(),
                          timeout=600)
    if proc.returncode != 0:
        pytest.fail(f"`{shlex.join(args)}` exited {proc.returncode}\n"
                    f"--- stdout\n{proc.stdout}\n--- stderr\n{proc.stderr}")
    return proc


class Venv:
    def __init__(self, root: Path) -> None:
        self.root = root
        self.python = root / "bin" / "python"
        self.bin = root / "bin"


@pytest.fixture(scope="module")
def venv(tmp_path_factory: pytest.TempPathFactory) -> Venv:
    base = tmp_path_factory.mktemp("third-party")
    wheels = base / "wheels"
    pip = (sys.executable, "-m", "pip")
    # hatchling builds in a temporary directory: neither source tree is written to.
    _run(*pip, "wheel", "--quiet", "--no-deps", "--wheel-dir", wheels, ROOT, TOY)
    env = Venv(base / "venv")
    # No pip inside: the test's pip installs into it (`--python`), which saves seconds.
    _run(sys.executable, "-m", "venv", "--without-pip", env.root)
    _run(*pip, "--python", env.python, "install", "--quiet", *sorted(wheels.glob("*.whl")))
    return env


_PROBE = """
import json, sys
import anyio, hookwire
from hookwire import HookEntry

kernel = hookwire.Kernel()
kernel.add_hooks([HookEntry(dialect="toy", event="BeforeTool", matcher="Bash",
                            command=("/bin/sh", "-c", "echo no toys >&2; exit 2"))])

async def main():
    session = kernel.session(cwd=sys.argv[1])
    denied = await session.tool_pre("Bash", {"command": "ls"})
    other = await session.tool_pre("Read", {"path": "x"})
    return denied, other

denied, other = anyio.run(main)
print(json.dumps({
    "hookwire_path": list(hookwire.__path__),
    "dialects": {name: {"dist": i.dist, "version": i.version, "entry_point": i.entry_point,
                        "class": type(i.dialect).__module__ + "." + type(i.dialect).__name__}
                 for name, i in kernel.dialects.items()},
    "load_errors": [str(e) for e in kernel.load_errors],
    "denied": [denied.decision.value, denied.reason, len(denied.hooks)],
    "other": [other.decision.value, len(other.hooks)],
}))
"""


def _probe(venv: Venv, cwd: Path, **env: str) -> dict[str, object]:
    # -I: no current directory or PYTHONPATH on sys.path, no user site-packages.
    proc = _run(venv.python, "-I", "-c", _PROBE, cwd, cwd=cwd, env=_env(**env))
    result: dict[str, object] = json.loads(proc.stdout)
    return result


def test_hookwire_is_imported_from_the_environment_not_the_source_tree(
        venv: Venv, tmp_path: Path) -> None:
    found = _probe(venv, tmp_path)
    paths = [Path(p).resolve() for p in found["hookwire_path"]]  # type: ignore[attr-defined]
    assert paths and all(p.is_relative_to(venv.root.resolve()) for p in paths), paths
    assert not any(p.is_relative_to(ROOT) for p in paths)


def test_the_toy_dialect_is_discovered_with_its_distribution(venv: Venv, tmp_path: Path) -> None:
    found = _probe(venv, tmp_path)
    dialects = found["dialects"]
    assert isinstance(dialects, dict)
    assert dialects.get("toy") == {"dist": TOY_DIST, "version": TOY_VERSION, "entry_point": "toy",
                                   "class": "hookwire_toy.ToyDialect"}, dialects
    assert not [e for e in found["load_errors"] if "toy" in e], found  # type: ignore[attr-defined]


def test_the_toy_dialect_runs_its_hooks_through_the_kernel(venv: Venv, tmp_path: Path) -> None:
    found = _probe(venv, tmp_path)
    assert found["denied"] == ["deny", "no toys", 1]
    assert found["other"] == ["none", 0]  # the matcher did not match: nothing spawned


def test_the_deny_list_hides_the_toy_dialect(venv: Venv, tmp_path: Path) -> None:
    proc = subprocess.run(
        [str(venv.python), "-I", "-c",
         "import json, hookwire; print(json.dumps(sorted(hookwire.Kernel().dialects)))"],
        capture_output=True, text=True, cwd=tmp_path,
        env=_env(HOOKWIRE_DISABLE_PLUGINS="toy"), timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "toy" not in json.loads(proc.stdout)


def test_hookwire_dialects_lists_the_toy_dialect(venv: Venv, tmp_path: Path) -> None:
    proc = _run(venv.bin / "hookwire", "dialects", cwd=tmp_path)
    line = next((ln for ln in proc.stdout.splitlines() if ln.split()[:1] == ["toy"]), None)
    assert line is not None, proc.stdout
    assert f"({TOY_DIST} {TOY_VERSION})" in line
