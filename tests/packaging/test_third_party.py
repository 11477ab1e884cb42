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


# -- import, trust and check through the CLI, for a dialect core has never heard of ------------

_FIRE = """
import json, sys
import anyio
from hookwire import Kernel
from hookwire.config import install

kernel = Kernel()
install(kernel)

async def main():
    async with kernel.session(cwd=".", project_dir=sys.argv[1]) as session:
        verdict = await session.tool_pre("Bash", {"command": "ls"})
    return verdict

verdict = anyio.run(main)
print(json.dumps({"decision": verdict.decision.value, "reason": verdict.reason}))
"""

TOYS = {"toys": [
    {"on": "BeforeTool", "tool": "Bash", "run": "./guard.sh --strict", "label": "guard"},
    {"on": "BeforeTool", "tool": "Bash", "run": ["./guard.sh"], "off": True},
    {"on": "Nap", "run": "./nap.sh"},
]}


class ToyProject:
    def __init__(self, venv: Venv, root: Path) -> None:
        self.venv, self.root = venv, root
        home = root / "home"
        (home / ".config").mkdir(parents=True)
        self.env = _env(HOME=str(home), XDG_CONFIG_HOME=str(home / ".config"))
        self.marker = root / "marker"

    def hookwire(self, *args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([str(self.venv.bin / "hookwire"), *args], cwd=self.root,
                              env=self.env, capture_output=True, text=True, timeout=120)

    def fire(self) -> dict[str, object]:
        proc = _run(self.venv.python, "-I", "-c", _FIRE, self.root, cwd=self.root, env=self.env)
        result: dict[str, object] = json.loads(proc.stdout)
        return result


@pytest.fixture
def toy_project(venv: Venv, tmp_path: Path) -> ToyProject:
    project = ToyProject(venv, tmp_path)
    (tmp_path / ".toy").mkdir()
    (tmp_path / ".toy" / "toys.json").write_text(json.dumps(TOYS, indent=2))
    guard = tmp_path / "guard.sh"
    guard.write_text('#!/bin/sh\necho "$TOY_LABEL $*" >> marker\n'
                     'echo "no toys ($TOY_LABEL)" >&2\nexit 2\n')
    guard.chmod(0o755)
    return project


def test_a_third_party_dialect_is_imported_trusted_checked_and_fired_through_the_cli(
        toy_project: ToyProject) -> None:
    p = toy_project
    # check without a hooks file names the toy's own config, found through config_paths
    unread = p.hookwire("check")
    assert unread.returncode == 0, unread.stderr
    assert any(".toy/toys.json" in ln and "hookwire import toy" in ln
               for ln in unread.stdout.splitlines()), unread.stdout

    # import: no path given, so the dialect's first config path; export decides what is kept
    imported = p.hookwire("import", "toy")
    assert imported.returncode == 0, imported.stdout + imported.stderr
    rows = imported.stdout.splitlines()
    assert any(r.startswith("imported") and "`./guard.sh --strict`" in r for r in rows), rows
    assert any(r.startswith("rejected") and "switched off in the toy file" in r
               for r in rows), rows
    assert any(r.startswith("rejected") and "no seam maps the event 'Nap'" in r
               for r in rows), rows
    written = (p.root / ".hookwire" / "hooks.yaml").read_text()
    assert "dialect: toy" in written and "source: imported:toy" in written
    assert "command: [./guard.sh, --strict]" in written  # shell text made an exact argv
    assert "label: guard" in written  # the handler, exported and read back

    # imported hooks wait for approval: check says so, and the hook does not run
    pending = p.hookwire("check", "--strict")
    assert pending.returncode == 1, pending.stdout + pending.stderr
    assert pending.stdout.startswith("untrusted"), pending.stdout
    refused = p.fire()
    assert refused["decision"] == "deny" and "untrusted" in str(refused["reason"]), refused
    assert not p.marker.exists()

    trusted = p.hookwire("trust", "--all")
    assert trusted.returncode == 0, trusted.stderr
    assert trusted.stdout.startswith("trusted") and "toy:BeforeTool [Bash]" in trusted.stdout
    assert f"pins {p.root.resolve() / 'guard.sh'}" in trusted.stdout, trusted.stdout

    strict = p.hookwire("check", "--strict")
    assert strict.returncode == 0, strict.stdout + strict.stderr
    assert strict.stdout.startswith("runs") and "imported, trusted, id" in strict.stdout
    as_json = p.hookwire("check", "--json")
    assert as_json.returncode == 0, as_json.stderr
    doc = json.loads(as_json.stdout)
    (hook,) = doc["hooks"]
    assert (hook["status"], hook["dialect"], hook["event"], hook["provenance"]) == (
        "runs", "toy", "BeforeTool", "imported")
    assert hook["command"] == ["./guard.sh", "--strict"]
    assert doc["summary"]["not running"] == 0 and doc["summary"]["runs"] == 1

    # and it runs: the guard's label came back through handler_from_options
    fired = p.fire()
    assert fired == {"decision": "deny", "reason": "no toys (guard)"}
    assert p.marker.read_text().split() == ["guard", "--strict"]


def test_the_toy_harness_trust_decides_for_toys_read_live(toy_project: ToyProject) -> None:
    p = toy_project
    (p.root / ".toy" / "live.json").write_text(json.dumps({"toys": [
        {"tool": "Bash", "run": ["./guard.sh", "blessed"], "label": "b", "blessed": True},
        {"tool": "Bash", "run": ["./guard.sh", "plain"]},
        {"tool": "Bash", "run": ["./guard.sh", "off"], "off": True},
    ]}))
    (p.root / ".hookwire").mkdir()
    (p.root / ".hookwire" / "hooks.yaml").write_text(
        "version: 1\nsources:\n  - dialect: toy\n    path: .toy/live.json\n")
    proc = p.hookwire("check", "--json")
    assert proc.returncode == 0, proc.stderr
    statuses = {tuple(h["command"])[-1]: (h["status"], h["detail"])
                for h in json.loads(proc.stdout)["hooks"]}
    assert statuses["blessed"] == ("runs", "live, toy's own trust record: blessed")
    assert statuses["plain"][0] == "untrusted" and "pending approval" in statuses["plain"][1]
    assert statuses["off"][0] == "disabled", statuses
    listed = p.hookwire("trust")
    assert "./guard.sh plain" in listed.stdout and "blessed" not in listed.stdout
