"""The reference host end to end: real tools, native plugins and echo-dialect hooks (real
processes); only the model is scripted."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from hookwire import Answer, Context, Decision, Halt, Kernel, Source, SourceKind, hookimpl
from hookwire.reference import Agent, ModelTurn, ScriptedModel, ToolCall, TransientModelError
from hookwire.testing import EchoDialect, ScriptFactory

PLUGIN = Source(kind=SourceKind.PLUGIN, name="test")


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


class Counter:
    def __init__(self) -> None:
        self.prompts: list[str] = []
        self.starts = 0

    @hookimpl
    def prompt_submit(self, event: Any) -> None:
        self.prompts.append(event.prompt)

    @hookimpl
    def session_start(self) -> None:
        self.starts += 1


def bash(cmd: str, id: str = "t1") -> ModelTurn:
    return ModelTurn(tool_calls=(ToolCall(name="Bash", input={"command": cmd}, id=id),))


@pytest.mark.anyio
async def test_prompt_submit_once_through_every_public_entry_point(tmp_path: Path) -> None:
    counter = Counter()
    kernel = Kernel(load_entry_points=False, plugins=[counter])
    model = ScriptedModel([bash("echo hi"), ModelTurn(text="one"), ModelTurn(text="two"),
                           TransientModelError("rate limited"), ModelTurn(text="three")])
    async with Agent(kernel, model, cwd=str(tmp_path)) as agent:
        r1 = await agent.run("first")                 # run drives run_stream: nested ingress
        items = [i async for i in agent.run_stream("second")]
        r3 = await agent.run("third")                  # includes an internal retry
    assert r1.text == "one" and r1.model_requests == 2
    assert items[-1].text == "two"  # type: ignore[union-attr]
    assert r3.text == "three"
    assert counter.prompts == ["first", "second", "third"]
    assert len(model.requests) == 5  # the retry made a request but fired no prompt_submit


def test_run_sync_fires_once(tmp_path: Path) -> None:
    counter = Counter()
    kernel = Kernel(load_entry_points=False, plugins=[counter])
    agent = Agent(kernel, ScriptedModel([bash("true"), ModelTurn(text="ok")]), cwd=str(tmp_path))
    result = agent.run_sync("sync prompt")
    assert result.text == "ok" and counter.prompts == ["sync prompt"] and counter.starts == 1


@pytest.mark.anyio
async def test_reentrant_run_inside_a_tool_does_not_fire_again(tmp_path: Path) -> None:
    """A tool that calls the agent's public API again (same turn) reuses the turn origin."""
    counter = Counter()
    kernel = Kernel(load_entry_points=False, plugins=[counter])
    model = ScriptedModel([ModelTurn(tool_calls=(ToolCall(name="Nested", input={}, id="n"),)),
                           ModelTurn(text="inner done"), ModelTurn(text="outer done")])
    from hookwire.reference import Tool

    holder: dict[str, Agent] = {}

    async def nested(tool_input: Any, ctx: Any) -> Any:
        result = await holder["agent"].run("inner prompt")
        return result.text

    tools = {"Nested": Tool(name="Nested", description="", required={}, call=nested)}
    async with Agent(kernel, model, cwd=str(tmp_path), tools=tools) as agent:
        holder["agent"] = agent
        result = await agent.run("outer prompt")
    assert result.text == "outer done"
    assert counter.prompts == ["outer prompt"]


@pytest.mark.anyio
async def test_guard_rewrite_context_and_post_feedback(tmp_path: Path,
                                                       hook_script: ScriptFactory) -> None:
    guard = hook_script("""
        if grep -q 'rm -rf' ; then echo 'no recursive deletes' >&2; exit 2; fi
        """)
    rewrite = hook_script("""
        cat >/dev/null
        echo '{"updated_input": {"command": "echo rewritten"}, "context": "rewrote it"}'
        """)
    dialect = EchoDialect(parallel=False)
    kernel = Kernel(load_entry_points=False)
    kernel.add_dialect(dialect)
    kernel.add_hooks([dialect.entry("tool_pre", [str(guard)], matcher="Bash"),
                      dialect.entry("tool_pre", [str(rewrite)], matcher="Bash")])
    victim = tmp_path / "keep"
    victim.mkdir()
    model = ScriptedModel([bash(f"rm -rf {victim}", "a"), bash("echo original", "b"),
                           ModelTurn(text="done")])
    async with Agent(kernel, model, cwd=str(tmp_path)) as agent:
        result = await agent.run("go")
    assert victim.exists()  # the tool never ran
    denied, rewritten = result.tool_runs
    assert not denied.ran and denied.error == "no recursive deletes"
    assert rewritten.ran and rewritten.effective_input == {"command": "echo rewritten"}
    assert rewritten.result["stdout"] == "rewritten"
    shown = [(m.role, m.content, m.source) for m in agent.messages]
    assert ("tool", "no recursive deletes", shown[2][2]) in shown
    # a dialect without its own rendering gets hookwire's neutral labelled form
    assert any(c.endswith("\nrewrote it") and c.startswith("[hookwire: context from echo:")
               and s and "echo:tool_pre hook" in s for _, c, s in shown)


@pytest.mark.anyio
async def test_stop_hook_forces_exactly_n_extra_turns(tmp_path: Path,
                                                      hook_script: ScriptFactory) -> None:
    count = tmp_path / "count"
    stop = hook_script(f"""
        cat >/dev/null
        n=$(cat {count} 2>/dev/null || echo 0); n=$((n+1)); echo $n > {count}
        if [ $n -le 2 ]; then echo '{{"decision": "block", "reason": "again"}}'; fi
        """)
    dialect = EchoDialect()
    kernel = Kernel(load_entry_points=False)
    kernel.add_dialect(dialect)
    kernel.add_hooks([dialect.entry("stop", [str(stop)])])
    model = ScriptedModel(lambda msgs: ModelTurn(text=f"reply {len(msgs)}"))
    async with Agent(kernel, model, cwd=str(tmp_path)) as agent:
        result = await agent.run("go")
    assert result.model_requests == 3 and count.read_text().strip() == "3"
    feedback = [m for m in agent.messages if m.content.startswith("[hookwire: Stop hook feedback")]
    assert len(feedback) == 2 and all(m.role == "system" for m in feedback)


@pytest.mark.anyio
async def test_halt_ask_and_approval_paths(tmp_path: Path) -> None:
    class Policy:
        @hookimpl
        def tool_pre(self, event: Any) -> Answer | None:
            cmd = event.tool_input.get("command", "")
            if cmd.startswith("ask"):
                return Answer(decision=Decision.ASK, reason="needs a human")
            if cmd.startswith("halt"):
                return Answer(halt=Halt(reason="enough", source=PLUGIN))
            return None

    kernel = Kernel(load_entry_points=False, plugins=[Policy()])
    # no approver, no approve hook: ask is denied
    model = ScriptedModel([bash("ask echo x"), ModelTurn(text="done")])
    async with Agent(kernel, model, cwd=str(tmp_path)) as agent:
        result = await agent.run("go")
    refused = result.tool_runs[0]
    assert not refused.ran and refused.error == (  # Claude Code 2.1.332's wording
        "Permission for this tool use was denied. It requires approval, and this session has "
        "no approval surface. What required approval: needs a human")
    # the host's own approval path
    approvals: list[str | None] = []
    model = ScriptedModel([bash("ask echo x"), ModelTurn(text="done")])
    async with Agent(kernel, model, cwd=str(tmp_path),
                     approver=lambda call, reason: approvals.append(reason) or True) as agent:
        result = await agent.run("go")
    assert result.tool_runs[0].ran and approvals == ["needs a human"]

    # the kernel's approve seam
    class Approver:
        @hookimpl
        def approve(self, event: Any) -> Answer:
            return Answer(decision=Decision.ALLOW, updated_input={"command": "echo approved"})

    kernel.register(Approver())
    model = ScriptedModel([bash("ask echo x"), ModelTurn(text="done")])
    async with Agent(kernel, model, cwd=str(tmp_path)) as agent:
        result = await agent.run("go")
    assert result.tool_runs[0].ran and result.tool_runs[0].result["stdout"] == "approved"
    # halt: the tool still runs (as Claude Code), then the turn ends
    model = ScriptedModel([bash("halt; echo ran"), ModelTurn(text="never")])
    async with Agent(kernel, model, cwd=str(tmp_path)) as agent:
        result = await agent.run("go")
    assert result.terminal_reason == "hook_stopped" and result.halt is not None
    assert result.tool_runs[0].ran and result.model_requests == 1


@pytest.mark.anyio
async def test_prompt_block_and_context_reach_the_model_labelled(tmp_path: Path) -> None:
    class Prompts:
        @hookimpl
        def prompt_submit(self, event: Any) -> Answer:
            if "secret" in event.prompt:
                return Answer(decision=Decision.BLOCK, reason="no secrets")
            return Answer(contexts=(Context(text="branch: main", source=PLUGIN),))

    kernel = Kernel(load_entry_points=False, plugins=[Prompts()])
    model = ScriptedModel([ModelTurn(text="fine")])
    async with Agent(kernel, model, cwd=str(tmp_path)) as agent:
        blocked = await agent.run("my secret is 42")
        assert blocked.terminal_reason == "prompt_blocked" and model.requests == []
        await agent.run("hello")
    first_request = model.requests[0]
    assert [(m.role, m.content) for m in first_request][:2] == [
        ("user", "hello"), ("system", "[hookwire: context from plugin test]\nbranch: main")]
    assert first_request[1].source == "plugin test"


@pytest.mark.anyio
async def test_rewritten_input_is_revalidated_against_the_tool_schema(tmp_path: Path) -> None:
    class Breaker:
        @hookimpl
        def tool_pre(self) -> Answer:
            return Answer(updated_input={"cmd": "oops"})

    kernel = Kernel(load_entry_points=False, plugins=[Breaker()])
    model = ScriptedModel([bash("echo x"), ModelTurn(text="done")])
    async with Agent(kernel, model, cwd=str(tmp_path)) as agent:
        result = await agent.run("go")
    assert not result.tool_runs[0].ran
    assert "missing required input 'command'" in (result.tool_runs[0].error or "")


@pytest.mark.anyio
async def test_tool_failure_seam_and_env_file(tmp_path: Path) -> None:
    failures: list[str] = []

    class Observer:
        @hookimpl
        def tool_failure(self, event: Any) -> None:
            failures.append(event.error)

        @hookimpl
        def session_start(self, session: Any) -> None:
            Path(session.info.env_file).write_text("export GREETING=from-env-file\n")

    kernel = Kernel(load_entry_points=False, plugins=[Observer()])
    model = ScriptedModel([bash("echo oops >&2; exit 3", "a"), bash("echo $GREETING", "b"),
                           ModelTurn(text="done")])
    async with Agent(kernel, model, cwd=str(tmp_path)) as agent:
        result = await agent.run("go")
    assert failures == ["Exit code 3\noops"]
    assert result.tool_runs[1].result["stdout"] == "from-env-file"


@pytest.mark.anyio
async def test_tool_batch_block_ends_the_loop_before_the_next_request(tmp_path: Path) -> None:
    batches: list[Any] = []

    class Batch:
        @hookimpl
        def tool_batch(self, event: Any) -> Answer:
            batches.append(event.tool_calls)
            return Answer(decision=Decision.BLOCK, reason="one batch is enough")

    kernel = Kernel(load_entry_points=False, plugins=[Batch()])
    model = ScriptedModel([bash("echo one", "a"), ModelTurn(text="never asked")])
    async with Agent(kernel, model, cwd=str(tmp_path)) as agent:
        result = await agent.run("go")
    assert result.terminal_reason == "hook_stopped"
    assert result.blocked_reason == "one batch is enough" and result.model_requests == 1
    assert len(model.requests) == 1
    assert batches == [({"tool_name": "Bash", "tool_input": {"command": "echo one"},
                         "tool_use_id": "a", "tool_response": "one"},)]
    assert agent.messages[-1].content == "one batch is enough"


@pytest.mark.anyio
async def test_stop_failure_fires_when_the_model_fails_after_retries(tmp_path: Path) -> None:
    failures: list[Any] = []
    stops: list[Any] = []

    class Observer:
        @hookimpl
        def stop_failure(self, event: Any) -> None:
            failures.append((event.error, event.error_details))

        @hookimpl
        def stop(self, event: Any) -> None:
            stops.append(event)

    kernel = Kernel(load_entry_points=False, plugins=[Observer()])
    model = ScriptedModel([TransientModelError("overloaded")] * 3)
    async with Agent(kernel, model, cwd=str(tmp_path), max_retries=2) as agent:
        result = await agent.run("go")
    assert result.terminal_reason == "model_error"
    assert failures == [("server_error", "overloaded")] and stops == []
    assert len(model.requests) == 3


@pytest.mark.anyio
async def test_shell_tool_shows_the_model_both_streams_when_the_command_succeeds(
        tmp_path: Path) -> None:
    kernel = Kernel(load_entry_points=False)
    model = ScriptedModel([bash("echo on-stdout; echo 'fatal: on-stderr' >&2; exit 0"),
                           ModelTurn(text="done")])
    async with Agent(kernel, model, cwd=str(tmp_path)) as agent:
        await agent.run("go")
    sent = [m.content for m in model.requests[1] if m.role == "tool"]
    assert sent == ["on-stdout\nfatal: on-stderr"]
