"""The trust tier: every transition, swaps after approval, the check/exec window."""

from __future__ import annotations

import os
from pathlib import Path

import anyio
import pytest

from hookwire import (
    Decision,
    EventSpec,
    HookEntry,
    Kernel,
    Provenance,
    Seam,
    SessionStart,
    Stop,
    ToolPre,
    Verdict,
    trust,
)
from hookwire.runner import run
from hookwire.testing import EchoDialect
from hookwire.trust import TrustGate, TrustState, TrustStore


class Dialect(EchoDialect):
    """Echo, with session_start advisory (cannot block), as real dialects have it."""

    events = {**EchoDialect.events,
              "session_start": EventSpec(name="session_start", seam=Seam.SESSION_START)}


@pytest.fixture
def setup(tmp_path: Path, home: Path) -> tuple[Kernel, TrustStore, TrustGate]:
    kernel = Kernel(load_entry_points=False)
    kernel.add_dialect(Dialect())
    store = TrustStore(tmp_path / "trust.json")
    gate = TrustGate(kernel, store)
    kernel.trust_gate = gate
    return kernel, store, gate


def marker_script(tmp_path: Path, name: str, word: str) -> Path:
    path = tmp_path / name
    path.write_text(f'#!/bin/sh\necho "{word} $0" >> "{tmp_path / "marker"}"\n')
    path.chmod(0o755)
    return path


def ran(tmp_path: Path) -> list[str]:
    marker = tmp_path / "marker"
    return marker.read_text().splitlines() if marker.exists() else []


def entry(command: tuple[str, ...] | str, event: str = "tool_pre",
          provenance: Provenance = Provenance.IMPORTED) -> HookEntry:
    return HookEntry(dialect="echo", event=event, command=command, provenance=provenance)


def fire(kernel: Kernel, tmp_path: Path, event: object = None) -> Verdict:
    async def go() -> Verdict:
        async with kernel.session(cwd=str(tmp_path), project_dir=str(tmp_path)) as s:
            return await s.dispatch(event or ToolPre(tool_name="Bash"))  # type: ignore[arg-type]
    return anyio.run(go)


def pin_now(kernel: Kernel, e: HookEntry, tmp_path: Path) -> trust.Pin:
    cmd = trust.sample_command(e, kernel.dialect("echo"), project_dir=str(tmp_path))
    return trust.resolve(cmd)[0]


def approve(kernel: Kernel, store: TrustStore, e: HookEntry, tmp_path: Path) -> None:
    trust.approve(e, store, pin_now(kernel, e, tmp_path))


def test_authored_hooks_run_without_a_record(setup, tmp_path: Path) -> None:
    kernel, store, _ = setup
    script = marker_script(tmp_path, "hook.sh", "authored")
    for prov in (Provenance.USER, Provenance.PROJECT, Provenance.MANAGED):
        kernel.add_hooks([entry((str(script),), provenance=prov)])
    fire(kernel, tmp_path)
    assert len(ran(tmp_path)) == 3
    assert not store.records


@pytest.mark.parametrize("prov", [Provenance.IMPORTED, Provenance.LIVE, Provenance.PLUGIN])
def test_pending_hook_on_a_blocking_event_denies_naming_it(setup, tmp_path: Path,
                                                            prov: Provenance) -> None:
    kernel, _, _ = setup
    script = marker_script(tmp_path, "hook.sh", "x")
    e = entry((str(script),), provenance=prov)
    kernel.add_hooks([e])
    verdict = fire(kernel, tmp_path)
    assert verdict.decision is Decision.DENY
    assert str(script) in (verdict.reason or "") and trust.hook_id(e) in verdict.reason
    assert [h.outcome for h in verdict.hooks] == ["untrusted"]
    assert ran(tmp_path) == []


def test_pending_hook_on_an_advisory_event_is_skipped_with_a_warning(setup,
                                                                      tmp_path: Path) -> None:
    kernel, _, _ = setup
    script = marker_script(tmp_path, "hook.sh", "x")
    kernel.add_hooks([entry((str(script),), event="session_start")])
    verdict = fire(kernel, tmp_path, SessionStart())
    assert verdict.decision is Decision.NONE
    assert [h.outcome for h in verdict.hooks] == ["untrusted"]
    assert any("skipped untrusted" in d for h in verdict.hooks for d in h.diagnostics)
    assert ran(tmp_path) == []


def test_pending_hook_on_stop_never_forces_the_agent_to_continue(setup, tmp_path: Path) -> None:
    kernel, _, _ = setup
    kernel.add_hooks([entry(("/bin/true",), event="stop")])
    verdict = fire(kernel, tmp_path, Stop())
    assert verdict.decision is Decision.NONE
    assert verdict.hooks[0].outcome == "untrusted"


def test_every_transition(setup, tmp_path: Path) -> None:
    kernel, store, _ = setup
    script = marker_script(tmp_path, "hook.sh", "v1")
    e = entry((str(script),))
    kernel.add_hooks([e])

    # pending
    assert trust.state_of(e, store, pin_now(kernel, e, tmp_path)) == TrustState.PENDING
    assert fire(kernel, tmp_path).decision is Decision.DENY and ran(tmp_path) == []

    # pending -> trusted
    approve(kernel, store, e, tmp_path)
    assert trust.state_of(e, store, pin_now(kernel, e, tmp_path)) == TrustState.TRUSTED
    verdict = fire(kernel, tmp_path)
    assert verdict.decision is Decision.NONE and verdict.hooks[0].outcome == "exited"
    assert [line.split()[0] for line in ran(tmp_path)] == ["v1"]

    # trusted -> changed: the script is edited in place; it no longer runs
    script.write_text(script.read_text().replace("v1", "v2"))
    assert trust.state_of(e, store, pin_now(kernel, e, tmp_path)) == TrustState.CHANGED
    verdict = fire(kernel, tmp_path)
    assert verdict.decision is Decision.DENY and "changed since it was approved" in (
        verdict.reason or "")
    assert [line.split()[0] for line in ran(tmp_path)] == ["v1"]

    # changed -> pending (revoked) -> trusted again (re-approved) runs the new content
    assert store.remove(trust.hook_id(e))
    assert trust.state_of(e, store, pin_now(kernel, e, tmp_path)) == TrustState.PENDING
    approve(kernel, store, e, tmp_path)
    fire(kernel, tmp_path)
    assert [line.split()[0] for line in ran(tmp_path)] == ["v1", "v2"]

    # an edited command is a different hook: pending
    other = entry((str(script), "--flag"))
    assert trust.state_of(other, store, pin_now(kernel, other, tmp_path)) == TrustState.PENDING


def test_trusted_hooks_run_verified_bytes_under_their_own_name(setup, tmp_path: Path) -> None:
    """``$0`` is the hook's own path; the shell reads a private read-only copy of the bytes
    that were checked."""
    kernel, store, gate = setup
    script = marker_script(tmp_path, "hook.sh", "ok")
    e = entry((str(script),))
    kernel.add_hooks([e])
    approve(kernel, store, e, tmp_path)
    fire(kernel, tmp_path)
    (line,) = ran(tmp_path)
    assert Path(line.split()[1]) == script
    (copy,) = Path(gate._dir).glob("*/hook.sh")  # type: ignore[arg-type]
    assert copy.read_bytes() == script.read_bytes()
    assert copy.stat().st_mode & 0o777 == 0o500
    assert Path(gate._dir).stat().st_mode & 0o777 == 0o700  # type: ignore[arg-type]


def test_swapped_executable_after_approval_never_runs(setup, tmp_path: Path) -> None:
    kernel, store, _ = setup
    script = marker_script(tmp_path, "hook.sh", "good")
    e = entry((str(script),))
    kernel.add_hooks([e])
    approve(kernel, store, e, tmp_path)
    evil = marker_script(tmp_path, "evil.sh", "evil")
    os.replace(evil, script)  # a new file at the approved path
    verdict = fire(kernel, tmp_path)
    assert verdict.decision is Decision.DENY
    assert ran(tmp_path) == []


def test_symlink_swapped_to_another_target_never_runs(setup, tmp_path: Path) -> None:
    kernel, store, _ = setup
    good = marker_script(tmp_path, "good.sh", "good")
    # same content at another path: the pinned path differs, so it still must not run
    twin = tmp_path / "twin.sh"
    twin.write_bytes(good.read_bytes())
    twin.chmod(0o755)
    link = tmp_path / "hook"
    link.symlink_to(good)
    e = entry((str(link),))
    kernel.add_hooks([e])
    approve(kernel, store, e, tmp_path)
    fire(kernel, tmp_path)
    assert [line.split()[0] for line in ran(tmp_path)] == ["good"]

    for target in (marker_script(tmp_path, "evil.sh", "evil"), twin):
        link.unlink()
        link.symlink_to(target)
        verdict = fire(kernel, tmp_path)
        assert verdict.decision is Decision.DENY
        assert str(target) in (verdict.reason or "")
    assert [line.split()[0] for line in ran(tmp_path)] == ["good"]


def test_the_check_and_the_exec_cannot_be_raced(setup, tmp_path: Path) -> None:
    """Swap the file after the check passed and before the process starts: the approved bytes
    run all the same, because the command now points at the private copy."""
    kernel, store, gate = setup
    script = marker_script(tmp_path, "hook.sh", "good")
    e = entry((str(script),))
    approve(kernel, store, e, tmp_path)
    check = gate(e, Seam.TOOL_PRE)
    assert callable(check)
    command = kernel.dialect("echo").command(
        e, ToolPre(tool_name="Bash"), "tool_pre",
        kernel.session(cwd=str(tmp_path), project_dir=str(tmp_path)).info)
    checked = check(command)
    os.replace(marker_script(tmp_path, "evil.sh", "evil"), script)  # the swap, in the window
    outcome = anyio.run(run, checked)
    assert outcome.ok
    assert [line.split()[0] for line in ran(tmp_path)] == ["good"]


def test_interpreter_scripts_pin_the_script(setup, tmp_path: Path) -> None:
    kernel, store, _ = setup
    script = tmp_path / "hook.py"
    script.write_text(f"open({str(tmp_path / 'marker')!r}, 'a').write('py\\n')\n")
    e = entry(("python3", str(script)))
    kernel.add_hooks([e])
    pin = pin_now(kernel, e, tmp_path)
    assert pin.path == str(script) and pin.interpreter and "python" in pin.interpreter
    approve(kernel, store, e, tmp_path)
    fire(kernel, tmp_path)
    assert ran(tmp_path) == ["py"]
    script.write_text("raise SystemExit(0)\n")
    assert fire(kernel, tmp_path).decision is Decision.DENY
    assert ran(tmp_path) == ["py"]


def test_safe_shell_text_is_pinned_and_rewritten(setup, tmp_path: Path) -> None:
    kernel, store, _ = setup
    script = marker_script(tmp_path, "hook.sh", "sh")
    e = entry(f"'{script}' --x")
    kernel.add_hooks([e])
    approve(kernel, store, e, tmp_path)
    fire(kernel, tmp_path)
    assert [line.split()[0] for line in ran(tmp_path)] == ["sh"]
    script.write_text(script.read_text() + "\n# edited\n")
    assert fire(kernel, tmp_path).decision is Decision.DENY


def test_unreadable_store_trusts_nothing(setup, tmp_path: Path) -> None:
    kernel, store, _ = setup
    script = marker_script(tmp_path, "hook.sh", "x")
    e = entry((str(script),))
    kernel.add_hooks([e])
    approve(kernel, store, e, tmp_path)
    store.path.write_text("{not json")
    assert fire(kernel, tmp_path).decision is Decision.DENY
    assert ran(tmp_path) == []


def test_store_lives_in_the_user_config_dir(home: Path) -> None:
    assert TrustStore().path == home / ".config" / "hookwire" / "trust.json"
