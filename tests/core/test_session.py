"""The host API: turn origin (exactly-once prompt_submit), stop continuation and its cap,
session_start before the first prompt, the sync facade, background hooks."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import anyio
import pytest

from hookwire import Answer, Decision, Kernel, hookimpl
from hookwire.testing import EchoDialect, ScriptFactory, pid_alive


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


class PromptCounter:
    def __init__(self) -> None:
        self.prompts: list[str] = []

    @hookimpl
    def prompt_submit(self, event: Any) -> None:
        self.prompts.append(event.prompt)


@pytest.mark.anyio
async def test_prompt_submit_fires_once_per_turn_through_nested_ingress() -> None:
    counter = PromptCounter()
    kernel = Kernel(load_entry_points=False, plugins=[counter])
    async with kernel.session(cwd="/") as session:
        with session.turn() as outer:
            with session.turn() as inner:  # a nested public call reuses the token
                assert inner is outer
                first = await session.prompt_submit("hello")
            again = await session.prompt_submit("hello")  # an internal follow-up request
        assert again is first
        internal = await session.prompt_submit("retry without a turn")
        assert "internal turn" in internal.diagnostics[0]
        with session.turn():
            await session.prompt_submit("second turn")
    assert counter.prompts == ["hello", "second turn"]


@pytest.mark.anyio
async def test_concurrent_submissions_of_one_turn_fire_once() -> None:
    counter = PromptCounter()

    class Slow:
        @hookimpl
        async def prompt_submit(self) -> None:
            await anyio.sleep(0.05)

    kernel = Kernel(load_entry_points=False, plugins=[counter, Slow()])
    async with kernel.session(cwd="/") as session:
        with session.turn():
            async with anyio.create_task_group() as tg:
                for _ in range(5):
                    tg.start_soon(session.prompt_submit, "p")
    assert counter.prompts == ["p"]


@pytest.mark.anyio
async def test_session_start_finishes_before_the_first_prompt_submit_returns() -> None:
    order: list[str] = []

    class Plugin:
        @hookimpl
        async def session_start(self) -> None:
            await anyio.sleep(0.2)
            order.append("session_start")

        @hookimpl
        def prompt_submit(self) -> None:
            order.append("prompt_submit")

    kernel = Kernel(load_entry_points=False, plugins=[Plugin()])
    async with kernel.session(cwd="/") as session, anyio.create_task_group() as tg:
        tg.start_soon(session.session_start)
        await anyio.sleep(0)  # let session_start begin
        await session.user_prompt("hi")
    assert order == ["session_start", "prompt_submit"]


class StopBlocker:
    def __init__(self, times: int | None) -> None:
        self.times = times
        self.seen_active: list[bool] = []

    @hookimpl
    def stop(self, event: Any) -> Answer | None:
        self.seen_active.append(event.stop_hook_active)
        if self.times is None or len(self.seen_active) <= self.times:
            return Answer(decision=Decision.BLOCK, reason="keep going")
        return None


@pytest.mark.anyio
async def test_stop_continuation_sets_stop_hook_active_and_resets_each_turn() -> None:
    blocker = StopBlocker(times=2)
    kernel = Kernel(load_entry_points=False, plugins=[blocker])
    async with kernel.session(cwd="/") as session:
        await session.user_prompt("go")
        results = [(await session.stop("done")).continue_turn for _ in range(3)]
        await session.user_prompt("next turn")
        await session.stop("done")
    assert results == [True, True, False]
    assert blocker.seen_active == [False, True, True, False]


@pytest.mark.anyio
async def test_stop_block_cap() -> None:
    blocker = StopBlocker(times=None)  # always blocks
    kernel = Kernel(load_entry_points=False, plugins=[blocker])
    async with kernel.session(cwd="/", max_stop_blocks=3) as session:
        await session.user_prompt("go")
        results = [await session.stop("done") for _ in range(4)]
    assert [v.continue_turn for v in results] == [True, True, True, False]
    assert "cap reached" in results[-1].diagnostics[-1]


def test_sync_facade_keeps_turn_origin_in_the_calling_thread() -> None:
    counter = PromptCounter()
    kernel = Kernel(load_entry_points=False, plugins=[counter])
    with kernel.sync_session(cwd="/") as session:
        with session.turn():
            session.prompt_submit("one")
            session.prompt_submit("one")
        session.user_prompt("two")
        assert session.prompt_submit("internal").diagnostics
        verdict = session.tool_pre("Bash", {"command": "ls"})
    assert counter.prompts == ["one", "two"]
    assert verdict.effective_input == {"command": "ls"}


@pytest.mark.anyio
async def test_background_hooks_do_not_block_and_end_with_the_session(
        tmp_path: Path, hook_script: ScriptFactory) -> None:
    pidfile = tmp_path / "pid"
    hook = hook_script(f"""
        echo $$ > {pidfile}
        sleep 60 &
        echo $! >> {pidfile}
        wait
        """)
    dialect = EchoDialect()
    kernel = Kernel(load_entry_points=False)
    kernel.add_dialect(dialect)
    kernel.add_hooks([dialect.entry("tool_pre", [str(hook)], background=True)])
    async with kernel.session(cwd=str(tmp_path)) as session:
        verdict = await session.tool_pre("Bash", {})
        assert verdict.hooks == ()  # not awaited: no report, no decision
        with anyio.fail_after(10):
            while len(pidfile.read_text().split() if pidfile.exists() else []) < 2:
                await anyio.sleep(0.02)
    pids = [int(p) for p in pidfile.read_text().split()]
    assert not any(pid_alive(p) for p in pids)


@pytest.mark.anyio
async def test_verdict_json_shape_for_fire(tmp_path: Path, hook_script: ScriptFactory) -> None:
    hook = hook_script(
        """cat >/dev/null; echo '{"decision": "deny", "reason": "r", "context": "c"}'""")
    dialect = EchoDialect()
    kernel = Kernel(load_entry_points=False)
    kernel.add_dialect(dialect)
    kernel.add_hooks([dialect.entry("tool_pre", [str(hook)])])
    async with kernel.session(cwd=str(tmp_path)) as session:
        out = (await session.tool_pre("Bash", {"command": "x"})).to_json()
    assert out["decision"] == "deny" and out["reason"] == "r"
    assert out["contexts"][0]["text"] == "c"
    assert out["contexts"][0]["source"]["kind"] == "hook"
    assert out["hooks"][0]["exit_code"] == 0 and out["hooks"][0]["timed_out"] is False
    assert set(out) >= {"decision", "reason", "updated_input", "contexts", "halt",
                        "system_messages", "hooks"}


@pytest.mark.anyio
async def test_background_contexts_join_the_next_turn_when_the_dialect_says_so(
        tmp_path: Path, hook_script: ScriptFactory) -> None:
    marker = tmp_path / "done"
    hook = hook_script(f"""
        cat >/dev/null
        echo '{{"decision": "deny", "reason": "ignored", "context": "from the background"}}'
        touch {marker}
        """)

    class NextTurn(EchoDialect):
        background_delivery = "next_turn"

    for dialect, expected in ((EchoDialect(), []), (NextTurn(), ["from the background"])):
        marker.unlink(missing_ok=True)
        kernel = Kernel(load_entry_points=False)
        kernel.add_dialect(dialect)
        kernel.add_hooks([dialect.entry("tool_post", [str(hook)], background=True)])
        async with kernel.session(cwd=str(tmp_path)) as session:
            now = await session.tool_post("Bash", {}, "ok")
            assert now.contexts == () and not now.denied
            with anyio.fail_after(10):
                while not marker.exists():
                    await anyio.sleep(0.02)
            await anyio.sleep(0.2)
            nxt = await session.user_prompt("next")
        assert [c.text for c in nxt.contexts] == expected
        assert not nxt.denied  # control fields of background hooks never count
