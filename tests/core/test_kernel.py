"""The kernel's dispatch loop: chain order, rewrites, deny stopping the chain, plugin failure
isolation, audit plane, and external hooks (real processes) beside native plugins."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import pytest

from hookwire import Answer, Decision, Kernel, Seam, Source, SourceKind, hookimpl
from hookwire.testing import EchoDialect, ScriptFactory


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


class Recorder:
    """A plugin answering a fixed Answer on tool_pre and recording the input it saw."""

    def __init__(self, name: str, answer: Answer | None = None, *, raises: bool = False):
        self.name = name
        self.answer = answer
        self.raises = raises
        self.seen: list[dict[str, Any]] = []

    @hookimpl
    def tool_pre(self, event: Any) -> Answer | None:
        self.seen.append(dict(event.tool_input))
        if self.raises:
            raise RuntimeError(f"{self.name} exploded")
        return self.answer


def kernel_with(*plugins: object, dialect: EchoDialect | None = None) -> Kernel:
    kernel = Kernel(load_entry_points=False)
    if dialect is not None:
        kernel.add_dialect(dialect)
    for p in plugins:
        kernel.register(p, name=getattr(p, "name", None))
    return kernel


@pytest.mark.anyio
async def test_rewrites_chain_in_pluggy_order_and_original_is_kept() -> None:
    first = Recorder("first", Answer(updated_input={"command": "ls -a"}))
    second = Recorder("second", Answer(updated_input={"command": "ls -la"}))
    # pluggy calls the last registered first: register second, then first
    kernel = kernel_with(second, first)
    async with kernel.session(cwd="/") as session:
        verdict = await session.tool_pre("Bash", {"command": "ls"})
    assert first.seen == [{"command": "ls"}]
    assert second.seen == [{"command": "ls -a"}]
    assert verdict.original_input == {"command": "ls"}
    assert verdict.effective_input == {"command": "ls -la"}


@pytest.mark.anyio
async def test_deny_stops_the_chain() -> None:
    denier = Recorder("denier", Answer(decision=Decision.DENY, reason="nope"))
    later = Recorder("later", Answer(decision=Decision.ALLOW))
    kernel = kernel_with(later, denier)  # denier called first
    async with kernel.session(cwd="/") as session:
        verdict = await session.tool_pre("Bash", {"command": "rm -rf /"})
    assert verdict.denied and verdict.reason == "nope"
    assert later.seen == []


@pytest.mark.anyio
async def test_context_only_answer_does_not_stop_later_decisions() -> None:
    from hookwire import Context

    ctx = Context(text="fyi", source=Source(kind=SourceKind.PLUGIN, name="ctx"))
    informer = Recorder("informer", Answer(contexts=(ctx,)))
    decider = Recorder("decider", Answer(decision=Decision.ASK, reason="check"))
    kernel = kernel_with(decider, informer)
    async with kernel.session(cwd="/") as session:
        verdict = await session.tool_pre("Bash", {"command": "x"})
    assert verdict.decision is Decision.ASK
    assert [c.text for c in verdict.contexts] == ["fyi"]
    assert decider.seen  # was asked after the context-only answer


@pytest.mark.anyio
async def test_async_implementations_are_awaited() -> None:
    class AsyncPlugin:
        @hookimpl
        async def tool_pre(self, event: Any, session: Any) -> Answer:
            return Answer(decision=Decision.DEFER, reason=f"later ({session.info.cwd})")

    kernel = kernel_with(AsyncPlugin())
    async with kernel.session(cwd="/tmp") as session:
        verdict = await session.tool_pre("Bash", {})
    assert verdict.decision is Decision.DEFER and verdict.reason == "later (/tmp)"


@pytest.mark.anyio
async def test_raising_plugin_is_isolated_and_reported_on_the_audit_plane(
        caplog: pytest.LogCaptureFixture) -> None:
    results: list[Any] = []

    class Audit:
        @hookimpl
        def hook_result(self, result: Any) -> None:
            results.append(result)

    boom = Recorder("boom", raises=True)
    after = Recorder("after", Answer(decision=Decision.ALLOW))
    kernel = kernel_with(Audit(), after, boom)
    with caplog.at_level(logging.WARNING, logger="hookwire"):
        async with kernel.session(cwd="/") as session:
            verdict = await session.tool_pre("Bash", {})
    assert verdict.decision is Decision.ALLOW  # open failure policy: no opinion, chain goes on
    assert any("boom exploded" in d for d in verdict.diagnostics)
    errors = [r for r in results if r.error is not None]
    assert len(errors) == 1 and "boom" in str(errors[0].error)
    assert "boom exploded" in caplog.text


@pytest.mark.anyio
async def test_closed_failure_policy_denies() -> None:
    boom = Recorder("boom", raises=True)
    boom.hookwire_failure_policy = "closed"  # type: ignore[attr-defined]
    kernel = kernel_with(boom)
    async with kernel.session(cwd="/") as session:
        verdict = await session.tool_pre("Bash", {})
        prompt = await session.user_prompt("hi")
    assert verdict.denied and "boom exploded" in (verdict.reason or "")
    assert prompt.decision is Decision.NONE  # boom only implements tool_pre


@pytest.mark.anyio
async def test_wrong_return_type_is_a_plugin_failure() -> None:
    class Wrong:
        @hookimpl
        def tool_pre(self) -> str:
            return "deny"

    kernel = kernel_with(Wrong())
    async with kernel.session(cwd="/") as session:
        verdict = await session.tool_pre("Bash", {})
    assert verdict.decision is Decision.NONE
    assert any("not an Answer" in d for d in verdict.diagnostics)


@pytest.mark.anyio
async def test_external_hooks_run_before_native_plugins_on_tool_pre(
        tmp_path: Path, hook_script: ScriptFactory) -> None:
    rewrite = hook_script("""
        cat >/dev/null
        echo '{"updated_input": {"command": "ls -1"}}'
        """)
    dialect = EchoDialect()
    plugin = Recorder("validator", Answer(decision=Decision.ALLOW))
    kernel = kernel_with(plugin, dialect=dialect)
    kernel.add_hooks([dialect.entry("tool_pre", [str(rewrite)], matcher="Bash")])
    async with kernel.session(cwd=str(tmp_path)) as session:
        verdict = await session.tool_pre("Bash", {"command": "ls"})
    assert plugin.seen == [{"command": "ls -1"}]  # the native validator sees the final input
    assert verdict.effective_input == {"command": "ls -1"}
    assert [h.exit_code for h in verdict.hooks] == [0]


@pytest.mark.anyio
async def test_external_deny_skips_native_plugins(tmp_path: Path,
                                                  hook_script: ScriptFactory) -> None:
    guard = hook_script("echo 'no deletes' >&2; exit 2")
    dialect = EchoDialect()
    plugin = Recorder("validator", Answer(decision=Decision.ALLOW))
    kernel = kernel_with(plugin, dialect=dialect)
    kernel.add_hooks([dialect.entry("tool_pre", [str(guard)])])
    async with kernel.session(cwd=str(tmp_path)) as session:
        verdict = await session.tool_pre("Bash", {"command": "rm -rf x"})
    assert verdict.denied and verdict.reason == "no deletes"
    assert plugin.seen == []
    assert verdict.hooks[0].exit_code == 2


@pytest.mark.anyio
async def test_native_tool_post_runs_before_external_tool_post(
        tmp_path: Path, hook_script: ScriptFactory) -> None:
    order = tmp_path / "order.txt"
    hook = hook_script(f"cat >/dev/null; echo external >> {order}")

    class Native:
        @hookimpl
        def tool_post(self) -> None:
            with order.open("a") as fh:
                fh.write("native\n")

    dialect = EchoDialect()
    kernel = kernel_with(Native(), dialect=dialect)
    kernel.add_hooks([dialect.entry("tool_post", [str(hook)])])
    async with kernel.session(cwd=str(tmp_path)) as session:
        await session.tool_post("Bash", {"command": "ls"}, {"stdout": ""})
    assert order.read_text().split() == ["native", "external"]


@pytest.mark.anyio
async def test_unmatched_hooks_spawn_nothing(tmp_path: Path, hook_script: ScriptFactory) -> None:
    marker = tmp_path / "ran"
    hook = hook_script(f"touch {marker}")
    dialect = EchoDialect()
    kernel = kernel_with(dialect=dialect)
    kernel.add_hooks([dialect.entry("tool_pre", [str(hook)], matcher="Write")])
    async with kernel.session(cwd=str(tmp_path)) as session:
        verdict = await session.tool_pre("Bash", {"command": "ls"})
    assert verdict.hooks == () and not marker.exists()


@pytest.mark.anyio
async def test_parallel_and_serial_execution(tmp_path: Path, hook_script: ScriptFactory) -> None:
    """Parallel hooks overlap in time; serial ones do not (checked from the hooks' own log)."""
    log = tmp_path / "log"
    hook = hook_script(f"""
        cat >/dev/null
        echo "start $1 $(date +%s%N)" >> {log}
        sleep 0.3
        echo "end $1 $(date +%s%N)" >> {log}
        """)

    def overlaps() -> bool:
        rows = [line.split() for line in log.read_text().splitlines()]
        starts = sorted(int(r[2]) for r in rows if r[0] == "start")
        ends = sorted(int(r[2]) for r in rows if r[0] == "end")
        return starts[-1] < ends[0]

    for parallel, expected in ((True, True), (False, False)):
        log.write_text("")
        dialect = EchoDialect(parallel=parallel)
        kernel = kernel_with(dialect=dialect)
        kernel.add_hooks([dialect.entry("tool_pre", [str(hook), str(i)]) for i in range(3)])
        async with kernel.session(cwd=str(tmp_path)) as session:
            verdict = await session.tool_pre("Bash", {})
        assert len(verdict.hooks) == 3
        assert overlaps() is expected


@pytest.mark.anyio
async def test_seam_verdict_observer_sees_every_seam(tmp_path: Path) -> None:
    seen: list[Seam] = []

    class Audit:
        @hookimpl
        def seam_verdict(self, event: Any, verdict: Any) -> None:
            seen.append(verdict.seam)

    kernel = kernel_with(Audit())
    async with kernel.session(cwd=str(tmp_path)) as s:
        await s.session_start()
        await s.user_prompt("hi")
        await s.tool_pre("Bash", {})
        await s.tool_post("Bash", {}, "ok")
        await s.tool_failure("Bash", {}, "boom")
        await s.tool_batch([{"tool_name": "Bash", "tool_input": {}, "tool_use_id": "t",
                             "tool_response": "ok"}])
        await s.approve("Bash", {})
        await s.stop("done")
        await s.stop_failure("rate_limit")
        await s.subagent_start("a1", "general")
        await s.subagent_stop("a1", "general")
        await s.pre_compact()
        await s.post_compact()
        await s.notification("hello")
        await s.session_end()
    assert seen == [Seam.SESSION_START, Seam.PROMPT_SUBMIT, Seam.TOOL_PRE, Seam.TOOL_POST,
                    Seam.TOOL_FAILURE, Seam.TOOL_BATCH, Seam.APPROVE, Seam.STOP,
                    Seam.STOP_FAILURE, Seam.SUBAGENT_START,
                    Seam.SUBAGENT_STOP, Seam.PRE_COMPACT, Seam.POST_COMPACT, Seam.NOTIFICATION,
                    Seam.SESSION_END]


@pytest.mark.anyio
async def test_hook_invoked_carries_the_exact_stdin(tmp_path: Path,
                                                    hook_script: ScriptFactory) -> None:
    invoked: list[Any] = []

    class Audit:
        @hookimpl
        def hook_invoked(self, invocation: Any) -> None:
            invoked.append(invocation)

    got = tmp_path / "stdin"
    hook = hook_script(f"cat > {got}")
    dialect = EchoDialect()
    kernel = kernel_with(Audit(), dialect=dialect)
    kernel.add_hooks([dialect.entry("tool_pre", [str(hook)])])
    async with kernel.session(cwd=str(tmp_path)) as session:
        await session.tool_pre("Bash", {"command": "ls"})
    assert len(invoked) == 1
    assert invoked[0].command.stdin == got.read_bytes()


def test_duplicate_dialect_names_are_an_error() -> None:
    kernel = Kernel(load_entry_points=False)
    kernel.add_dialect(EchoDialect())
    with pytest.raises(ValueError, match="provided twice"):
        kernel.add_dialect(EchoDialect())


def test_misspelt_hook_implementation_fails_loudly() -> None:
    import pluggy

    class Typo:
        @hookimpl
        def tool_pree(self) -> None: ...

    with pytest.raises(pluggy.PluginValidationError):
        Kernel(load_entry_points=False, plugins=[Typo()])


@pytest.mark.anyio
async def test_halt_is_sticky_on_the_session(tmp_path: Path, hook_script: ScriptFactory) -> None:
    halter = hook_script("""cat >/dev/null; echo '{"halt": "budget spent"}'""")
    dialect = EchoDialect()
    kernel = kernel_with(dialect=dialect)
    kernel.add_hooks([dialect.entry("tool_post", [str(halter)])])
    async with kernel.session(cwd=str(tmp_path)) as session:
        verdict = await session.tool_post("Bash", {}, "ok")
        assert verdict.halt is not None and verdict.halt.reason == "budget spent"
        later = await session.tool_pre("Bash", {})
        assert later.halt is None and session.halted is not None
        assert session.halted.reason == "budget spent"
