"""Trust pins the exec chain and keeps hooks working (#13).

A trusted hook runs under its own name (``$0``, ``__file__``, its siblings), the files of its
exec chain are pinned by content (launcher options, ``env -S``, project-local interpreters,
``#!`` lines), and what cannot be pinned is text-pinned and refused under ``strict``.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import anyio
import pytest

from hookwire import Decision, HookEntry, Kernel, Provenance, ToolPre, Verdict, trust
from hookwire.runner import run
from hookwire.testing import EchoDialect
from hookwire.trust import TrustGate, TrustStore


def write(path: Path, text: str, mode: int = 0o755) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    path.chmod(mode)
    return path


def marker(tmp_path: Path) -> list[str]:
    m = tmp_path / "marker"
    return m.read_text().splitlines() if m.exists() else []


def hook(kernel: Kernel, store: TrustStore, tmp_path: Path, command: tuple[str, ...] | str,
         approve: bool = True) -> HookEntry:
    e = HookEntry(dialect="echo", event="tool_pre", command=command,
                  provenance=Provenance.IMPORTED)
    kernel.add_hooks([e])
    if approve:
        trust.approve(e, store, pin(kernel, e, tmp_path))
    return e


def pin(kernel: Kernel, e: HookEntry, tmp_path: Path) -> trust.Pin:
    cmd = trust.sample_command(e, kernel.dialect("echo"), project_dir=str(tmp_path))
    return trust.resolve(cmd)[0]


def fire(kernel: Kernel, tmp_path: Path, command: str = "ls") -> Verdict:
    async def go() -> Verdict:
        async with kernel.session(cwd=str(tmp_path), project_dir=str(tmp_path)) as s:
            return await s.dispatch(ToolPre(tool_name="Bash", tool_input={"command": command}))
    return anyio.run(go)


def say(tmp_path: Path, word: str) -> str:
    return f'echo "{word} $0" >> "{tmp_path / "marker"}"\n'


# -- the hook keeps its name and its siblings ---------------------------------------------------


def test_sibling_importing_python_guard_still_blocks_after_trust(setup, tmp_path: Path) -> None:
    kernel, store, _ = setup
    write(tmp_path / "hooks" / "policy.py",
          "def dangerous(cmd):\n    return 'rm -rf /' in cmd\n", 0o644)
    write(tmp_path / "hooks" / "guard.py",
          "import json, os, sys\n"
          "from policy import dangerous\n"
          "data = json.load(sys.stdin)\n"
          # as a direct run of Python 3.9+ sets them: argv[0] as given, __file__ joined to cwd
          "assert sys.argv[0] == './hooks/guard.py'\n"
          "assert __file__ == os.path.join(os.getcwd(), sys.argv[0])\n"
          "if dangerous(data['tool_input'].get('command', '')):\n"
          "    print('blocked by policy', file=sys.stderr); sys.exit(2)\n", 0o644)
    hook(kernel, store, tmp_path, (sys.executable, "./hooks/guard.py"))
    verdict = fire(kernel, tmp_path, "rm -rf /")
    assert verdict.decision is Decision.DENY and "blocked by policy" in (verdict.reason or "")
    assert fire(kernel, tmp_path, "ls").decision is not Decision.DENY


def test_shell_hook_keeps_dollar_zero_and_sources_its_sibling(setup, tmp_path: Path) -> None:
    kernel, store, _ = setup
    write(tmp_path / "hooks" / "lib.sh", say(tmp_path, "lib"), 0o644)
    script = write(tmp_path / "hooks" / "run.sh",
                   '#!/bin/sh\n. "$(dirname "$0")/lib.sh"\n' + say(tmp_path, "main"))
    hook(kernel, store, tmp_path, "./hooks/run.sh")
    fire(kernel, tmp_path)
    assert marker(tmp_path) == ["lib ./hooks/run.sh", "main ./hooks/run.sh"]
    assert script.read_text().startswith("#!/bin/sh")


# -- the four swaps of #13 ---------------------------------------------------------------------


def test_swapped_project_local_interpreter_is_refused(setup, tmp_path: Path) -> None:
    kernel, store, _ = setup
    interp = write(tmp_path / "bin" / "python3",
                   f'#!/bin/sh\n{say(tmp_path, "interp")}exec {sys.executable} "$@"\n')
    write(tmp_path / "hooks" / "x.py", "pass\n", 0o644)
    e = hook(kernel, store, tmp_path, "./bin/python3 ./hooks/x.py")
    assert fire(kernel, tmp_path).decision is not Decision.DENY
    assert [w.split()[0] for w in marker(tmp_path)] == ["interp"]
    assert (str(interp), pin(kernel, e, tmp_path).chain[0][1]) in pin(kernel, e, tmp_path).chain
    write(interp, f'#!/bin/sh\n{say(tmp_path, "evil")}exec {sys.executable} "$@"\n')
    verdict = fire(kernel, tmp_path)
    assert verdict.decision is Decision.DENY and "changed" in (verdict.reason or "")
    assert [w.split()[0] for w in marker(tmp_path)] == ["interp"]


def test_swapped_shebang_interpreter_is_refused(setup, tmp_path: Path) -> None:
    kernel, store, _ = setup
    interp = write(tmp_path / "tools" / "runner", '#!/bin/sh\nexec /bin/sh "$@"\n')
    write(tmp_path / "hooks" / "x.sh", f"#!{interp}\n" + say(tmp_path, "good"))
    hook(kernel, store, tmp_path, "./hooks/x.sh")
    fire(kernel, tmp_path)
    assert [w.split()[0] for w in marker(tmp_path)] == ["good"]
    write(interp, f'#!/bin/sh\n{say(tmp_path, "evil")}exec /bin/sh "$@"\n')
    assert fire(kernel, tmp_path).decision is Decision.DENY
    assert [w.split()[0] for w in marker(tmp_path)] == ["good"]


@pytest.mark.parametrize("command", [("bash", "-o", "posix", "./s.sh"),
                                     ("env", "-S", "sh ./s.sh"),
                                     ("env", "-i", "PATH=/usr/bin:/bin", "sh", "-e", "./s.sh"),
                                     ("bash", "--norc", "-O", "extglob", "./s.sh")])
def test_swapped_launcher_operand_is_refused(setup, tmp_path: Path,
                                             command: tuple[str, ...]) -> None:
    kernel, store, _ = setup
    script = write(tmp_path / "s.sh", say(tmp_path, "good"), 0o644)
    e = hook(kernel, store, tmp_path, command)
    assert pin(kernel, e, tmp_path).path == str(script)
    fire(kernel, tmp_path)
    assert marker(tmp_path) == ["good ./s.sh"]  # and $0 is the script's own name
    write(script, say(tmp_path, "evil"), 0o644)
    assert fire(kernel, tmp_path).decision is Decision.DENY
    assert marker(tmp_path) == ["good ./s.sh"]


def test_swap_between_check_and_exec_runs_the_checked_bytes(setup, tmp_path: Path) -> None:
    kernel, store, gate = setup
    script = write(tmp_path / "s.sh", say(tmp_path, "good"), 0o644)
    e = hook(kernel, store, tmp_path, ("bash", "-o", "posix", "./s.sh"))
    check = gate(e, trust.Seam.TOOL_PRE)
    assert callable(check)
    command = kernel.dialect("echo").command(
        e, ToolPre(tool_name="Bash"), "tool_pre",
        kernel.session(cwd=str(tmp_path), project_dir=str(tmp_path)).info)
    checked = check(command)
    os.replace(write(tmp_path / "evil.sh", say(tmp_path, "evil"), 0o644), script)
    assert anyio.run(run, checked).ok
    assert marker(tmp_path) == ["good ./s.sh"]


# -- what cannot be pinned ---------------------------------------------------------------------


@pytest.mark.parametrize("command", [(sys.executable, "-c", "pass"),
                                     (sys.executable, "-m", "json.tool", "--help"),
                                     "true | cat"])
def test_text_pinned_hooks_are_listed_and_refused_when_strict(setup, tmp_path: Path,
                                                              command: object) -> None:
    kernel, store, gate = setup
    e = hook(kernel, store, tmp_path, command)  # type: ignore[arg-type]
    assert pin(kernel, e, tmp_path).pinned.startswith("pinned by command text only")
    assert fire(kernel, tmp_path).decision is not Decision.DENY
    gate.strict = True
    verdict = fire(kernel, tmp_path)
    assert verdict.decision is Decision.DENY and "strict" in (verdict.reason or "")


def test_strict_comes_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOOKWIRE_TRUST_STRICT", "1")
    assert TrustGate(Kernel(load_entry_points=False), TrustStore(os.devnull + ".x")).strict


def test_trust_listing_names_text_pinned_hooks(tmp_path: Path, home: Path) -> None:
    import subprocess

    (tmp_path / ".hookwire").mkdir()
    (tmp_path / ".hookwire" / "hooks.yaml").write_text(
        "hooks:\n  - dialect: claude\n    event: PreToolUse\n    matcher: Bash\n    type: command\n"
        f"    command: [{json.dumps(sys.executable)}, '-c', 'pass']\n"
        "    source: imported:claude\n")
    env = {**os.environ, "HOME": str(home), "XDG_CONFIG_HOME": str(home / ".config")}
    out = subprocess.run([sys.executable, "-m", "hookwire", "trust"], cwd=tmp_path, env=env,
                         capture_output=True, text=True, timeout=60)
    assert "pinned by command text only" in out.stdout, out.stdout + out.stderr


def test_harness_trust_is_honoured_unless_content_pinning_is_opted_in(tmp_path: Path,
                                                                      home: Path) -> None:
    """Codex trusts by command identity: hookwire honours that by default; with
    ``pin_harness_trusted`` (``HOOKWIRE_TRUST_PIN_HARNESS=1``) the content is pinned too."""
    from hookwire.dialect import HarnessTrust

    class Harness(EchoDialect):
        def harness_trust(self, entry: HookEntry) -> HarnessTrust:
            return HarnessTrust(runs=True, why="trusted by its hash")

    script = write(tmp_path / "s.sh", say(tmp_path, "ran"), 0o644)
    for opt_in, expected in ((False, ["ran ./s.sh"]), (True, [])):
        kernel = Kernel(load_entry_points=False)
        kernel.add_dialect(Harness())
        kernel.trust_gate = TrustGate(kernel, TrustStore(tmp_path / f"t{opt_in}.json"),
                                      pin_harness_trusted=opt_in)
        kernel.add_hooks([HookEntry(dialect="echo", event="tool_pre", command=("sh", "./s.sh"),
                                    provenance=Provenance.LIVE)])
        (tmp_path / "marker").unlink(missing_ok=True)
        verdict = fire(kernel, tmp_path)
        assert marker(tmp_path) == expected
        assert (verdict.decision is Decision.DENY) is opt_in
    assert script.exists()
