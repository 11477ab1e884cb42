"""The OpenAI Agents SDK adapter end to end: a real agent, a real ``run_shell`` tool, Claude Code
hooks from ``.claude/settings.json`` run as real processes; only the model is the SDK's own
``ScriptedModel``. No network: tracing is off and the API key is a dummy."""

from __future__ import annotations

import asyncio
import json
import logging
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("agents")

import httpx
import openai
from agents import Agent, Runner, function_tool, set_tracing_disabled
from agents.testing import ScriptedModel, assistant_message, function_call

from hookwire import Answer, Decision, Kernel, Seam, hookimpl
from hookwire.plugins.openai_agents import Hookwire, PromptBlocked, RunHalted, ToolBatchBlocked

pytestmark = pytest.mark.anyio
Call = tuple[str, dict[str, Any]]
Turn = str | Call | list[Call] | Exception


@pytest.fixture(autouse=True)
def offline(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-dummy-never-used")
    set_tracing_disabled(True)
    yield


class Script:
    """A ``ScriptedModel`` fed from short turns: text, one call, parallel calls, an error."""

    def __init__(self, *turns: Turn) -> None:
        self.n = 0
        self.model = ScriptedModel([self._step(t) for t in turns])

    def _step(self, turn: Turn) -> Any:
        if isinstance(turn, Exception):
            return turn
        if isinstance(turn, str):
            return [assistant_message(turn)]
        calls = turn if isinstance(turn, list) else [turn]
        out = []
        for name, args in calls:
            self.n += 1
            out.append(function_call(name, args, call_id=f"call_{self.n}"))
        return out

    @property
    def requests(self) -> list[Any]:
        return [c.input for c in self.model.calls]


class Shell:
    """``run_shell(command)`` (``cmd=True``: ``run_shell(cmd)``, the acceptance test's
    spelling): really runs ``sh -c`` in the project."""

    def __init__(self, cwd: Path, *, cmd: bool = False) -> None:
        self.cwd = cwd
        self.ran: list[str] = []

        @function_tool(name_override="run_shell")
        def run_shell_cmd(cmd: str) -> str:
            """Run a shell command and return its output."""
            return self(cmd)

        @function_tool(name_override="run_shell")
        def run_shell(command: str) -> str:
            """Run a shell command and return its output."""
            return self(command)

        self.tool = run_shell_cmd if cmd else run_shell

    def __call__(self, command: str) -> str:
        self.ran.append(command)
        proc = subprocess.run(["sh", "-c", command], cwd=self.cwd, capture_output=True,
                              text=True, timeout=30)
        return proc.stdout + proc.stderr


def make(script: Script, project: Path, *extra: Any, cmd: bool = False,
         **kwargs: Any) -> tuple[Agent[Any], Shell]:
    shell = Shell(project, cmd=cmd)
    agent = Agent(name="worker", instructions="help", model=script.model,
                  tools=[shell.tool, *extra], **kwargs)
    return agent, shell


def outputs(request: Any) -> dict[str, str]:
    """call_id → the tool output the model saw in that request."""
    return {i["call_id"]: str(i["output"]) for i in request
            if isinstance(i, dict) and i.get("type") == "function_call_output"}


def text_of(request: Any) -> str:
    return json.dumps(request, default=str)


# -- tool_pre ------------------------------------------------------------------------------------

async def test_guard_blocks_rm_rf_and_the_model_sees_why(claude: Any, project: Path,
                                                         hook_log: Any) -> None:
    kernel = claude(PreToolUse=[("guard", "run_shell")])
    script = Script(("run_shell", {"command": "rm -rf build"}), "understood")
    agent, shell = make(script, project)
    with Hookwire(kernel, cwd=str(project)) as hooks:
        result = await hooks.run(agent, "clean up")
    assert shell.ran == [] and result.final_output == "understood"
    assert "Blocked: rm -rf is not allowed" in outputs(script.requests[1])["call_1"]
    [payload] = hook_log("guard")
    assert payload["tool_name"] == "run_shell"
    assert payload["tool_input"] == {"command": "rm -rf build"}
    assert payload["tool_use_id"] == "call_1"


async def test_rewrite_runs_and_invalid_rewrite_is_refused(project: Path) -> None:
    class Rewrite:
        @hookimpl
        def tool_pre(self, event: Any) -> Any:
            cmd = event.tool_input.get("command", "")
            if cmd == "bad":
                return Answer(updated_input={"command": 42})
            return Answer(updated_input={"command": cmd.replace("old", "new")})

    script = Script(("run_shell", {"command": "echo old"}), ("run_shell", {"command": "bad"}),
                    "done")
    agent, shell = make(script, project)
    with Hookwire(Kernel(plugins=[Rewrite()]), cwd=str(project)) as hooks:
        await hooks.run(agent, "go")
    assert shell.ran == ["echo new"]
    assert outputs(script.requests[1])["call_1"] == "new\n"
    assert "rewrote the input of run_shell into an invalid one" in outputs(
        script.requests[2])["call_2"]


# -- ask -----------------------------------------------------------------------------------------

async def test_ask_pauses_with_the_sdk_interruption_and_resumes(claude: Any, project: Path,
                                                               hook_log: Any) -> None:
    kernel = claude(PreToolUse=[("ask", "run_shell")], UserPromptSubmit=["context"])
    script = Script(("run_shell", {"command": "echo sudo ok"}), "done")
    agent, shell = make(script, project)
    with Hookwire(kernel, cwd=str(project)) as hooks:
        first = await hooks.run(agent, "go")
        [item] = first.interruptions
        assert shell.ran == [] and item.tool_name == "run_shell"
        state = first.to_state()
        state.approve(item)
        second = await hooks.run(agent, state)
    assert shell.ran == ["echo sudo ok"] and second.final_output == "done"
    assert len(hook_log("ask")) == 1          # PreToolUse fired once for the call
    assert len(hook_log("context")) == 1      # resuming is not a new user turn


async def test_ask_rejected_through_the_sdk(claude: Any, project: Path) -> None:
    kernel = claude(PreToolUse=[("ask", "run_shell")])
    script = Script(("run_shell", {"command": "echo sudo ok"}), "done")
    agent, shell = make(script, project)
    with Hookwire(kernel, cwd=str(project)) as hooks:
        first = await hooks.run(agent, "go")
        state = first.to_state()
        state.reject(first.interruptions[0], rejection_message="the user said no")
        await hooks.run(agent, state)
    assert shell.ran == []
    assert "the user said no" in outputs(script.requests[1])["call_1"]


@pytest.mark.parametrize("allow", [True, False])
async def test_ask_with_kernel_approval(allow: bool, claude: Any, project: Path) -> None:
    kernel = claude(PreToolUse=[("ask", "run_shell")])
    if allow:
        class Approver:
            @hookimpl
            def approve(self, event: Any) -> Any:
                return Answer(decision=Decision.ALLOW)

        kernel.register(Approver())
    script = Script(("run_shell", {"command": "echo sudo ok"}), "done")
    agent, shell = make(script, project)
    with Hookwire(kernel, cwd=str(project), approval="kernel") as hooks:
        result = await hooks.run(agent, "go")
    assert not result.interruptions
    if allow:
        assert shell.ran == ["echo sudo ok"]
    else:
        assert shell.ran == []
        assert "no approval surface" in outputs(script.requests[1])["call_1"]


# -- prompt, stop, halt --------------------------------------------------------------------------

async def test_prompt_context_is_labelled_and_blocked_prompt_never_reaches_the_model(
        claude: Any, project: Path) -> None:
    kernel = claude(UserPromptSubmit=["context"])
    script = Script("ok")
    agent, _ = make(script, project)
    with Hookwire(kernel, cwd=str(project)) as hooks:
        await hooks.run(agent, "hello")
    [first] = script.requests
    [ctx] = [i for i in first if isinstance(i, dict) and i.get("role") == "system"]
    # Claude Code's wording names the hook event: a hook's context, not the user's words
    assert ctx["content"] == "UserPromptSubmit hook additional context: build id is 4242"

    class Block:
        @hookimpl
        def prompt_submit(self, event: Any) -> Any:
            return Answer(decision=Decision.BLOCK, reason="no secrets in prompts")

    script = Script("never")
    agent, _ = make(script, project)
    with Hookwire(Kernel(plugins=[Block()]), cwd=str(project)) as hooks, \
            pytest.raises(PromptBlocked, match="no secrets"):
        await hooks.run(agent, "my password is hunter2")
    assert script.requests == []


async def test_stop_hook_continues_the_turn_with_feedback(claude: Any, project: Path,
                                                          hook_log: Any) -> None:
    kernel = claude(Stop=["stop"], UserPromptSubmit=["context"])
    script = Script("first", "second", "third")
    agent, _ = make(script, project)
    with Hookwire(kernel, cwd=str(project)) as hooks:
        result = await hooks.run(agent, "work")
    assert result.final_output == "third" and len(script.requests) == 3
    stops = hook_log("stop")
    assert [s["stop_hook_active"] for s in stops] == [False, True, True]
    assert [s["last_assistant_message"] for s in stops] == ["first", "second", "third"]
    assert "not done yet (1)" in text_of(script.requests[1])
    assert "build id is 4242" in text_of(script.requests[2])   # the context stays in history
    assert len(hook_log("context")) == 1                        # one user turn


async def test_stop_block_cap(claude: Any, project: Path,
                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("STOP_BLOCKS", "100")
    kernel = claude(Stop=["stop"])
    script = Script(*[f"t{i}" for i in range(10)])
    agent, _ = make(script, project)
    with Hookwire(kernel, cwd=str(project), max_stop_blocks=3) as hooks:
        result = await hooks.run(agent, "work")
    assert len(script.requests) == 4 and result.final_output == "t3"


async def test_continue_false_on_pre_tool_use_runs_the_tool_then_halts(
        claude: Any, project: Path) -> None:
    kernel = claude(PreToolUse=[("halt", "run_shell")])
    script = Script(("run_shell", {"command": "echo halt now"}), "never")
    agent, shell = make(script, project)
    with Hookwire(kernel, cwd=str(project)) as hooks, \
            pytest.raises(RunHalted, match="the halt hook stopped everything"):
        await hooks.run(agent, "go")
    assert shell.ran == ["echo halt now"] and len(script.requests) == 1


async def test_continue_false_on_prompt_halts_before_the_model(claude: Any,
                                                              project: Path) -> None:
    kernel = claude(UserPromptSubmit=["halt"])
    script = Script("never")
    agent, _ = make(script, project)
    with Hookwire(kernel, cwd=str(project)) as hooks, pytest.raises(RunHalted):
        await hooks.run(agent, "please halt")
    assert script.requests == []


# -- tool_post / tool_failure / tool_batch ------------------------------------------------------

async def test_tool_post_and_failure_hooks_fire(claude: Any, project: Path,
                                                hook_log: Any) -> None:
    kernel = claude(PostToolUse=[("post", "run_shell|boom")],
                    PostToolUseFailure=[("failure", "run_shell|boom")])

    @function_tool
    def boom(x: int) -> str:
        """Always fails."""
        raise RuntimeError("the tool exploded")

    script = Script(("run_shell", {"command": "echo fine"}), ("boom", {"x": 1}), "done")
    agent, _ = make(script, project, boom)
    with Hookwire(kernel, cwd=str(project)) as hooks:
        await hooks.run(agent, "go")
    [post] = hook_log("post")
    assert post["tool_response"] == "fine\n" and post["tool_input"] == {"command": "echo fine"}
    [failure] = hook_log("failure")
    # the error as the model saw it: the SDK's default failure message hides the exception
    assert failure["tool_name"] == "boom"
    assert "An error occurred while running the tool" in failure["error"]


async def test_tool_batch_block_ends_the_run_before_the_next_request(
        claude: Any, project: Path, hook_log: Any) -> None:
    kernel = claude(PostToolBatch=["batch_block"], PreToolUse=[("guard", "run_shell")],
                    Stop=["stop"])
    script = Script([("run_shell", {"command": "echo one"}),
                     ("run_shell", {"command": "rm -rf b"})], "never")
    agent, shell = make(script, project)
    with Hookwire(kernel, cwd=str(project)) as hooks, \
            pytest.raises(ToolBatchBlocked, match=r"enough tools for now \(2 calls\)"):
        await hooks.run(agent, "go")
    assert len(script.requests) == 1 and shell.ran == ["echo one"]
    [batch] = hook_log("batch_block")
    calls = {c["tool_input"]["command"]: c for c in batch["tool_calls"]}
    assert calls["echo one"]["tool_response"] == "one\n"
    assert "Blocked: rm -rf" in calls["rm -rf b"]["tool_response"]
    assert hook_log("stop") == []


async def test_tool_batch_context_reaches_the_next_request(claude: Any, project: Path,
                                                           hook_log: Any) -> None:
    kernel = claude(PostToolBatch=["batch_context"])
    script = Script(("run_shell", {"command": "echo a"}), "done")
    agent, _ = make(script, project)
    with Hookwire(kernel, cwd=str(project)) as hooks:
        await hooks.run(agent, "go")
    assert ("PostToolBatch hook additional context: the batch returned: a"
            in text_of(script.requests[1]))


# -- stop_failure --------------------------------------------------------------------------------

@pytest.mark.parametrize("status,kind", [(429, "rate_limit"), (500, "server_error"),
                                         (401, "authentication_failed")])
async def test_stop_failure_hook_receives_the_error(status: int, kind: str, claude: Any,
                                                    project: Path, hook_log: Any) -> None:
    kernel = claude(StopFailure=["failure_log"], Stop=["stop"])
    response = httpx.Response(status, request=httpx.Request("POST", "http://invalid.test"))
    error = openai.APIStatusError("try later", response=response, body=None)
    script = Script(("run_shell", {"command": "echo x"}), error)
    agent, _ = make(script, project)
    with Hookwire(kernel, cwd=str(project)) as hooks, pytest.raises(openai.APIStatusError):
        await hooks.run(agent, "go")
    [payload] = hook_log("failure_log")
    assert payload["error"] == kind and "try later" in payload["error_details"]
    assert hook_log("stop") == []


# -- exactly once --------------------------------------------------------------------------------

async def test_prompt_submit_once_per_turn_nested_run_in_a_tool_does_not_fire(
        claude: Any, project: Path, hook_log: Any) -> None:
    kernel = claude(UserPromptSubmit=["context"], Stop=["stop"],
                    PreToolUse=[("pre", "inner_tool")])
    monkey = pytest.MonkeyPatch()
    monkey.setenv("STOP_BLOCKS", "0")
    inner_script = Script("inner answer")
    inner = Agent(name="inner", model=inner_script.model)
    hooks = Hookwire(kernel, cwd=str(project))

    @function_tool
    async def delegate(task: str) -> str:
        """Ask the inner agent."""
        return str((await hooks.run(inner, task)).final_output)

    script = Script(("delegate", {"task": "x"}), "outer answer", "second turn")
    agent, _ = make(script, project, delegate)
    with hooks:
        assert (await hooks.run(agent, "outer prompt")).final_output == "outer answer"
        assert (await hooks.run(agent, "again")).final_output == "second turn"
    monkey.undo()
    assert [p["prompt"] for p in hook_log("context")] == ["outer prompt", "again"]
    assert [s["last_assistant_message"] for s in hook_log("stop")] == [
        "outer answer", "second turn"]            # no Stop for the inner run


@pytest.fixture
def fresh_loop() -> Iterator[None]:
    """run_sync sets an event loop on the thread and leaves it open: close it afterwards."""
    yield
    loop = asyncio.get_event_loop_policy().get_event_loop()
    loop.close()
    asyncio.set_event_loop(None)


def test_run_sync_fires_once_and_shares_the_session(claude: Any, project: Path,
                                                    hook_log: Any, fresh_loop: None) -> None:
    kernel = claude(UserPromptSubmit=["context"], SessionStart=["start"], SessionEnd=["end"])
    script = Script(("run_shell", {"command": "echo 1"}), "one", "two")
    agent, _ = make(script, project)
    with Hookwire(kernel, cwd=str(project)) as hooks:
        assert hooks.run_sync(agent, "sync one").final_output == "one"
        assert hooks.run_sync(agent, "sync two").final_output == "two"
    assert [p["prompt"] for p in hook_log("context")] == ["sync one", "sync two"]
    assert len(hook_log("start")) == 1 and len(hook_log("end")) == 1
    assert len({p["session_id"] for p in hook_log()}) == 1


async def test_run_streamed_fires_prompt_once_and_stop_observes(
        claude: Any, project: Path, hook_log: Any, caplog: pytest.LogCaptureFixture) -> None:
    kernel = claude(UserPromptSubmit=["context"], Stop=["stop"],
                    PreToolUse=[("guard", "run_shell")])
    script = Script(("run_shell", {"command": "rm -rf x"}), "streamed")
    agent, shell = make(script, project)
    with Hookwire(kernel, cwd=str(project)) as hooks:
        streamed = hooks.run_streamed(agent, "stream it")
        async for _event in streamed.stream_events():
            pass
    assert streamed.final_output == "streamed" and shell.ran == []
    assert len(hook_log("context")) == 1 and len(hook_log("stop")) == 1
    assert "run_streamed() cannot" in caplog.text


def test_host_profile_is_declared_through_the_entry_point() -> None:
    profile = Kernel().hosts["openai-agents"]
    assert profile.emits(Seam.TOOL_PRE) and profile.emits(Seam.STOP)
    assert profile.emits(Seam.TOOL_BATCH) and profile.emits(Seam.STOP_FAILURE)
    assert not profile.emits(Seam.PRE_COMPACT) and Seam.PRE_COMPACT in profile.missing


async def test_hooks_run_through_plain_runner_are_untouched(project: Path) -> None:
    """An instrumented agent run by ``Runner.run`` directly runs its tools as before."""
    script = Script(("run_shell", {"command": "echo plain"}), "done")
    agent, shell = make(script, project)
    hooks = Hookwire(Kernel(load_entry_points=False), cwd=str(project))
    result = await Runner.run(hooks.instrument(agent), "go")
    assert result.final_output == "done" and shell.ran == ["echo plain"]


async def test_codex_guard_blocks_too(codex: Any, project: Path) -> None:
    kernel = codex(PreToolUse=[("guard", "^run_shell$")])
    script = Script(("run_shell", {"command": "rm -rf build"}), "ok")
    agent, shell = make(script, project)
    with Hookwire(kernel, cwd=str(project)) as hooks:
        await hooks.run(agent, "go")
    assert shell.ran == []
    assert "Blocked: rm -rf" in outputs(script.requests[1])["call_1"]


# -- tool vocabulary: the user's unmodified Claude Code hooks, a runtime with its own names ------

MAPPING = {"run_shell": {"as": "Bash", "input": {"command": "cmd"}},
           "write_file": {"as": "Write", "input": {"file_path": "path", "content": "text"}}}


def vocabulary_agent(script: Script, project: Path) -> tuple[Agent[Any], Shell, list[str]]:
    written: list[str] = []

    @function_tool
    def write_file(path: str, text: str) -> str:
        """Write a file."""
        (project / path).write_text(text)
        written.append(path)
        return "ok"

    agent, shell = make(script, project, write_file, cmd=True)
    return agent, shell, written


def user_settings(claude: Any) -> Kernel:
    """``.claude/settings.json`` as a Claude Code user wrote it: ``Bash`` and ``Write``."""
    kernel: Kernel = claude(PreToolUse=[("guard", "Bash"), ("rewrite", "Bash"),
                                        ("write", "Write")])
    return kernel


async def test_claude_bash_guard_on_run_shell_through_a_tools_mapping(
        claude: Any, project: Path, hook_log: Any, caplog: pytest.LogCaptureFixture) -> None:
    kernel = user_settings(claude)
    kernel.map_tools(MAPPING)                       # the only addition
    script = Script(("run_shell", {"cmd": "rm -rf build"}),
                    ("run_shell", {"cmd": "echo old value"}),
                    ("write_file", {"path": "notes.txt", "text": "hi"}), "done")
    agent, shell, written = vocabulary_agent(script, project)
    with caplog.at_level(logging.WARNING, logger="hookwire"), \
            Hookwire(kernel, cwd=str(project)) as hooks:
        result = await hooks.run(agent, "tidy up")
        assert hooks.problems == ()
    assert result.final_output == "done"
    # the guard blocked and the model saw its reason as the tool result
    assert "Blocked: rm -rf is not allowed" in outputs(script.requests[1])["call_1"]
    # the rewrite (updatedInput.command) came back as cmd and is what ran
    assert shell.ran == ["echo new value"]
    assert outputs(script.requests[2])["call_2"] == "new value\n"
    assert written == ["notes.txt"]
    guard = hook_log("guard")
    assert [g["tool_name"] for g in guard] == ["Bash", "Bash"]
    assert guard[0]["tool_input"] == {"command": "rm -rf build"}
    [write] = hook_log("write")
    assert write["tool_name"] == "Write"
    assert write["tool_input"] == {"file_path": "notes.txt", "content": "hi"}
    assert "can match none" not in caplog.text


async def test_without_the_mapping_the_bash_matcher_is_reported(
        claude: Any, project: Path, hook_log: Any, caplog: pytest.LogCaptureFixture) -> None:
    kernel = user_settings(claude)
    script = Script(("run_shell", {"cmd": "echo hi"}), "done")
    agent, shell, _ = vocabulary_agent(script, project)
    with caplog.at_level(logging.WARNING, logger="hookwire"), \
            Hookwire(kernel, cwd=str(project)) as hooks:
        await hooks.run(agent, "go")
        problems = hooks.problems
    assert shell.ran == ["echo hi"] and hook_log("guard") == []   # silently nothing, but…
    bash = [r for r in caplog.records if r.name == "hookwire" and "'Bash'" in r.getMessage()]
    assert bash and "run_shell" in bash[0].getMessage()           # …said loudly
    assert any("Bash" in str(p) and "run_shell" in str(p) for p in problems)


async def test_mcp_tools_get_mcp_names(claude: Any, project: Path, hook_log: Any) -> None:
    """An MCP server's tool is ``mcp__<server>__<tool>`` to hooks (no network: an in-process
    server object)."""
    from agents.mcp import MCPServer
    from mcp.types import CallToolResult, TextContent, Tool

    class Files(MCPServer):
        def __init__(self) -> None:
            super().__init__()
            self.calls: list[dict[str, Any]] = []

        @property
        def name(self) -> str:
            return "files"

        async def connect(self) -> None: ...

        async def cleanup(self) -> None: ...

        async def list_tools(self, run_context: Any = None, agent: Any = None) -> list[Tool]:
            return [Tool(name="read", description="Read a file", inputSchema={
                "type": "object", "properties": {"path": {"type": "string"}},
                "required": ["path"]})]

        async def call_tool(self, tool_name: str, arguments: dict[str, Any] | None,
                            meta: Any = None) -> CallToolResult:
            self.calls.append(arguments or {})
            return CallToolResult(content=[TextContent(type="text", text="contents")])

        async def list_prompts(self) -> Any:
            raise NotImplementedError

        async def get_prompt(self, name: str, arguments: Any = None) -> Any:
            raise NotImplementedError

    kernel = claude(PreToolUse=[("mcp", "mcp__files__.*")])
    server = Files()
    script = Script(("read", {"path": "a.txt"}), "done")
    agent = Agent(name="worker", model=script.model, mcp_servers=[server])
    with Hookwire(kernel, cwd=str(project)) as hooks:
        await hooks.run(agent, "go")
    assert server.calls == [{"path": "a.txt"}]
    [payload] = hook_log("mcp")
    assert payload["tool_name"] == "mcp__files__read"
    assert payload["tool_input"] == {"path": "a.txt"}
