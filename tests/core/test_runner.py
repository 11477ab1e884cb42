"""The process runner against real processes: every fault it promises to contain.

Each hook is a real script written to ``tmp_path``. Scripts record their own pid and their
children's pids in ``*.pid`` files; after ``run()`` returns, every case checks that none of
those processes, and no member of the hook's process group, is still alive.
"""

from __future__ import annotations

import os
import resource
import signal
import sys
from pathlib import Path

import anyio
import pytest

from hookwire.runner import DEFAULT_OUTPUT_CAP, Command, Outcome, OutcomeKind, run

pytestmark = pytest.mark.anyio


@pytest.fixture(params=["asyncio", "trio"])
def anyio_backend(request: pytest.FixtureRequest) -> str:
    return str(request.param)


# -- helpers -------------------------------------------------------------------------------


def script(tmp_path: Path, body: str, name: str = "hook.sh", shebang: str = "/bin/sh") -> str:
    path = tmp_path / name
    path.write_text(f"#!{shebang}\n{body}")
    path.chmod(0o755)
    return str(path)


def python_hook(tmp_path: Path, body: str, name: str = "hook.py") -> str:
    return script(tmp_path, body, name=name, shebang=sys.executable)


def _stat(pid: int) -> tuple[str, int] | None:
    """(state, process group) of a live process, None when it is gone."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return None
    state, _ppid, pgrp = stat.rpartition(")")[2].split()[:3]
    return state, int(pgrp)


def assert_gone(outcome: Outcome, tmp_path: Path) -> None:
    """No process the hook recorded, and no member of its group, is alive (zombies are
    dead: they only wait for their new parent to reap them)."""
    pgid = outcome.pid
    assert pgid is not None
    recorded = [int(p.read_text().split()[0]) for p in sorted(tmp_path.glob("*.pid"))]
    for pid in [pgid, *recorded]:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            continue
        stat = _stat(pid)
        # Alive only counts if it is still the hook's (pids get reused).
        assert stat is None or stat[0] in "ZX" or stat[1] != pgid, f"pid {pid} alive: {stat}"
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return
    members = [
        (int(d.name), s)
        for d in Path("/proc").iterdir()
        if d.name.isdigit() and (s := _stat(int(d.name))) and s[1] == pgid and s[0] not in "ZX"
    ]
    assert not members, f"group {pgid} still has {members}"


def recorded_pids(tmp_path: Path) -> list[int]:
    return [int(p.read_text().split()[0]) for p in sorted(tmp_path.glob("*.pid"))]


# -- exits, output, stdin, env, cwd --------------------------------------------------------


async def test_exit_code_and_both_streams(tmp_path: Path) -> None:
    hook = script(tmp_path, "echo $$ > self.pid\nprintf out\nprintf err >&2\nexit 3\n")
    outcome = await run(Command(argv=(hook,), cwd=str(tmp_path)))
    assert outcome.kind is OutcomeKind.EXITED
    assert (outcome.exit_code, outcome.signal) == (3, None)
    assert (outcome.stdout, outcome.stderr) == (b"out", b"err")
    assert (outcome.stdout_text, outcome.stderr_text) == ("out", "err")
    assert not outcome.ok
    assert outcome.pid == recorded_pids(tmp_path)[0]
    assert outcome.duration_ms > 0
    assert_gone(outcome, tmp_path)


async def test_shell_form_runs_under_sh_in_its_own_session(tmp_path: Path) -> None:
    hook = python_hook(
        tmp_path,
        "import os\nprint(os.getpid(), os.getppid(), os.getpgid(0), os.getsid(0))\n",
    )
    outcome = await run(Command(shell=f"{hook}; echo $$ > sh.pid", cwd=str(tmp_path)))
    assert outcome.ok, outcome
    pid, ppid, pgid, sid = map(int, outcome.stdout.split())
    # The hook's parent is the shell, which leads its own group and session.
    assert ppid == outcome.pid == pgid == sid
    assert pid != outcome.pid
    assert_gone(outcome, tmp_path)


async def test_argv_form_passes_arguments_verbatim(tmp_path: Path) -> None:
    hook = python_hook(tmp_path, "import sys, json\nprint(json.dumps(sys.argv[1:]))\n")
    args = ("a b", "$HOME", "'quoted'", "", "é ✓")
    outcome = await run(Command(argv=(hook, *args)))
    assert outcome.ok, outcome
    assert outcome.stdout_text is not None
    import json

    assert json.loads(outcome.stdout_text) == list(args)
    assert_gone(outcome, tmp_path)


@pytest.mark.parametrize(
    "payload",
    [
        b'{"hook_event_name":"PreToolUse","x":"\xc3\xa9 \xe2\x9c\x93"}\n',
        b'{"no":"trailing newline"}',
        b"",
        bytes(range(256)) * 3,
    ],
    ids=["json-newline", "no-newline", "empty", "binary"],
)
async def test_stdin_arrives_byte_for_byte(tmp_path: Path, payload: bytes) -> None:
    hook = python_hook(
        tmp_path,
        "import sys\ndata = sys.stdin.buffer.read()\n"
        "open('got.bin', 'wb').write(data)\nsys.stdout.buffer.write(data)\n",
    )
    outcome = await run(Command(argv=(hook,), stdin=payload, cwd=str(tmp_path)))
    assert outcome.kind in (OutcomeKind.EXITED, OutcomeKind.NOT_UTF8)
    assert outcome.exit_code == 0
    assert outcome.stdout == payload
    assert (tmp_path / "got.bin").read_bytes() == payload
    assert_gone(outcome, tmp_path)


async def test_large_stdin_read_fully(tmp_path: Path) -> None:
    payload = os.urandom(8 * 1024 * 1024)
    outcome = await run(Command(shell="wc -c", stdin=payload))
    assert outcome.ok, outcome
    assert int(outcome.stdout) == len(payload)
    assert_gone(outcome, tmp_path)


@pytest.mark.parametrize(
    "body",
    ["exec 0<&-\necho closed\nsleep 0.2\n", "echo unread\n", "read -r line\necho one line\n"],
    ids=["closes-stdin", "never-reads", "reads-one-line"],
)
async def test_hook_not_reading_a_large_stdin_is_fine(tmp_path: Path, body: str) -> None:
    hook = script(tmp_path, "echo $$ > self.pid\n" + body)
    payload = b"a short first line\n" + b"x" * (8 * 1024 * 1024)
    outcome = await run(Command(argv=(hook,), stdin=payload, cwd=str(tmp_path)))
    assert outcome.ok, outcome
    assert outcome.stdout.endswith(b"\n") and outcome.stderr == b""
    assert_gone(outcome, tmp_path)


async def test_env_and_cwd_per_call(tmp_path: Path) -> None:
    first, second = tmp_path / "one", tmp_path / "two"
    first.mkdir()
    second.mkdir()
    hook = script(tmp_path, 'printf "%s|%s|%s" "$HOOK_VAR" "$(pwd)" "${HOME-unset}"\n')
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin")}
    one, two = (
        await run(Command(argv=(hook,), env={**env, "HOOK_VAR": "1"}, cwd=str(first))),
        await run(Command(argv=(hook,), env={**env, "HOOK_VAR": "2"}, cwd=str(second))),
    )
    # env is the complete environment: HOME was not passed, so the hook has none.
    assert one.stdout_text == f"1|{first}|unset"
    assert two.stdout_text == f"2|{second}|unset"
    assert_gone(one, tmp_path)
    assert_gone(two, tmp_path)


async def test_env_none_inherits(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOOKWIRE_RUNNER_TEST", "inherited")
    outcome = await run(Command(shell='printf %s "$HOOKWIRE_RUNNER_TEST"'))
    assert outcome.stdout == b"inherited"
    assert_gone(outcome, tmp_path)


async def test_concurrent_runs_keep_their_own_io(tmp_path: Path) -> None:
    hook = script(tmp_path, 'echo $$ > "$1.pid"\nsleep 0.2\ncat\necho "$1" >&2\n')
    results: dict[int, Outcome] = {}

    async def one(i: int) -> None:
        results[i] = await run(
            Command(argv=(hook, f"n{i}"), stdin=f"payload {i}\n".encode(), cwd=str(tmp_path))
        )

    async with anyio.create_task_group() as tg:
        for i in range(8):
            tg.start_soon(one, i)
    assert len(recorded_pids(tmp_path)) == 8
    for i, outcome in results.items():
        assert outcome.ok, outcome
        assert outcome.stdout == f"payload {i}\n".encode()
        assert outcome.stderr == f"n{i}\n".encode()
        assert_gone(outcome, tmp_path)


async def test_output_exactly_at_the_cap_is_not_over(tmp_path: Path) -> None:
    outcome = await run(Command(shell="head -c 1000 /dev/zero", output_cap=1000))
    assert outcome.kind is OutcomeKind.EXITED
    assert len(outcome.stdout) == 1000 and not outcome.stdout_over_cap
    assert_gone(outcome, tmp_path)


async def test_hook_closing_its_streams_early_is_done_at_exit(tmp_path: Path) -> None:
    outcome = await run(Command(shell="echo bye; exec >&- 2>&-; sleep 0.2; exit 4"))
    assert (outcome.kind, outcome.exit_code, outcome.stdout) == (OutcomeKind.EXITED, 4, b"bye\n")
    assert_gone(outcome, tmp_path)


# -- "done" is the hook's exit; descendants do not outlive the run ---------------------------


async def test_grandchild_holding_stdout_is_not_waited_for(tmp_path: Path) -> None:
    hook = script(
        tmp_path,
        "echo $$ > self.pid\n(sleep 60; echo late) &\necho $! > grandchild.pid\necho early\n",
    )
    with anyio.fail_after(30):  # far below the grandchild's 60 s
        outcome = await run(Command(argv=(hook,), cwd=str(tmp_path)))
    assert outcome.kind is OutcomeKind.EXITED and outcome.exit_code == 0
    assert outcome.stdout == b"early\n"
    assert len(recorded_pids(tmp_path)) == 2
    assert_gone(outcome, tmp_path)


async def test_background_job_off_the_pipes_is_ended_too(tmp_path: Path) -> None:
    hook = script(tmp_path, "sleep 60 >/dev/null 2>&1 </dev/null &\necho $! > job.pid\n")
    outcome = await run(Command(argv=(hook,), cwd=str(tmp_path)))
    assert outcome.ok, outcome
    assert_gone(outcome, tmp_path)


async def test_drain_picks_up_output_written_just_after_exit(tmp_path: Path) -> None:
    hook = script(tmp_path, "(sleep 0.2; echo late) &\necho early\n")
    outcome = await run(Command(argv=(hook,), drain=20.0))
    assert outcome.ok, outcome
    assert outcome.stdout == b"early\nlate\n"
    assert_gone(outcome, tmp_path)


# -- timeouts, signals, cancellation ------------------------------------------------------


async def test_timeout_ends_the_whole_group(tmp_path: Path) -> None:
    hook = script(
        tmp_path,
        "echo $$ > self.pid\nsleep 60 &\necho $! > child.pid\necho started\nwait\n",
    )
    with anyio.fail_after(30):
        outcome = await run(Command(argv=(hook,), timeout=0.5, cwd=str(tmp_path)))
    assert outcome.kind is OutcomeKind.TIMED_OUT
    assert outcome.signal == signal.SIGTERM and outcome.exit_code is None
    assert outcome.stdout == b"started\n"  # what was read before the timeout is kept
    assert len(recorded_pids(tmp_path)) == 2
    assert_gone(outcome, tmp_path)


async def test_sigterm_ignoring_hook_gets_sigkill_after_grace(tmp_path: Path) -> None:
    hook = script(
        tmp_path,
        "trap '' TERM\necho $$ > self.pid\n"
        "sh -c 'echo $$ > child.pid; while :; do sleep 0.05; done' &\n"
        "while :; do sleep 0.05; done\n",
    )
    with anyio.fail_after(30):
        outcome = await run(Command(argv=(hook,), timeout=0.3, grace=0.3, cwd=str(tmp_path)))
    assert outcome.kind is OutcomeKind.TIMED_OUT
    assert outcome.signal == signal.SIGKILL
    assert len(recorded_pids(tmp_path)) == 2
    assert_gone(outcome, tmp_path)


@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGSEGV, signal.SIGTERM])
async def test_killed_by_a_signal_we_did_not_send(tmp_path: Path, sig: signal.Signals) -> None:
    name = sig.name.removeprefix("SIG")
    hook = script(tmp_path, f"ulimit -c 0\necho $$ > self.pid\necho before\nkill -{name} $$\n")
    outcome = await run(Command(argv=(hook,), cwd=str(tmp_path)))
    assert outcome.kind is OutcomeKind.SIGNALED
    assert (outcome.signal, outcome.exit_code) == (sig, None)
    assert outcome.stdout == b"before\n"
    assert_gone(outcome, tmp_path)


# with a timeout the asyncio backend waits on a loop timer of its own, not a cancel scope
@pytest.mark.parametrize("timeout", [None, 60.0])
async def test_cancelling_the_awaiting_task_ends_the_group_and_propagates(
    tmp_path: Path, timeout: float | None,
) -> None:
    hook = script(
        tmp_path,
        "echo $$ > self.pid\nsleep 60 &\necho $! > child.pid\necho started\nwait\n",
    )
    seen: list[Outcome] = []
    reached = False
    with anyio.fail_after(30):
        with anyio.CancelScope() as scope:

            async def cancel_soon() -> None:
                await anyio.sleep(0.3)
                scope.cancel()

            async with anyio.create_task_group() as tg:
                tg.start_soon(cancel_soon)
                await run(Command(argv=(hook,), cwd=str(tmp_path), timeout=timeout),
                          on_cancel=seen.append)
                reached = True
    assert scope.cancelled_caught and not reached
    [outcome] = seen
    assert outcome.kind is OutcomeKind.CANCELLED
    assert outcome.stdout == b"started\n"
    assert len(recorded_pids(tmp_path)) == 2
    assert_gone(outcome, tmp_path)


async def test_already_cancelled_caller_starts_nothing(tmp_path: Path) -> None:
    seen: list[Outcome] = []
    with anyio.CancelScope() as scope:
        scope.cancel()
        await run(Command(shell="echo $$ > self.pid", cwd=str(tmp_path)), on_cancel=seen.append)
    assert scope.cancelled_caught
    assert seen == [] and recorded_pids(tmp_path) == []


# -- failing to start ---------------------------------------------------------------------


async def test_missing_executable(tmp_path: Path) -> None:
    outcome = await run(Command(argv=(str(tmp_path / "nope"),)))
    assert outcome.kind is OutcomeKind.FAILED_TO_START
    assert outcome.start_error == "not_found" and outcome.pid is None


async def test_missing_executable_on_path(tmp_path: Path) -> None:
    outcome = await run(Command(argv=("hookwire-no-such-command",)))
    assert (outcome.kind, outcome.start_error) == (OutcomeKind.FAILED_TO_START, "not_found")


@pytest.mark.parametrize(
    "make",
    [
        lambda p: (p.write_text("#!/bin/sh\necho hi\n"), p.chmod(0o644)),  # no x bit
        lambda p: (p.write_bytes(b"\x7fELF garbage"), p.chmod(0o755)),  # ENOEXEC
        lambda p: p.mkdir(),  # a directory
    ],
    ids=["no-x-bit", "exec-format", "directory"],
)
async def test_not_executable(tmp_path: Path, make: object) -> None:
    target = tmp_path / "target"
    make(target)  # type: ignore[operator]
    outcome = await run(Command(argv=(str(target),)))
    assert (outcome.kind, outcome.start_error) == (OutcomeKind.FAILED_TO_START, "not_executable")


@pytest.mark.parametrize("kind", ["missing", "file"])
async def test_bad_cwd_is_not_a_missing_executable(tmp_path: Path, kind: str) -> None:
    cwd = tmp_path / "cwd"
    if kind == "file":
        cwd.write_text("")
    outcome = await run(Command(argv=("/bin/true",), cwd=str(cwd)))
    assert (outcome.kind, outcome.start_error) == (OutcomeKind.FAILED_TO_START, "bad_cwd")


@pytest.mark.parametrize(
    ("shell", "code"),
    [("hookwire-no-such-command", 127), ("./plain.txt", 126)],
    ids=["127-not-found", "126-not-executable"],
)
async def test_shell_reports_126_and_127_as_exits(tmp_path: Path, shell: str, code: int) -> None:
    (tmp_path / "plain.txt").write_text("echo hi\n")
    outcome = await run(Command(shell=shell, cwd=str(tmp_path)))
    assert (outcome.kind, outcome.exit_code) == (OutcomeKind.EXITED, code)
    assert outcome.stderr  # sh says why
    assert_gone(outcome, tmp_path)


async def test_embedded_nul_is_a_start_failure_not_an_exception() -> None:
    outcome = await run(Command(argv=("/bin/echo", "a\0b")))
    assert outcome.kind is OutcomeKind.FAILED_TO_START
    assert outcome.start_error


# -- output cap, encoding, priorities ------------------------------------------------------


async def test_one_gib_on_stdout_is_cut_at_the_cap(tmp_path: Path) -> None:
    hook = script(tmp_path, "echo $$ > self.pid\nhead -c 1073741824 /dev/zero\necho done >&2\n")
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # KiB on Linux
    with anyio.fail_after(60):
        outcome = await run(Command(argv=(hook,), cwd=str(tmp_path)))
    grown_mib = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) / 1024
    assert outcome.kind is OutcomeKind.OVER_CAP
    assert outcome.stdout_over_cap and not outcome.stderr_over_cap
    assert outcome.stdout == b"\0" * DEFAULT_OUTPUT_CAP
    assert grown_mib < 100, f"peak RSS grew by {grown_mib:.0f} MiB"
    assert_gone(outcome, tmp_path)


async def test_stderr_over_the_cap(tmp_path: Path) -> None:
    hook = script(tmp_path, "echo $$ > self.pid\necho fine\nwhile :; do echo noise >&2; done\n")
    outcome = await run(Command(argv=(hook,), output_cap=4096, cwd=str(tmp_path)))
    assert outcome.kind is OutcomeKind.OVER_CAP
    assert outcome.stderr_over_cap and not outcome.stdout_over_cap
    assert len(outcome.stderr) == 4096 and outcome.stdout == b"fine\n"
    assert_gone(outcome, tmp_path)


@pytest.mark.parametrize("stream", ["", ">&2"])
async def test_not_utf8(stream: str, tmp_path: Path) -> None:
    outcome = await run(Command(shell=f"printf 'ok \\377\\n' {stream}; exit 5"))
    assert outcome.kind is OutcomeKind.NOT_UTF8
    assert outcome.exit_code == 5
    assert b"ok \xff\n" in (outcome.stdout + outcome.stderr)
    assert None in (outcome.stdout_text, outcome.stderr_text)
    assert_gone(outcome, tmp_path)


async def test_priority_timeout_over_not_utf8(tmp_path: Path) -> None:
    outcome = await run(Command(shell="printf '\\377'; exec sleep 60", timeout=0.3))
    assert outcome.kind is OutcomeKind.TIMED_OUT and outcome.stdout == b"\xff"
    assert_gone(outcome, tmp_path)


async def test_priority_over_cap_over_not_utf8(tmp_path: Path) -> None:
    outcome = await run(Command(shell="while :; do printf '\\377'; done", output_cap=100))
    assert outcome.kind is OutcomeKind.OVER_CAP and outcome.stdout == b"\xff" * 100
    assert_gone(outcome, tmp_path)


async def test_priority_signaled_over_not_utf8(tmp_path: Path) -> None:
    outcome = await run(Command(shell="printf '\\377'; kill -KILL $$"))
    assert (outcome.kind, outcome.signal) == (OutcomeKind.SIGNALED, signal.SIGKILL)
    assert_gone(outcome, tmp_path)


# -- without pidfds (macOS, BSD, old Linux): exit awaited by a waiter thread ---------------


@pytest.mark.parametrize("case", ["exit", "timeout", "grandchild"])
async def test_without_pidfd(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, case: str) -> None:
    monkeypatch.delattr(os, "pidfd_open")
    body = {
        "exit": "echo $$ > self.pid\necho hi\nexit 2\n",
        "timeout": "echo $$ > self.pid\nsleep 60 &\necho $! > child.pid\nwait\n",
        "grandchild": "echo $$ > self.pid\nsleep 60 &\necho $! > child.pid\necho hi\n",
    }[case]
    hook = script(tmp_path, body)
    with anyio.fail_after(30):
        outcome = await run(Command(argv=(hook,), timeout=0.5, cwd=str(tmp_path)))
    expected = {
        "exit": (OutcomeKind.EXITED, 2, b"hi\n"),
        "timeout": (OutcomeKind.TIMED_OUT, None, b""),
        "grandchild": (OutcomeKind.EXITED, 0, b"hi\n"),
    }[case]
    assert (outcome.kind, outcome.exit_code, outcome.stdout) == expected
    assert_gone(outcome, tmp_path)


async def test_cwd_fallbacks_are_tried_in_order_when_the_cwd_is_gone(tmp_path: Path) -> None:
    from hookwire.runner import Environment

    gone, also_gone, there = tmp_path / "gone", tmp_path / "also-gone", tmp_path / "there"
    there.mkdir()
    env = Environment({"PATH": os.environ["PATH"], "PWD": str(gone)})
    outcome = await run(Command(shell='printf "%s|%s" "$(pwd)" "$PWD"', env=env, cwd=str(gone),
                                cwd_fallbacks=(str(also_gone), str(there))))
    assert outcome.kind is OutcomeKind.EXITED
    assert outcome.stdout.decode() == f"{there}|{there}"
    # none left: the cwd's own failure, as without fallbacks
    lost = await run(Command(argv=("/bin/true",), cwd=str(gone), cwd_fallbacks=(str(also_gone),)))
    assert (lost.kind, lost.start_error) == (OutcomeKind.FAILED_TO_START, "bad_cwd")
    # a file where the cwd was: chdir says ENOTDIR, as isdir() would say False
    afile = tmp_path / "file"
    afile.write_text("")
    moved = await run(Command(argv=("/bin/pwd",), cwd=str(afile), cwd_fallbacks=(str(there),)))
    assert moved.stdout.decode().strip() == str(there)
