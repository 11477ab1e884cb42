"""Shell elision (#16), opt-in: a hook whose shell text is a plain word list runs without
``/bin/sh -c``; anything with shell syntax keeps the shell; a file the kernel cannot exec
(``ENOEXEC``) goes through the shell; not found / not executable exit 127/126 with the shell's
own message. Real processes and real scripts; the faithful default keeps the shell."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from hookwire import Kernel
from hookwire._plans import elide
from hookwire.runner import Command, OutcomeKind, run

pytestmark = pytest.mark.anyio

PARENT = '#!/bin/sh\nprintf "%s %s" "$PPID" "$(cat /proc/$PPID/comm)" > "$1"\n'


@pytest.fixture
def script(tmp_path: Path) -> Path:
    path = tmp_path / "parent.sh"
    path.write_text(PARENT)
    path.chmod(0o755)
    return path


async def _parent(command: Command, out: Path) -> tuple[int, str]:
    outcome = await run(command)
    assert outcome.ok, outcome
    pid, comm = out.read_text().split(" ", 1)
    return int(pid), comm


async def test_a_word_list_runs_without_the_shell(script: Path, tmp_path: Path) -> None:
    out = tmp_path / "out.txt"
    text = f"{script} '{out}'"
    command = elide(Command(shell=text))
    assert command.direct is not None and command.direct.argv == (str(script), str(out))
    assert await _parent(command, out) == (os.getpid(), _comm(os.getpid()))
    # the faithful form: the hook's parent is the shell
    pid, comm = await _parent(Command(shell=text), out)
    assert pid != os.getpid() and comm in ("sh", "dash", "bash")


@pytest.mark.parametrize("text", [
    "{s} {o}; true", "{s} {o} | cat", "{s} $HOME", "{s} {o} > /dev/null", "X=1 {s} {o}",
    "{s} *.txt", "cd /tmp", "echo hi", "exit 2", "! {s} {o}", "{s} ~/x", "{s} `pwd`",
])
async def test_shell_syntax_and_builtins_keep_the_shell(text: str, script: Path,
                                                         tmp_path: Path) -> None:
    command = elide(Command(shell=text.format(s=script, o=tmp_path / "out.txt")))
    assert command.direct is None


async def test_a_file_without_a_shebang_runs_through_the_shell(tmp_path: Path) -> None:
    out = tmp_path / "out.txt"
    plain = tmp_path / "plain"
    plain.write_text(f'echo "ran by $0" > "{out}"\n')  # no #!: execve says ENOEXEC
    plain.chmod(0o755)
    command = elide(Command(shell=str(plain)))
    assert command.direct is not None
    outcome = await run(command)
    assert outcome.ok, outcome
    assert out.read_text() == f"ran by {plain}\n"  # as sh runs it: $0 is the file


@pytest.mark.parametrize("make", ["missing_name", "missing_path", "not_executable", "directory"])
async def test_not_found_and_not_executable_as_the_shell_reports_them(make: str,
                                                                      tmp_path: Path) -> None:
    target = {"missing_name": "hookwire-no-such-command",
              "missing_path": str(tmp_path / "nope" / "hook"),
              "not_executable": str(tmp_path / "data.sh"),
              "directory": str(tmp_path)}[make]
    (tmp_path / "data.sh").write_text("#!/bin/sh\n")
    shell = await run(Command(shell=f"{target} arg"))
    command = elide(Command(shell=f"{target} arg"))
    assert command.direct is not None
    elided = await run(command)
    assert elided.kind is OutcomeKind.EXITED
    assert (elided.exit_code, elided.stderr) == (shell.exit_code, shell.stderr)
    assert elided.exit_code in (126, 127)


async def test_a_rewritten_shell_text_runs_in_the_shell(script: Path, tmp_path: Path) -> None:
    import attrs

    out = tmp_path / "out.txt"
    command = elide(Command(shell=f"{script} {out}"))
    moved = attrs.evolve(command, shell=f"{script} {out} ")  # e.g. a trusted private copy
    pid, _ = await _parent(moved, out)
    assert pid != os.getpid()


def _claude(tmp_path: Path, script: Path, out: Path, **kernel: object) -> Kernel:
    settings = tmp_path / "settings.json"
    settings.write_text(json.dumps({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
        {"type": "command", "command": f"{script} {out}"}]}]}}))
    k = Kernel(**kernel)  # type: ignore[arg-type]
    k.add_config("claude", settings)
    return k


@pytest.mark.parametrize(("kernel", "session", "elided"), [
    (None, None, False), (True, None, True), (True, False, False), (None, True, True),
    (False, None, False),
])
async def test_kernel_and_session_choose(kernel: bool | None, session: bool | None,
                                         elided: bool, script: Path, tmp_path: Path) -> None:
    out = tmp_path / "out.txt"
    k = _claude(tmp_path, script, out, shell_elision=kernel)
    async with k.session(cwd=str(tmp_path), shell_elision=session) as s:
        verdict = await s.tool_pre("Bash", {"command": "ls"})
    assert verdict.hooks[0].exit_code == 0
    pid, _ = out.read_text().split(" ", 1)
    assert (int(pid) == os.getpid()) is elided


async def test_the_hooks_file_setting_is_the_default(script: Path, tmp_path: Path) -> None:
    out = tmp_path / "out.txt"
    k = _claude(tmp_path, script, out)
    k.dispatcher.file_shell_elision = True  # what config.install does for `shell_elision: true`
    async with k.session(cwd=str(tmp_path)) as s:
        await s.tool_pre("Bash", {"command": "ls"})
    assert int(out.read_text().split(" ", 1)[0]) == os.getpid()
    async with k.session(cwd=str(tmp_path), shell_elision=False) as s:
        await s.tool_pre("Bash", {"command": "ls"})
    assert int(out.read_text().split(" ", 1)[0]) != os.getpid()


def _comm(pid: int) -> str:
    return Path(f"/proc/{pid}/comm").read_text().strip()


@pytest.mark.parametrize(("global_", "project", "expected"), [
    (None, "true", True), ("true", None, True), ("true", "false", False), (None, None, None),
])
def test_the_hooks_file_key(global_: str | None, project: str | None, expected: bool | None,
                            tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from hookwire.config import install

    home = tmp_path / "home"
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / ".config"))
    root = tmp_path / "proj"
    for folder, value in ((home / ".config" / "hookwire", global_),
                          (root / ".hookwire", project)):
        folder.mkdir(parents=True)
        key = f"shell_elision: {value}\n" if value else ""
        (folder / "hooks.yaml").write_text(f"version: 1\n{key}hooks: []\n")
    kernel = Kernel()
    install(kernel, cwd=root)
    assert kernel.dispatcher.file_shell_elision is expected


def test_elision_keeps_every_other_field_of_the_command() -> None:
    """``elide`` builds the elided Command field by field: none may be lost, including a
    field added to Command later (every field but ``direct`` is set to a non-default here)."""
    import attrs

    values = {"shell": "ls -la", "shell_argv": ("/bin/bash", "-c"), "stdin": b"{}",
              "env": {"PATH": "/usr/bin:/bin"}, "cwd": "/", "cwd_fallbacks": ("/tmp",),
              "timeout": 7.0,
              "output_cap": 123, "grace": 0.25, "drain": 0.5}
    names = {f.name for f in attrs.fields(Command)} - {"argv", "direct"}
    assert names == set(values), "a new Command field: give it a value here"
    elided = elide(Command(**values))
    assert elided.direct is not None and elided.direct.argv == ("ls", "-la")
    for name, value in values.items():
        assert getattr(elided, name) == value, name
