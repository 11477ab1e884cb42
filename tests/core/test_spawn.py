"""The spawn path (``hookwire._spawn``): what a hook process starts with, whichever way the C
library lets us start it. Real processes only."""

from __future__ import annotations

import os
import platform
import signal
import sys
from pathlib import Path

import pytest

from hookwire import _spawn
from hookwire.runner import Command, Environment, OutcomeKind, run

pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def _glibc_at_least(major: int, minor: int) -> bool:
    name, version = platform.libc_ver()
    if name != "glibc":
        return False
    got = tuple(int(part) for part in version.split(".")[:2])
    return got >= (major, minor)


@pytest.mark.skipif(not (sys.platform == "linux" and _glibc_at_least(2, 34)),
                    reason="the posix_spawn path needs glibc >= 2.34 (addchdir_np, "
                           "addclosefrom_np); elsewhere Popen starts hooks")
def test_posix_spawn_path_is_the_one_taken_on_glibc() -> None:
    assert _spawn._LIBC is not None
    read, write = os.pipe()
    try:
        child = _spawn.spawn(["/bin/true"], None, None, "/", read, write, write)
        assert type(child).__name__ == "_Spawned"
        assert child.wait() == 0 and child.poll() == 0
    finally:
        os.close(read)
        os.close(write)


@pytest.mark.skipif(not os.path.exists("/proc/self/status"), reason="needs Linux /proc")
async def test_signals_python_ignores_are_at_their_default_in_the_hook() -> None:
    assert signal.getsignal(signal.SIGPIPE) == signal.SIG_IGN  # what Python did to us
    outcome = await run(Command(shell="grep '^SigIgn:' /proc/self/status"))
    ignored = int(outcome.stdout.split()[1], 16)
    for sig in (signal.SIGPIPE, signal.SIGXFSZ):
        assert not ignored & (1 << (sig - 1)), (sig, outcome.stdout)


@pytest.mark.skipif(_spawn._LIBC is None or not os.path.exists("/proc/self/status"),
                    reason="the posix_spawn path and Linux /proc")
async def test_a_signal_the_host_ignores_is_at_its_default_in_the_hook() -> None:
    """Every signal starts at its default, as libuv starts the hooks of Claude Code and
    Gemini CLI; Codex (Rust's std) resets SIGPIPE alone (Codex divergence D16). glibc's own
    signals 32 and 33, which its posix_spawn would leave ignored, are at their default too."""
    before = signal.signal(signal.SIGHUP, signal.SIG_IGN)  # as under nohup
    try:
        outcome = await run(Command(shell="grep '^SigIgn:' /proc/self/status"))
    finally:
        signal.signal(signal.SIGHUP, before)
    ignored = int(outcome.stdout.split()[1], 16)
    assert ignored == 0, outcome.stdout


@pytest.mark.skipif(not os.path.isdir("/proc/self/fd"), reason="needs Linux /proc")
async def test_no_descriptor_but_0_1_2_reaches_the_hook(tmp_path: Path) -> None:
    opened = os.open(tmp_path, os.O_RDONLY)
    inherited = os.dup2(opened, 250, inheritable=True)  # a host's descriptor left inheritable
    os.close(opened)
    try:
        outcome = await run(Command(shell="cd /proc/$$/fd && echo *"))
    finally:
        os.close(inherited)
    # (the shell's glob holds the directory it reads open: 3)
    assert outcome.stdout.split()[:3] == [b"0", b"1", b"2"]
    assert b"250" not in outcome.stdout.split(), outcome.stdout


async def test_the_environment_is_encoded_for_the_kernel_once(tmp_path: Path) -> None:
    env = Environment({"PATH": os.environ["PATH"], "GREETING": "hi"})
    first = await run(Command(shell='echo "$GREETING"', env=env, cwd=str(tmp_path)))
    built = env.spawn_cache
    second = await run(Command(shell='echo "$GREETING" again', env=env, cwd=str(tmp_path)))
    assert (first.stdout, second.stdout) == (b"hi\n", b"hi again\n")
    if _spawn._LIBC is not None:
        assert built is not None and env.spawn_cache is built


async def test_argv0_is_searched_on_the_hook_environments_path(tmp_path: Path) -> None:
    """As Popen: the hook's own PATH, in order; a file that is there but not executable is
    passed over for a later one, and its error is the one reported when none runs."""
    first, second = tmp_path / "first", tmp_path / "second"
    first.mkdir()
    second.mkdir()
    (first / "myhook").write_text("#!/bin/sh\necho first\n")  # not executable
    (second / "myhook").write_text("#!/bin/sh\necho second\n")
    (second / "myhook").chmod(0o755)
    env = {"PATH": f"{tmp_path / 'none'}:{first}:{second}"}
    ran = await run(Command(argv=("myhook",), env=env))
    assert ran.kind is OutcomeKind.EXITED and ran.stdout == b"second\n"
    refused = await run(Command(argv=("myhook",), env={"PATH": str(first)}))
    assert refused.kind is OutcomeKind.FAILED_TO_START
    assert refused.start_error == "not_executable"
    missing = await run(Command(argv=("myhook",), env={"PATH": str(tmp_path / "none")}))
    assert missing.start_error == "not_found"


async def test_a_nul_in_the_environment_is_a_start_failure(tmp_path: Path) -> None:
    outcome = await run(Command(argv=("/bin/true",), env={"BAD": "a\0b"}))
    assert outcome.kind is OutcomeKind.FAILED_TO_START
    assert "null" in (outcome.start_error or "")
