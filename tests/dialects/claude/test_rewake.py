"""``asyncRewake``: a background hook whose exit 2 wakes the agent through the session's
``on_wake`` (Claude Code 2.1.332), with real hook scripts."""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any

import anyio
import pytest

from hookwire import HookReport, Kernel, Wake, hookimpl
from hookwire.dialects.claude.testing import group
from hookwire.problems import ProblemKind

ScriptFactory = Callable[..., Path]
KernelFactory = Callable[..., Kernel]


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


class Finished:
    """The reports of the hooks that finished (background ones included: the audit plane)."""

    hookwire_name = "finished"

    def __init__(self) -> None:
        self.reports: list[HookReport] = []

    @hookimpl
    def hook_result(self, result: Any) -> None:
        if result.report is not None:
            self.reports.append(result.report)

    async def wait(self, count: int) -> None:
        with anyio.fail_after(30):
            while len(self.reports) < count:
                await anyio.sleep(0.02)


def rewake(command: str, **more: Any) -> dict[str, Any]:
    return {"type": "command", "command": command, "asyncRewake": True, **more}


@pytest.mark.anyio
async def test_exit_2_wakes_the_agent_with_stderr_else_stdout(
        hook_script: ScriptFactory, claude_kernel: KernelFactory, project: Path) -> None:
    on_stderr = str(hook_script("cat >/dev/null\necho 'lint: 3 errors' >&2\necho out\nexit 2\n"))
    on_stdout = str(hook_script("cat >/dev/null\necho 'only stdout'\nexit 2\n"))
    quiet = str(hook_script("cat >/dev/null\necho 'all good' >&2\nexit 0\n"))
    kernel = claude_kernel({"PostToolUse": [group(rewake(on_stderr), rewake(on_stdout),
                                                  rewake(quiet), matcher="Bash")]})
    finished = Finished()
    kernel.register(finished)
    wakes: list[Wake] = []
    async with kernel.session(cwd=str(project), project_dir=str(project),
                              on_wake=wakes.append) as s:
        assert not [p for p in s.problems if p.kind is ProblemKind.UNSUPPORTED]
        verdict = await s.tool_post("Bash", {"command": "make"}, {"stdout": ""})
        assert verdict.reason is None and not verdict.contexts  # nothing decided in-line
        await finished.wait(3)
    by_source = {w.source.name: w for w in wakes}
    assert set(by_source) == {on_stderr, on_stdout}  # exit 0: no wake
    wake = by_source[on_stderr]
    assert wake.text == ("<system-reminder>\nAsync PostToolUse hook feedback:\n"
                         "lint: 3 errors\n</system-reminder>")
    assert wake.message == "lint: 3 errors" and wake.summary is None
    assert by_source[on_stdout].message == "only stdout"


@pytest.mark.anyio
async def test_rewake_message_heads_the_text_and_the_summary_is_for_the_user(
        hook_script: ScriptFactory, claude_kernel: KernelFactory, project: Path) -> None:
    review = str(hook_script("cat >/dev/null\necho 'SQL built from input' >&2\nexit 2\n"))
    kernel = claude_kernel({"Stop": [group(rewake(
        review, rewakeMessage="Background security review feedback:",
        rewakeSummary="Security review found issues"))]})
    woken = anyio.Event()
    wakes: list[Wake] = []

    async def on_wake(wake: Wake) -> None:  # an async callback is awaited
        wakes.append(wake)
        woken.set()

    async with kernel.session(cwd=str(project), project_dir=str(project),
                              on_wake=on_wake) as s:
        verdict = await s.stop(last_assistant_message="done")
        assert not verdict.continue_turn  # it does not hold the turn: it wakes the agent
        with anyio.fail_after(30):
            await woken.wait()
    (wake,) = wakes
    assert wake.text == ("<system-reminder>\nBackground security review feedback:\n"
                         "SQL built from input\n</system-reminder>")
    assert wake.summary == "Security review found issues"
    assert wake.source.event == "Stop"


@pytest.mark.anyio
async def test_the_timeout_is_enforced(hook_script: ScriptFactory,
                                       claude_kernel: KernelFactory, project: Path) -> None:
    late = str(hook_script("cat >/dev/null\nsleep 30\necho late >&2\nexit 2\n"))
    kernel = claude_kernel({"PostToolUse": [group(rewake(late, timeout=1))]})
    finished = Finished()
    kernel.register(finished)
    wakes: list[Wake] = []
    async with kernel.session(cwd=str(project), project_dir=str(project),
                              on_wake=wakes.append) as s:
        await s.tool_post("Bash", {"command": "make"}, {"stdout": ""})
        await finished.wait(1)
    assert finished.reports[0].timed_out and wakes == []


@pytest.mark.anyio
async def test_a_host_without_on_wake_is_told_and_the_wake_is_dropped(
        hook_script: ScriptFactory, claude_kernel: KernelFactory, project: Path,
        caplog: pytest.LogCaptureFixture) -> None:
    hook = str(hook_script("cat >/dev/null\necho 'wake up' >&2\nexit 2\n"))
    plain = str(hook_script("cat >/dev/null\necho 'not me' >&2\nexit 2\n"))
    kernel = claude_kernel({"PostToolUse": [group(
        rewake(hook), {"type": "command", "command": plain, "async": True})]})
    finished = Finished()
    kernel.register(finished)
    with caplog.at_level(logging.WARNING, logger="hookwire"):
        async with kernel.session(cwd=str(project), project_dir=str(project)) as s:
            told = [p for p in s.problems if p.kind is ProblemKind.UNSUPPORTED]
            await s.tool_post("Bash", {"command": "make"}, {"stdout": ""})
            await finished.wait(2)
    assert [p.entry.display for p in told if p.entry is not None] == [hook]  # not `plain`
    assert "no on_wake" in told[0].message
    dropped = [r.message for r in caplog.records if "asked to wake the agent" in r.message]
    assert len(dropped) == 1 and hook in dropped[0]


def test_rewake_keys_load_and_write_back(tmp_path: Path) -> None:
    import json

    from hookwire.dialects.claude import ClaudeDialect

    path = tmp_path / "settings.json"
    handler = rewake("x", rewakeMessage="m", rewakeSummary="s")
    path.write_text(json.dumps({"hooks": {"Stop": [{"hooks": [handler]}]}}))
    dialect = ClaudeDialect()
    result = dialect.read_config(path)
    assert result.problems == () and result.entries[0].background
    assert dialect.wakes(result.entries[0])
    assert dialect.write_config(result.entries)["hooks"]["Stop"][0]["hooks"] == [handler]


@pytest.mark.anyio
async def test_a_host_driver_hands_on_wake_to_its_sessions(
        hook_script: ScriptFactory, claude_kernel: KernelFactory, project: Path) -> None:
    from hookwire.driver import HostDriver

    hook = str(hook_script("cat >/dev/null\necho 'index is stale' >&2\nexit 2\n"))
    kernel = claude_kernel({"SessionStart": [group(rewake(hook))]})
    wakes: list[Wake] = []
    driver = HostDriver(kernel, on_wake=wakes.append, cwd=str(project),
                        project_dir=str(project))
    async with driver:
        assert not [p for p in driver.problems if p.kind is ProblemKind.UNSUPPORTED]
        with anyio.fail_after(30):
            while not wakes:
                await anyio.sleep(0.02)
    assert wakes[0].message == "index is stale" and wakes[0].source.event == "SessionStart"
