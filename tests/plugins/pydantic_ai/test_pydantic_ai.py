"""The pydantic-ai adapter end to end: a real agent, a real ``bash`` tool, Claude Code hooks
from ``.claude/settings.json`` run as real processes; only the model is a ``FunctionModel``."""

from __future__ import annotations

import asyncio
import json
import subprocess
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("pydantic_ai")

from pydantic_ai import Agent, RunContext
from pydantic_ai.capabilities import HandleDeferredToolCalls
from pydantic_ai.exceptions import ModelHTTPError, ModelRetry
from pydantic_ai.messages import (
    ModelMessage,
    ModelResponse,
    SystemPromptPart,
    TextPart,
    ToolCallPart,
    ToolReturnPart,
)
from pydantic_ai.models.function import AgentInfo, DeltaToolCall, FunctionModel
from pydantic_ai.tools import DeferredToolRequests, DeferredToolResults, ToolDenied

from hookwire import Decision, Kernel, Seam, hookimpl
from hookwire.plugins.pydantic_ai import Hookwire, PromptBlocked, RunHalted, ToolBatchBlocked

pytestmark = pytest.mark.anyio
Call = tuple[str, dict[str, Any]]
#: text, one tool call, parallel tool calls, a whole response, or an error the model raises
Turn = str | Call | list[Call] | ModelResponse | Exception


class Script:
    """A scripted ``FunctionModel``: each request takes the next turn and is recorded."""

    def __init__(self, *turns: Turn) -> None:
        self.turns = list(turns)
        self.requests: list[list[ModelMessage]] = []

    def _next(self, messages: list[ModelMessage]) -> Turn:
        self.requests.append(list(messages))
        turn = self.turns.pop(0)
        if isinstance(turn, Exception):
            raise turn
        return turn

    def respond(self, messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        turn = self._next(messages)
        if isinstance(turn, ModelResponse):
            return turn
        if isinstance(turn, str):
            return ModelResponse(parts=[TextPart(turn)])
        calls = turn if isinstance(turn, list) else [turn]
        return ModelResponse(parts=[ToolCallPart(name, args) for name, args in calls])

    async def stream(self, messages: list[ModelMessage], info: AgentInfo
                     ) -> AsyncIterator[str | dict[int, DeltaToolCall]]:
        turn = self._next(messages)
        assert not isinstance(turn, ModelResponse)
        if isinstance(turn, str):
            yield turn
        else:
            calls = turn if isinstance(turn, list) else [turn]
            yield {i: DeltaToolCall(name=name, json_args=json.dumps(args))
                   for i, (name, args) in enumerate(calls)}

    def model(self) -> FunctionModel:
        return FunctionModel(self.respond, stream_function=self.stream)


class Shell:
    """The ``bash`` tool: really runs ``sh -c`` in the project."""

    def __init__(self, cwd: Path) -> None:
        self.cwd = cwd
        self.ran: list[str] = []

    def __call__(self, command: str) -> str:
        """Run a shell command and return its output."""
        self.ran.append(command)
        proc = subprocess.run(["sh", "-c", command], cwd=self.cwd, capture_output=True,
                              text=True, timeout=30)
        return proc.stdout + proc.stderr


def agent_for(kernel: Kernel, script: Script, project: Path, *, capabilities: tuple[Any, ...] = (),
              **kwargs: Any) -> tuple[Agent[None, Any], Shell]:
    shell = Shell(project)

    def bash(command: str) -> str:
        """Run a shell command and return its output."""
        return shell(command)

    agent = Agent(script.model(), tools=[bash],
                  capabilities=[Hookwire(kernel, cwd=str(project)), *capabilities], **kwargs)
    return agent, shell


def text_of(messages: list[ModelMessage]) -> str:
    return "\n".join(repr(m) for m in messages)


def tool_returns(messages: list[ModelMessage]) -> list[ToolReturnPart]:
    return [p for m in messages for p in getattr(m, "parts", ()) if isinstance(p, ToolReturnPart)]


# -- tool_pre ------------------------------------------------------------------------------------

async def test_guard_blocks_rm_rf_and_the_model_sees_why(claude: Any, project: Path,
                                                         hook_log: Any) -> None:
    kernel = claude(PreToolUse=[("guard", "bash")])
    script = Script(("bash", {"command": "rm -rf build"}), "understood")
    agent, shell = agent_for(kernel, script, project)
    result = await agent.run("clean up")
    assert shell.ran == []                                   # the tool never ran
    assert result.output == "understood"
    [ret] = tool_returns(script.requests[1])
    assert "Blocked: rm -rf is not allowed in this project" in ret.model_response_str()
    [payload] = hook_log("guard")
    assert payload["hook_event_name"] == "PreToolUse" and payload["tool_name"] == "bash"
    assert payload["tool_input"] == {"command": "rm -rf build"}


async def test_rewritten_command_is_what_runs(claude: Any, project: Path) -> None:
    kernel = claude(PreToolUse=[("rewrite", "bash")])
    verdicts: list[Any] = []

    class Audit:
        @hookimpl
        def seam_verdict(self, event: Any, verdict: Any) -> None:
            verdicts.append(verdict)

    kernel.register(Audit())
    script = Script(("bash", {"command": "echo old value"}), "done")
    agent, shell = agent_for(kernel, script, project)
    await agent.run("go")
    assert shell.ran == ["echo new value"]
    [ret] = tool_returns(script.requests[1])
    assert ret.content == "new value\n"
    [pre] = [v for v in verdicts if v.seam.value == "tool_pre"]
    assert pre.original_input == {"command": "echo old value"}
    assert pre.effective_input == {"command": "echo new value"}


async def test_invalid_rewrite_is_a_deny_carrying_the_validation_error(project: Path) -> None:
    class BadRewrite:
        @hookimpl
        def tool_pre(self, event: Any) -> Any:
            from hookwire import Answer
            return Answer(updated_input={"command": 42, "extra": True})

    kernel = Kernel(plugins=[BadRewrite()])
    script = Script(("bash", {"command": "echo hi"}), "ok")
    agent, shell = agent_for(kernel, script, project)
    await agent.run("go")
    assert shell.ran == []
    [ret] = tool_returns(script.requests[1])
    assert "rewrote the input of bash into an invalid one" in ret.model_response_str()


# -- ask -----------------------------------------------------------------------------------------

async def test_ask_goes_through_pydantic_ai_approval_handler(claude: Any, project: Path) -> None:
    kernel = claude(PreToolUse=[("ask", "bash")])
    seen: list[DeferredToolRequests] = []

    async def approve_all(ctx: RunContext[Any], requests: DeferredToolRequests
                          ) -> DeferredToolResults:
        seen.append(requests)
        return requests.build_results(approve_all=True)

    script = Script(("bash", {"command": "echo sudo ok"}), "done")
    agent, shell = agent_for(kernel, script, project,
                             capabilities=(HandleDeferredToolCalls(handler=approve_all),))
    await agent.run("go")
    assert shell.ran == ["echo sudo ok"]
    [requests] = seen
    [call] = requests.approvals
    assert requests.metadata[call.tool_call_id]["hookwire"]["reason"] == "sudo needs a human"


async def test_ask_denied_by_the_runtime_handler(claude: Any, project: Path) -> None:
    kernel = claude(PreToolUse=[("ask", "bash")])

    def deny(ctx: RunContext[Any], requests: DeferredToolRequests) -> DeferredToolResults:
        return DeferredToolResults(approvals={c.tool_call_id: ToolDenied("the user said no")
                                              for c in requests.approvals})

    script = Script(("bash", {"command": "echo sudo ok"}), "done")
    agent, shell = agent_for(kernel, script, project,
                             capabilities=(HandleDeferredToolCalls(handler=deny),))
    await agent.run("go")
    assert shell.ran == []
    assert "the user said no" in tool_returns(script.requests[1])[0].model_response_str()


async def test_ask_pauses_the_run_when_the_agent_returns_deferred_requests(
        claude: Any, project: Path, hook_log: Any) -> None:
    kernel = claude(PreToolUse=[("ask", "bash")], UserPromptSubmit=["context"])
    script = Script(("bash", {"command": "echo sudo ok"}), "done")
    agent, shell = agent_for(kernel, script, project, output_type=[str, DeferredToolRequests])
    first = await agent.run("go")
    assert isinstance(first.output, DeferredToolRequests) and shell.ran == []
    results = first.output.build_results(approve_all=True)
    second = await agent.run(message_history=first.all_messages(), deferred_tool_results=results)
    assert shell.ran == ["echo sudo ok"] and second.output == "done"
    assert len(hook_log("context")) == 1   # resuming is not a new user turn


async def test_ask_without_runtime_path_uses_the_kernel_approve_seam(claude: Any,
                                                                     project: Path) -> None:
    kernel = claude(PreToolUse=[("ask", "bash")])

    class Approver:
        @hookimpl
        def approve(self, event: Any) -> Any:
            from hookwire import Answer
            return Answer(decision=Decision.ALLOW)

    kernel.register(Approver())
    script = Script(("bash", {"command": "echo sudo ok"}), "done")
    agent, shell = agent_for(kernel, script, project)
    await agent.run("go")
    assert shell.ran == ["echo sudo ok"]


async def test_ask_with_no_approval_surface_is_denied(claude: Any, project: Path) -> None:
    kernel = claude(PreToolUse=[("ask", "bash")])
    script = Script(("bash", {"command": "echo sudo ok"}), "done")
    agent, shell = agent_for(kernel, script, project)
    await agent.run("go")
    assert shell.ran == []
    assert "no approval surface" in tool_returns(script.requests[1])[0].model_response_str()


# -- prompt_submit, stop, halt --------------------------------------------------------------------

async def test_prompt_context_reaches_the_model_labelled(claude: Any, project: Path) -> None:
    kernel = claude(UserPromptSubmit=["context"])
    script = Script("hello")
    agent, _ = agent_for(kernel, script, project)
    result = await agent.run("what is the build id?")
    sent = text_of(script.requests[0])
    assert "UserPromptSubmit hook additional context: build id is 4242" in sent
    parts = [p for m in result.all_messages() for p in getattr(m, "parts", ())
             if isinstance(p, SystemPromptPart) and "4242" in p.content]
    assert len(parts) == 1                          # a system part, never the user's words
    assert parts[0].content == "UserPromptSubmit hook additional context: build id is 4242"
    assert parts[0].metadata["hookwire"]["source"].startswith("claude:UserPromptSubmit hook")


async def test_stop_hook_forces_exactly_n_more_turns(claude: Any, project: Path, hook_log: Any,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("STOP_BLOCKS", "2")
    kernel = claude(Stop=["stop"])
    script = Script("first", "second", "third", "never")
    agent, _ = agent_for(kernel, script, project)
    result = await agent.run("work")
    assert result.output == "third" and len(script.requests) == 3
    stops = hook_log("stop")
    assert [s["stop_hook_active"] for s in stops] == [False, True, True]
    assert [s["last_assistant_message"] for s in stops] == ["first", "second", "third"]
    assert "not done yet (1)" in text_of(script.requests[1])


async def test_stop_block_cap_is_honoured(claude: Any, project: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("STOP_BLOCKS", "100")
    kernel = claude(Stop=["stop"])
    script = Script(*[f"t{i}" for i in range(10)])
    shell = Shell(project)
    agent = Agent(script.model(), tools=[], capabilities=[
        Hookwire(kernel, cwd=str(project), max_stop_blocks=3)])
    assert shell.ran == []
    result = await agent.run("work")
    assert len(script.requests) == 4 and result.output == "t3"


async def test_continue_false_on_prompt_halts_before_the_model(claude: Any,
                                                              project: Path) -> None:
    kernel = claude(UserPromptSubmit=["halt"])
    script = Script("never")
    agent, _ = agent_for(kernel, script, project)
    with pytest.raises(RunHalted, match="the halt hook stopped everything"):
        await agent.run("please halt")
    assert script.requests == []


async def test_continue_false_after_a_tool_halts_the_run(claude: Any, project: Path) -> None:
    kernel = claude(PostToolUse=[("halt", "bash")])
    script = Script(("bash", {"command": "echo halt now"}), "never")
    agent, shell = agent_for(kernel, script, project)
    with pytest.raises(RunHalted):
        await agent.run("go")
    assert shell.ran == ["echo halt now"] and len(script.requests) == 1


async def test_continue_false_before_a_tool_lets_it_run_then_halts(claude: Any, project: Path,
                                                                 hook_log: Any) -> None:
    """Claude Code: ``continue: false`` on PreToolUse does not refuse the tool; the tool runs
    (its PostToolUse fires) and the run stops before the next model request."""
    kernel = claude(PreToolUse=[("halt", "bash")], PostToolUse=[("post", "bash")])
    script = Script(("bash", {"command": "echo halt now"}), "never")
    agent, shell = agent_for(kernel, script, project)
    with pytest.raises(RunHalted, match="the halt hook stopped everything"):
        await agent.run("go")
    assert shell.ran == ["echo halt now"] and len(script.requests) == 1
    [post] = hook_log("post")
    assert post["tool_response"] == "halt now\n"


async def test_continue_false_with_deny_before_a_tool_refuses_it_and_halts(
        claude: Any, project: Path) -> None:
    kernel = claude(PreToolUse=[("deny_halt", "bash")])
    script = Script(("bash", {"command": "echo halt now"}), "never")
    agent, shell = agent_for(kernel, script, project)
    with pytest.raises(RunHalted, match="the deny_halt hook stopped everything"):
        await agent.run("go")
    assert shell.ran == [] and len(script.requests) == 1


async def test_blocked_prompt_never_reaches_the_model(project: Path) -> None:
    class Block:
        @hookimpl
        def prompt_submit(self, event: Any) -> Any:
            from hookwire import Answer
            return Answer(decision=Decision.BLOCK, reason="no secrets in prompts")

    script = Script("never")
    agent, _ = agent_for(Kernel(plugins=[Block()]), script, project)
    with pytest.raises(PromptBlocked, match="no secrets"):
        await agent.run("my password is hunter2")
    assert script.requests == []


# -- failure policy, tool_post / tool_failure ----------------------------------------------------

async def test_hook_timeout_follows_claude_failure_policy(claude: Any, project: Path) -> None:
    """Claude Code: a PreToolUse hook that times out is a non-blocking error; the tool runs."""
    kernel = claude(PreToolUse=[("slow", "bash", 1)])
    script = Script(("bash", {"command": "echo ran"}), "done")
    agent, shell = agent_for(kernel, script, project)
    started = time.monotonic()
    await agent.run("go")
    assert time.monotonic() - started < 10
    assert shell.ran == ["echo ran"]


async def test_tool_post_and_failure_hooks_fire(claude: Any, project: Path, hook_log: Any) -> None:
    kernel = claude(PostToolUse=[("post", "bash")], PostToolUseFailure=[("failure", "bash")])
    script = Script(("bash", {"command": "echo fine"}), ("bash", {"command": "boom"}), "done")
    shell = Shell(project)

    def bash(command: str) -> str:
        """Run a command; ``boom`` raises."""
        if command == "boom":
            raise RuntimeError("the tool exploded")
        return shell(command)

    agent = Agent(script.model(), tools=[bash], capabilities=[Hookwire(kernel, cwd=str(project))])
    with pytest.raises(RuntimeError, match="exploded"):   # pydantic-ai lets tool crashes raise
        await agent.run("go")
    [post] = hook_log("post")
    assert post["tool_response"] == "fine\n" and post["tool_input"] == {"command": "echo fine"}
    [failure] = hook_log("failure")
    assert "the tool exploded" in failure["error"]


# -- exactly once ---------------------------------------------------------------------------------

def flaky_agent(kernel: Kernel, project: Path, *, output_retry: bool = True
                ) -> tuple[Agent[None, Any], Script]:
    """A run with internal retries: the tool raises ModelRetry once, the output validator once
    (``run_stream`` does not retry output validation, so it gets the tool retry only)."""
    turns: list[Turn] = [("bash", {"command": "echo 1"}), ("bash", {"command": "echo 2"})]
    script = Script(*turns, *(["bad output"] if output_retry else []), "good output")
    agent = Agent(script.model(), capabilities=[Hookwire(kernel, cwd=str(project))], retries=3)
    calls: list[str] = []

    @agent.tool_plain
    def bash(command: str) -> str:
        """Run a command."""
        calls.append(command)
        if len(calls) == 1:
            raise ModelRetry("try again")
        return subprocess.run(["sh", "-c", command], capture_output=True, text=True).stdout

    @agent.output_validator
    def check(output: str) -> str:
        if output == "bad output":
            raise ModelRetry("not good enough")
        return output

    return agent, script


async def _via(entry: str, agent: Agent[None, Any], prompt: str) -> str:
    if entry == "run":
        return str((await agent.run(prompt)).output)
    if entry == "run_stream":
        async with agent.run_stream(prompt) as stream:
            return str(await stream.get_output())
    if entry == "iter":
        async with agent.iter(prompt) as run:
            async for _node in run:
                pass
        assert run.result is not None
        return str(run.result.output)
    if entry == "run_stream_events":
        out = None
        async with agent.run_stream_events(prompt) as events:
            async for event in events:
                out = getattr(event, "result", out)
        assert out is not None
        return str(out.output)
    raise AssertionError(entry)


@pytest.mark.parametrize("entry", ["run", "run_stream", "iter", "run_stream_events"])
async def test_prompt_submit_fires_once_per_run_and_never_for_retries(
        entry: str, claude: Any, project: Path, hook_log: Any) -> None:
    kernel = claude(UserPromptSubmit=["context"])
    agent, script = flaky_agent(kernel, project, output_retry=entry != "run_stream")
    assert await _via(entry, agent, "first") == "good output"
    assert len(script.requests) == (3 if entry == "run_stream" else 4)  # internal retries
    script.turns = ["second"]
    assert await _via(entry, agent, "second") == "second"
    assert [p["prompt"] for p in hook_log("context")] == ["first", "second"]


@pytest.fixture
def fresh_loop() -> Any:
    """run_sync sets an event loop on the thread and leaves it open: close it afterwards."""
    yield
    loop = asyncio.get_event_loop_policy().get_event_loop()
    loop.close()
    asyncio.set_event_loop(None)


def test_run_sync_fires_once(claude: Any, project: Path, hook_log: Any, fresh_loop: Any) -> None:
    kernel = claude(UserPromptSubmit=["context"], SessionStart=["start"])
    agent, script = flaky_agent(kernel, project)
    assert agent.run_sync("sync prompt").output == "good output"
    script.turns = ["again"]
    assert agent.run_sync("sync again").output == "again"
    assert [p["prompt"] for p in hook_log("context")] == ["sync prompt", "sync again"]
    assert [p["source"] for p in hook_log("start")] == ["startup", "resume"]
    assert len({p["session_id"] for p in hook_log()}) == 1


async def test_shared_session_across_runs(claude: Any, project: Path, hook_log: Any) -> None:
    kernel = claude(UserPromptSubmit=["context"], SessionStart=["start"], SessionEnd=["end"])
    script = Script("one", "two")
    hooks = Hookwire(kernel, cwd=str(project))
    agent = Agent(script.model(), capabilities=[hooks])
    async with hooks:
        await agent.run("a")
        await agent.run("b")
    assert len(hook_log("start")) == 1 and len(hook_log("end")) == 1
    assert len(hook_log("context")) == 2


async def test_nested_run_inside_a_tool_does_not_fire_again(claude: Any, project: Path,
                                                            hook_log: Any) -> None:
    kernel = claude(UserPromptSubmit=["context"])
    inner_script = Script("inner")
    hooks = Hookwire(kernel, cwd=str(project))
    inner = Agent(inner_script.model(), capabilities=[hooks])
    script = Script(("delegate", {"task": "x"}), "outer")
    outer = Agent(script.model(), capabilities=[hooks])

    @outer.tool_plain
    async def delegate(task: str) -> str:
        """Ask the inner agent."""
        return str((await inner.run(task)).output)

    async with hooks:
        assert (await outer.run("outer prompt")).output == "outer"
    assert [p["prompt"] for p in hook_log("context")] == ["outer prompt"]



async def test_nested_run_with_a_session_per_run_is_part_of_the_tool_call(
        claude: Any, project: Path, hook_log: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """Without ``async with``: the inner run reuses the outer run's session and turn, so it
    fires no SessionStart/End, UserPromptSubmit or Stop of its own; its tools' hooks fire."""
    monkeypatch.setenv("STOP_BLOCKS", "0")
    kernel = claude(UserPromptSubmit=["context"], SessionStart=["start"], SessionEnd=["end"],
                    Stop=["stop"], PreToolUse=[("guard", "bash")])
    hooks = Hookwire(kernel, cwd=str(project))
    shell = Shell(project)

    def bash(command: str) -> str:
        """Run a shell command and return its output."""
        return shell(command)

    inner = Agent(Script(("bash", {"command": "rm -rf inner"}), "inner done").model(),
                  tools=[bash], capabilities=[hooks])
    script = Script(("delegate", {"task": "x"}), "outer done")
    outer = Agent(script.model(), capabilities=[hooks])

    @outer.tool_plain
    async def delegate(task: str) -> str:
        """Ask the inner agent."""
        return str((await inner.run(task)).output)

    assert (await outer.run("outer prompt")).output == "outer done"
    assert "inner done" in tool_returns(script.requests[1])[0].model_response_str()
    assert [p["prompt"] for p in hook_log("context")] == ["outer prompt"]
    assert len(hook_log("start")) == 1 and len(hook_log("end")) == 1
    assert [p["last_assistant_message"] for p in hook_log("stop")] == ["outer done"]
    assert shell.ran == []                           # the guard still guards the inner agent
    [guard] = hook_log("guard")
    assert guard["tool_input"] == {"command": "rm -rf inner"}
    assert len({p["session_id"] for p in hook_log()}) == 1

async def test_codex_guard_blocks_rm_rf_too(codex: Any, project: Path, hook_log: Any) -> None:
    kernel = codex(PreToolUse=[("guard", "^bash$")])
    script = Script(("bash", {"command": "rm -rf build"}), "understood")
    agent, shell = agent_for(kernel, script, project)
    await agent.run("clean up")
    assert shell.ran == []
    [ret] = tool_returns(script.requests[1])
    assert "Blocked: rm -rf is not allowed in this project" in ret.model_response_str()
    assert hook_log("guard")[0]["hook_event_name"] == "PreToolUse"


async def test_run_stream_cannot_continue_after_stop(claude: Any, project: Path, hook_log: Any,
                                                     caplog: pytest.LogCaptureFixture) -> None:
    """run_stream hands its first final output to the caller mid-stream: a stop hook fires but
    cannot keep the turn going (documented; run, iter and run_stream_events can)."""
    kernel = claude(Stop=["stop"])
    script = Script("first", "never")
    agent, _ = agent_for(kernel, script, project)
    async with agent.run_stream("work") as stream:
        assert await stream.get_output() == "first"
    assert len(hook_log("stop")) == 1 and len(script.requests) == 1
    assert "run_stream() cannot" in caplog.text


def test_host_profile_is_declared_through_the_entry_point() -> None:
    profile = Kernel().hosts["pydantic-ai"]
    assert profile.emits(Seam.TOOL_PRE) and profile.emits(Seam.STOP)
    assert profile.emits(Seam.TOOL_BATCH) and profile.emits(Seam.STOP_FAILURE)
    assert not profile.emits(Seam.PRE_COMPACT) and Seam.PRE_COMPACT in profile.missing


# -- tool_batch, stop_failure ---------------------------------------------------------------------

async def test_tool_batch_block_ends_the_run_before_the_next_model_request(
        claude: Any, project: Path, hook_log: Any) -> None:
    kernel = claude(PostToolBatch=["batch_block"], PreToolUse=[("guard", "bash")], Stop=["stop"])
    script = Script([("bash", {"command": "echo one"}), ("bash", {"command": "rm -rf build"})],
                    "never")
    agent, shell = agent_for(kernel, script, project)
    with pytest.raises(ToolBatchBlocked, match=r"enough tools for now \(2 calls\)") as caught:
        await agent.run("go")
    assert isinstance(caught.value, RunHalted)      # callers catching RunHalted see it too
    assert "claude:PostToolBatch hook" in str(caught.value)
    assert len(script.requests) == 1                # the model was not asked again
    assert shell.ran == ["echo one"]
    [batch] = hook_log("batch_block")               # once, for the whole response
    calls = {c["tool_input"]["command"]: c for c in batch["tool_calls"]}
    assert set(calls) == {"echo one", "rm -rf build"}
    assert calls["echo one"]["tool_response"] == "one\n"
    assert "Blocked: rm -rf is not allowed" in calls["rm -rf build"]["tool_response"]
    assert all(c["tool_name"] == "bash" and c["tool_use_id"] for c in batch["tool_calls"])
    assert hook_log("stop") == []                   # the loop ended: no stop


@pytest.mark.parametrize("entry", ["run", "run_stream", "iter", "run_stream_events"])
async def test_tool_batch_context_reaches_the_next_request_labelled(
        entry: str, claude: Any, project: Path, hook_log: Any) -> None:
    kernel = claude(PostToolBatch=["batch_context"], PreToolUse=[("rewrite", "bash")])
    script = Script([("bash", {"command": "echo old a"}), ("bash", {"command": "echo b"})],
                    ("bash", {"command": "echo c"}), "done")
    agent, _ = agent_for(kernel, script, project)
    assert await _via(entry, agent, "go") == "done"
    assert len(script.requests) == 3
    first, second = hook_log("batch_context")       # one per tool response, none for the text
    assert sorted(c["tool_input"]["command"] for c in first["tool_calls"]) == [
        "echo b", "echo new a"]                     # the input that ran
    assert [c["tool_response"] for c in second["tool_calls"]] == ["c\n"]
    sent = text_of(script.requests[1])
    assert "PostToolBatch hook additional context: the batch returned: " in sent
    assert "the batch returned: c" not in sent
    assert "the batch returned: c" in text_of(script.requests[2])


@pytest.mark.parametrize("status,kind", [(429, "rate_limit"), (529, "overloaded"),
                                         (500, "server_error"), (401, "authentication_failed"),
                                         (400, "invalid_request")])
async def test_stop_failure_hook_receives_the_error(status: int, kind: str, claude: Any,
                                                    project: Path, hook_log: Any) -> None:
    kernel = claude(StopFailure=["failure_log"], Stop=["stop"])
    error = ModelHTTPError(status_code=status, model_name="fake", body={"error": "try later"})
    looking = ModelResponse(parts=[TextPart("looking"), ToolCallPart("bash", {"command": "ls"})])
    script = Script(looking, error, "never")
    agent, _ = agent_for(kernel, script, project)
    with pytest.raises(ModelHTTPError) as caught:   # the error propagates as before
        await agent.run("go")
    assert caught.value is error and len(script.requests) == 2
    [payload] = hook_log("failure_log")
    assert payload["hook_event_name"] == "StopFailure" and payload["error"] == kind
    assert "try later" in payload["error_details"]
    assert payload["last_assistant_message"] == "looking"
    assert hook_log("stop") == []


async def test_stop_failure_matcher_and_errors_that_are_not_the_models(
        claude: Any, project: Path, hook_log: Any) -> None:
    kernel = claude(StopFailure=[("rate", "rate_limit"), ("overload", "overloaded")])
    script = Script(("bash", {"command": "x"}), "never")

    def bash(command: str) -> str:
        """An inner agent's failed request, raised through a tool: not this run's model."""
        raise ModelHTTPError(status_code=429, model_name="inner", body=None)

    agent = Agent(script.model(), tools=[bash], capabilities=[Hookwire(kernel, cwd=str(project))])
    with pytest.raises(ModelHTTPError):
        await agent.run("go")
    assert hook_log() == []
    agent = Agent(Script(ModelHTTPError(status_code=429, model_name="m", body=None)).model(),
                  capabilities=[Hookwire(kernel, cwd=str(project))])
    with pytest.raises(ModelHTTPError):
        await agent.run("go")
    assert [p["mode"] for p in hook_log()] == ["rate"]
    assert "last_assistant_message" not in hook_log()[0]


# -- tool vocabulary (issue 11 acceptance) -------------------------------------------------------

class Workspace:
    """The runtime's own tools, named its way: ``run_shell(cmd)`` and ``write_file(path,
    text)``; both really act in the project."""

    def __init__(self, cwd: Path) -> None:
        self.shell = Shell(cwd)
        self.cwd = cwd

    def tools(self) -> list[Any]:
        def run_shell(cmd: str) -> str:
            """Run a shell command and return its output."""
            return self.shell(cmd)

        def write_file(path: str, text: str) -> str:
            """Write ``text`` to the file at ``path``."""
            (self.cwd / path).write_text(text)
            return f"wrote {len(text)} characters to {path}"

        return [run_shell, write_file]


VOCABULARY_TURNS: tuple[Turn, ...] = (
    ("run_shell", {"cmd": "rm -rf build"}), ("run_shell", {"cmd": "echo old value"}),
    ("write_file", {"path": "notes.txt", "text": "hello"}), "done")


@pytest.mark.parametrize("how", ["code", "hooks_file"])
async def test_mapped_runtime_tools_meet_unmodified_claude_hooks(
        how: str, guarded: Any, map_tools: Any, project: Path, hook_log: Any,
        caplog: pytest.LogCaptureFixture) -> None:
    kernel = guarded()
    map_tools(kernel, how)                              # the only addition
    script = Script(*VOCABULARY_TURNS)
    work = Workspace(project)
    hooks = Hookwire(kernel, cwd=str(project))
    agent = Agent(script.model(), tools=work.tools(), capabilities=[hooks])
    with caplog.at_level("WARNING", logger="hookwire"):
        assert (await agent.run("tidy up")).output == "done"
    # the Bash guard blocked run_shell, and the model saw why
    [blocked] = tool_returns(script.requests[1])
    assert "Blocked: rm -rf is not allowed in this project" in blocked.model_response_str()
    guard = hook_log("guard")
    assert guard[0]["tool_name"] == "Bash"
    assert guard[0]["tool_input"] == {"command": "rm -rf build"}
    # the rewrite's updatedInput.command came back as cmd: the tool ran the rewritten command
    assert work.shell.ran == ["echo new value"]
    assert tool_returns(script.requests[2])[-1].content == "new value\n"
    # the Write hook saw Claude Code's shape
    [write] = hook_log("write")
    assert write["tool_name"] == "Write"
    assert write["tool_input"] == {"file_path": "notes.txt", "content": "hello"}
    assert (project / "notes.txt").read_text() == "hello"
    assert not [p for p in hooks.problems if "run_shell" in p.message]
    assert "run_shell" not in caplog.text


async def test_unmapped_runtime_tools_are_named_in_a_warning(
        guarded: Any, project: Path, hook_log: Any, caplog: pytest.LogCaptureFixture) -> None:
    kernel = guarded()
    script = Script(*VOCABULARY_TURNS)
    work = Workspace(project)
    hooks = Hookwire(kernel, cwd=str(project))
    agent = Agent(script.model(), tools=work.tools(), capabilities=[hooks])
    with caplog.at_level("WARNING", logger="hookwire"):
        await agent.run("tidy up")
    assert hook_log("guard") == [] and hook_log("write") == []   # what the warning is about
    warnings = [r.getMessage() for r in caplog.records
                if r.name.startswith("hookwire") and r.levelname == "WARNING"]
    bash = [w for w in warnings if "'Bash'" in w and "run_shell" in w]
    assert bash, warnings
    assert "host pydantic-ai" in bash[0]
    assert "tools: {run_shell: {as: Bash" in bash[0]             # the mapping that would fix it
    [problem] = [p for p in hooks.problems if "'Bash'" in p.message and "rewrite" in p.message]
    assert str(problem.kind) == "no tool matches" and "run_shell" in str(problem)
    assert any("'Write'" in p.message and "write_file" in p.message for p in hooks.problems)


async def test_hooks_on_events_pydantic_ai_never_emits_are_reported(
        claude: Any, project: Path, caplog: pytest.LogCaptureFixture) -> None:
    kernel = claude(Notification=["note"], PreCompact=["compact"])
    hooks = Hookwire(kernel, cwd=str(project))
    agent = Agent(Script("hi").model(), capabilities=[hooks])
    with caplog.at_level("WARNING", logger="hookwire"):
        await agent.run("go")
    kinds = {(str(p.kind), p.message.split(" hook")[0]) for p in hooks.problems}
    assert kinds == {("not emitted", "claude Notification"), ("not emitted", "claude PreCompact")}
    assert "host pydantic-ai does not emit notification" in caplog.text


# -- MCP tools -----------------------------------------------------------------------------------

@pytest.mark.parametrize("prefix", [None, "fs"])
async def test_mcp_tools_are_seen_as_mcp_server_tool(prefix: str | None, claude: Any,
                                                      project: Path, hook_log: Any) -> None:
    """A tool of an MCP server (a real in-process FastMCP server) is ``mcp__<id>__<tool>`` to
    hooks, whatever name the agent gives it."""
    pytest.importorskip("fastmcp.server")
    from fastmcp import FastMCP
    from pydantic_ai.mcp import MCPToolset

    server = FastMCP("files")

    @server.tool
    def read_notes(topic: str) -> str:
        """Read the notes about a topic."""
        return f"notes about {topic}"

    kernel = claude(PreToolUse=[("mcp", "mcp__files__.*")],
                    PostToolUse=[("mcp_post", "mcp__files__read_notes")])
    toolset: Any = MCPToolset(server, id="files")
    name = "read_notes" if prefix is None else f"{prefix}_read_notes"
    script = Script((name, {"topic": "hooks"}), "done")
    hooks = Hookwire(kernel, cwd=str(project))
    agent = Agent(script.model(), toolsets=[toolset if prefix is None else
                                            toolset.prefixed(prefix)], capabilities=[hooks])
    assert (await agent.run("read")).output == "done"
    [pre] = hook_log("mcp")
    assert pre["tool_name"] == "mcp__files__read_notes" and pre["tool_input"] == {"topic": "hooks"}
    assert hook_log("mcp_post")[0]["tool_name"] == "mcp__files__read_notes"
    assert "notes about hooks" in tool_returns(script.requests[1])[0].model_response_str()
    assert not [p for p in hooks.problems if "mcp__" in p.message]


async def test_mcp_server_without_an_id_is_reported(claude: Any, project: Path, hook_log: Any,
                                                    caplog: pytest.LogCaptureFixture) -> None:
    pytest.importorskip("fastmcp.server")
    from fastmcp import FastMCP
    from pydantic_ai.mcp import MCPToolset

    server = FastMCP("files")

    @server.tool
    def read_notes(topic: str) -> str:
        """Read the notes about a topic."""
        return f"notes about {topic}"

    kernel = claude(PreToolUse=[("mcp", "mcp__files__.*")])
    hooks = Hookwire(kernel, cwd=str(project))
    agent = Agent(Script(("read_notes", {"topic": "x"}), "done").model(),
                  toolsets=[MCPToolset(server)], capabilities=[hooks])
    with caplog.at_level("WARNING", logger="hookwire"):
        await agent.run("read")
    assert hook_log("mcp") == []
    [problem] = [p for p in hooks.problems if "without an `id`" in p.message]
    assert "'read_notes'" in problem.message and "mcp__<server>__read_notes" in problem.message
    assert "without an `id`" in caplog.text
