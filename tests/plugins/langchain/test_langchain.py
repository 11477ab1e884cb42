"""The LangChain adapter end to end: ``create_agent`` with a real ``bash`` tool, Claude Code
hooks from ``.claude/settings.json`` run as real processes; only the model is faked
(``GenericFakeChatModel`` with a ``bind_tools`` shim)."""

from __future__ import annotations

import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("langchain.agents")

from langchain.agents import create_agent
from langchain.agents.middleware import ModelRetryMiddleware
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import (
    AIMessage,
    BaseMessage,
    HumanMessage,
    SystemMessage,
    ToolMessage,
)
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.tools import tool
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.types import Command
from pydantic import Field

from hookwire import Answer, Decision, Kernel, Seam, hookimpl
from hookwire.plugins.langchain import HookwireMiddleware, PromptBlocked, RunHalted

pytestmark = pytest.mark.anyio
Call = tuple[str, dict[str, Any]]
Turn = str | Call | list[Call] | AIMessage | Exception


class FakeModel(GenericFakeChatModel):
    """A scripted chat model that records every request (failed attempts included);
    ``bind_tools`` is a no-op shim so ``create_agent`` can hand it the tools."""

    turns: list[Any] = Field(default_factory=list)
    requests: list[list[BaseMessage]] = Field(default_factory=list)

    def bind_tools(self, tools: Any, **kwargs: Any) -> FakeModel:
        return self

    def _generate(self, messages: list[BaseMessage], stop: Any = None, run_manager: Any = None,
                  **kwargs: Any) -> ChatResult:
        self.requests.append(list(messages))
        turn = self.turns.pop(0)
        if isinstance(turn, Exception):
            raise turn
        return ChatResult(generations=[ChatGeneration(message=turn)])


def script(*turns: Turn) -> FakeModel:
    messages: list[Any] = []
    for i, turn in enumerate(turns):
        if isinstance(turn, Exception | AIMessage):
            messages.append(turn)
        elif isinstance(turn, str):
            messages.append(AIMessage(content=turn))
        else:
            calls = turn if isinstance(turn, list) else [turn]
            messages.append(AIMessage(content="", tool_calls=[
                {"name": name, "args": args, "id": f"call_{i}_{j}", "type": "tool_call"}
                for j, (name, args) in enumerate(calls)]))
    return FakeModel(messages=iter(()), turns=messages)


class Shell:
    def __init__(self, cwd: Path) -> None:
        self.cwd = cwd
        self.ran: list[str] = []

    def tool(self) -> Any:
        @tool
        def bash(command: str) -> str:
            """Run a shell command and return its output."""
            self.ran.append(command)
            proc = subprocess.run(["sh", "-c", command], cwd=self.cwd, capture_output=True,
                                  text=True, timeout=30)
            return proc.stdout + proc.stderr

        return bash


@pytest.fixture
def middleware() -> Iterator[list[HookwireMiddleware]]:
    made: list[HookwireMiddleware] = []
    yield made
    for mw in made:
        mw.close()


@pytest.fixture
def agent_for(project: Path, middleware: list[HookwireMiddleware]) -> Any:
    def make(kernel: Kernel, model: FakeModel, *, extra: tuple[Any, ...] = (),
             **kwargs: Any) -> tuple[Any, Shell, HookwireMiddleware]:
        shell = Shell(project)
        mw = HookwireMiddleware(kernel, cwd=str(project), **kwargs.pop("hookwire", {}))
        middleware.append(mw)
        agent = create_agent(model, tools=[shell.tool()], middleware=[mw, *extra], **kwargs)
        return agent, shell, mw

    return make


def ask(prompt: str) -> dict[str, Any]:
    return {"messages": [HumanMessage(prompt)]}


def tool_messages(messages: list[BaseMessage]) -> list[ToolMessage]:
    return [m for m in messages if isinstance(m, ToolMessage)]


# -- tool_pre ------------------------------------------------------------------------------------

def test_guard_blocks_rm_rf_and_the_model_sees_why(claude: Any, agent_for: Any,
                                                   hook_log: Any) -> None:
    kernel = claude(PreToolUse=[("guard", "bash")])
    model = script(("bash", {"command": "rm -rf build"}), "understood")
    agent, shell, _ = agent_for(kernel, model)
    out = agent.invoke(ask("clean up"))
    assert shell.ran == [] and out["messages"][-1].content == "understood"
    [msg] = tool_messages(model.requests[1])
    assert msg.status == "error"
    assert "Blocked: rm -rf is not allowed in this project" in msg.content
    [payload] = hook_log("guard")
    assert payload["tool_input"] == {"command": "rm -rf build"}


def test_rewritten_command_is_what_runs(claude: Any, agent_for: Any) -> None:
    kernel = claude(PreToolUse=[("rewrite", "bash")])
    model = script(("bash", {"command": "echo old value"}), "done")
    agent, shell, _ = agent_for(kernel, model)
    agent.invoke(ask("go"))
    assert shell.ran == ["echo new value"]
    assert tool_messages(model.requests[1])[0].content == "new value\n"


def test_invalid_rewrite_is_refused_by_the_tool_schema(project: Path, agent_for: Any) -> None:
    class BadRewrite:
        @hookimpl
        def tool_pre(self, event: Any) -> Any:
            return Answer(updated_input={"cmd": "echo hi"})

    model = script(("bash", {"command": "echo hi"}), "ok")
    agent, shell, _ = agent_for(Kernel(plugins=[BadRewrite()]), model)
    agent.invoke(ask("go"))
    assert shell.ran == []
    [msg] = tool_messages(model.requests[1])
    assert msg.status == "error" and "command" in msg.content


# -- ask -----------------------------------------------------------------------------------------

@pytest.mark.parametrize("decision,ran", [({"type": "approve"}, ["echo sudo ok"]),
                                          ({"type": "reject", "message": "the user said no"}, [])])
def test_ask_interrupts_for_a_human(claude: Any, agent_for: Any, hook_log: Any,
                                    decision: dict[str, Any], ran: list[str]) -> None:
    kernel = claude(PreToolUse=[("ask", "bash")], UserPromptSubmit=["context"])
    model = script(("bash", {"command": "echo sudo ok"}), "done")
    agent, shell, _ = agent_for(kernel, model, checkpointer=InMemorySaver())
    config = {"configurable": {"thread_id": "t1"}}
    first = agent.invoke(ask("go"), config)
    [pending] = first["__interrupt__"]
    assert pending.value["action_requests"][0]["description"] == "sudo needs a human"
    assert shell.ran == []
    out = agent.invoke(Command(resume={"decisions": [decision]}), config)
    assert shell.ran == ran and out["messages"][-1].content == "done"
    assert len(hook_log("ask")) == 1                    # the resumed node reused the verdict
    assert len(hook_log("context")) == 1                # resuming is not a new user turn
    if not ran:
        assert "the user said no" in tool_messages(model.requests[1])[0].content


def test_ask_without_checkpointer_uses_the_kernel_approve_seam(claude: Any,
                                                               agent_for: Any) -> None:
    kernel = claude(PreToolUse=[("ask", "bash")])

    class Approver:
        @hookimpl
        def approve(self, event: Any) -> Any:
            return Answer(decision=Decision.ALLOW)

    kernel.register(Approver())
    model = script(("bash", {"command": "echo sudo ok"}), "done")
    agent, shell, _ = agent_for(kernel, model)
    agent.invoke(ask("go"))
    assert shell.ran == ["echo sudo ok"]


def test_ask_with_no_approval_surface_is_denied(claude: Any, agent_for: Any) -> None:
    kernel = claude(PreToolUse=[("ask", "bash")])
    model = script(("bash", {"command": "echo sudo ok"}), "done")
    agent, shell, _ = agent_for(kernel, model)
    agent.invoke(ask("go"))
    assert shell.ran == []
    assert "no approval surface" in tool_messages(model.requests[1])[0].content


# -- prompt_submit, stop, halt --------------------------------------------------------------------

def test_prompt_context_reaches_the_model_labelled(claude: Any, agent_for: Any) -> None:
    kernel = claude(UserPromptSubmit=["context"])
    model = script("hello")
    agent, _, _ = agent_for(kernel, model)
    agent.invoke(ask("what is the build id?"))
    [request] = model.requests
    [human] = [m for m in request if isinstance(m, HumanMessage)]
    assert human.content == "what is the build id?"       # the user's words are untouched
    [system] = [m for m in request if isinstance(m, SystemMessage) and "4242" in m.content]
    assert system.content == "UserPromptSubmit hook additional context: build id is 4242"
    assert system.additional_kwargs["hookwire_source"].startswith("claude:UserPromptSubmit hook")


def test_stop_hook_forces_exactly_n_more_turns(claude: Any, agent_for: Any, hook_log: Any,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("STOP_BLOCKS", "2")
    kernel = claude(Stop=["stop"])
    model = script("first", "second", "third", "never")
    agent, _, _ = agent_for(kernel, model)
    out = agent.invoke(ask("work"))
    assert out["messages"][-1].content == "third" and len(model.requests) == 3
    stops = hook_log("stop")
    assert [s["stop_hook_active"] for s in stops] == [False, True, True]
    assert [s["last_assistant_message"] for s in stops] == ["first", "second", "third"]
    assert any("not done yet (1)" in str(m.content) for m in model.requests[1])


def test_stop_block_cap_is_honoured(claude: Any, agent_for: Any,
                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("STOP_BLOCKS", "100")
    kernel = claude(Stop=["stop"])
    model = script(*[f"t{i}" for i in range(10)])
    agent, _, _ = agent_for(kernel, model, hookwire={"max_stop_blocks": 3})
    out = agent.invoke(ask("work"))
    assert len(model.requests) == 4 and out["messages"][-1].content == "t3"


def test_continue_false_on_prompt_halts_before_the_model(claude: Any, agent_for: Any) -> None:
    kernel = claude(UserPromptSubmit=["halt"])
    model = script("never")
    agent, _, _ = agent_for(kernel, model)
    with pytest.raises(RunHalted, match="the halt hook stopped everything"):
        agent.invoke(ask("please halt"))
    assert model.requests == []


def test_continue_false_after_a_tool_halts_the_run(claude: Any, agent_for: Any) -> None:
    kernel = claude(PostToolUse=[("halt", "bash")])
    model = script(("bash", {"command": "echo halt now"}), "never")
    agent, shell, _ = agent_for(kernel, model)
    with pytest.raises(RunHalted):
        agent.invoke(ask("go"))
    assert shell.ran == ["echo halt now"] and len(model.requests) == 1


@pytest.mark.parametrize("entry", ["invoke", "ainvoke"])
async def test_continue_false_before_a_tool_lets_it_run_then_halts(
        entry: str, claude: Any, agent_for: Any, hook_log: Any) -> None:
    """Claude Code: ``continue: false`` on PreToolUse does not refuse the tool; the tool runs
    (its PostToolUse fires) and the run stops before the next model request."""
    kernel = claude(PreToolUse=[("halt", "bash")], PostToolUse=[("post", "bash")])
    model = script(("bash", {"command": "echo halt now"}), "never")
    agent, shell, _ = agent_for(kernel, model)
    with pytest.raises(RunHalted, match="the halt hook stopped everything"):
        await _run(entry, agent, ask("go"))
    assert shell.ran == ["echo halt now"] and len(model.requests) == 1
    [post] = hook_log("post")
    assert post["tool_response"] == "halt now\n"


def test_continue_false_with_deny_before_a_tool_refuses_it_and_halts(
        claude: Any, agent_for: Any) -> None:
    kernel = claude(PreToolUse=[("deny_halt", "bash")])
    model = script(("bash", {"command": "echo halt now"}), "never")
    agent, shell, _ = agent_for(kernel, model)
    with pytest.raises(RunHalted, match="the deny_halt hook stopped everything"):
        agent.invoke(ask("go"))
    assert shell.ran == [] and len(model.requests) == 1


def test_blocked_prompt_never_reaches_the_model(agent_for: Any) -> None:
    class Block:
        @hookimpl
        def prompt_submit(self, event: Any) -> Any:
            return Answer(decision=Decision.BLOCK, reason="no secrets in prompts")

    model = script("never")
    agent, _, _ = agent_for(Kernel(plugins=[Block()]), model)
    with pytest.raises(PromptBlocked, match="no secrets"):
        agent.invoke(ask("my password is hunter2"))
    assert model.requests == []


# -- failure policy, tool_post / tool_failure ----------------------------------------------------

def test_hook_timeout_follows_claude_failure_policy(claude: Any, agent_for: Any) -> None:
    """Claude Code: a PreToolUse hook that times out is a non-blocking error; the tool runs."""
    kernel = claude(PreToolUse=[("slow", "bash", 1)])
    model = script(("bash", {"command": "echo ran"}), "done")
    agent, shell, _ = agent_for(kernel, model)
    started = time.monotonic()
    agent.invoke(ask("go"))
    assert time.monotonic() - started < 10 and shell.ran == ["echo ran"]


def test_tool_post_and_failure_hooks_fire(claude: Any, agent_for: Any, hook_log: Any) -> None:
    kernel = claude(PostToolUse=[("post", "bash")], PostToolUseFailure=[("failure", "bash")])
    model = script(("bash", {"command": "echo fine"}), ("bash", {"command": 42}), "done")
    agent, _, _ = agent_for(kernel, model)
    agent.invoke(ask("go"))
    [post] = hook_log("post")
    assert post["tool_response"] == "fine\n" and post["tool_input"] == {"command": "echo fine"}
    [failure] = hook_log("failure")
    assert failure["tool_input"] == {"command": 42} and "command" in failure["error"]


# -- exactly once ---------------------------------------------------------------------------------

def flaky(claude: Any, agent_for: Any) -> tuple[Any, FakeModel]:
    """A run with internal turns: a failed model call retried by ModelRetryMiddleware, an
    invalid tool call the model must redo, and a tool follow-up."""
    kernel = claude(UserPromptSubmit=["context"])
    model = script(("bash", {"command": 1}), ConnectionError("flaky network"),
                   ("bash", {"command": "echo 2"}), "good output", "second")
    retry = ModelRetryMiddleware(max_retries=2, initial_delay=0, jitter=False)
    agent, _, _ = agent_for(kernel, model, extra=(retry,))
    return agent, model


def _last_text(chunks: list[Any]) -> str:
    texts = [m.content for c in chunks for v in c.values() if isinstance(v, dict)
             for m in v.get("messages", []) if isinstance(m, AIMessage) and m.content]
    return str(texts[-1])


@pytest.mark.parametrize("entry", ["invoke", "stream"])
def test_prompt_submit_once_per_run_sync(entry: str, claude: Any, agent_for: Any,
                                         hook_log: Any) -> None:
    agent, model = flaky(claude, agent_for)
    for prompt, expected in (("first", "good output"), ("second", "second")):
        if entry == "invoke":
            assert agent.invoke(ask(prompt))["messages"][-1].content == expected
        else:
            assert _last_text(list(agent.stream(ask(prompt)))) == expected
    assert [p["prompt"] for p in hook_log("context")] == ["first", "second"]
    # first: invalid call, failed call, its retry, follow-up; second: one request
    assert len(model.requests) == 5


@pytest.mark.parametrize("entry", ["ainvoke", "astream"])
async def test_prompt_submit_once_per_run_async(entry: str, claude: Any, agent_for: Any,
                                                hook_log: Any) -> None:
    agent, model = flaky(claude, agent_for)
    for prompt, expected in (("first", "good output"), ("second", "second")):
        if entry == "ainvoke":
            assert (await agent.ainvoke(ask(prompt)))["messages"][-1].content == expected
        else:
            assert _last_text([c async for c in agent.astream(ask(prompt))]) == expected
    assert len(model.requests) == 5
    assert [p["prompt"] for p in hook_log("context")] == ["first", "second"]


def test_nested_agent_inside_a_tool_does_not_fire_again(claude: Any, project: Path,
                                                        middleware: list[Any],
                                                        hook_log: Any) -> None:
    kernel = claude(UserPromptSubmit=["context"])
    mw = HookwireMiddleware(kernel, cwd=str(project))
    middleware.append(mw)
    inner = create_agent(script("inner"), tools=[], middleware=[mw])

    @tool
    def delegate(task: str) -> str:
        """Ask the inner agent."""
        return str(inner.invoke(ask(task))["messages"][-1].content)

    outer = create_agent(script(("delegate", {"task": "x"}), "outer"), tools=[delegate],
                         middleware=[mw])
    assert outer.invoke(ask("outer prompt"))["messages"][-1].content == "outer"
    assert [p["prompt"] for p in hook_log("context")] == ["outer prompt"]


async def test_nested_async_agent_is_part_of_the_tool_call(
        claude: Any, project: Path, middleware: list[Any], hook_log: Any,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """An agent awaited inside an async tool fires no UserPromptSubmit and no Stop of its own;
    the hooks of its tools still fire."""
    monkeypatch.setenv("STOP_BLOCKS", "0")
    kernel = claude(UserPromptSubmit=["context"], Stop=["stop"], PreToolUse=[("guard", "bash")])
    mw = HookwireMiddleware(kernel, cwd=str(project))
    middleware.append(mw)
    shell = Shell(project)
    inner = create_agent(script(("bash", {"command": "rm -rf inner"}), "inner done"),
                         tools=[shell.tool()], middleware=[mw])

    @tool
    async def delegate(task: str) -> str:
        """Ask the inner agent."""
        return str((await inner.ainvoke(ask(task)))["messages"][-1].content)

    model = script(("delegate", {"task": "x"}), "outer done")
    outer = create_agent(model, tools=[delegate], middleware=[mw])
    out = await outer.ainvoke(ask("outer prompt"))
    assert out["messages"][-1].content == "outer done"
    assert tool_messages(model.requests[1])[0].content == "inner done"
    assert [p["prompt"] for p in hook_log("context")] == ["outer prompt"]
    assert [p["last_assistant_message"] for p in hook_log("stop")] == ["outer done"]
    assert shell.ran == [] and len(hook_log("guard")) == 1


def test_agent_as_a_node_of_a_larger_graph_fires_its_prompt(
        claude: Any, project: Path, middleware: list[Any], hook_log: Any,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """An agent run as a node of the user's own graph is not nested in a tool: its prompt is
    a user turn (its checkpoint namespace is nested all the same)."""
    from langgraph.graph import START, MessagesState, StateGraph

    monkeypatch.setenv("STOP_BLOCKS", "0")
    kernel = claude(UserPromptSubmit=["context"], Stop=["stop"])
    mw = HookwireMiddleware(kernel, cwd=str(project))
    middleware.append(mw)
    agent = create_agent(script("from the node"), tools=[], middleware=[mw])
    graph = StateGraph(MessagesState)
    graph.add_node("agent", agent)
    graph.add_edge(START, "agent")
    out = graph.compile().invoke(ask("graph prompt"))
    assert out["messages"][-1].content == "from the node"
    assert [p["prompt"] for p in hook_log("context")] == ["graph prompt"]
    assert len(hook_log("stop")) == 1


def test_codex_guard_blocks_rm_rf_too(codex: Any, agent_for: Any, hook_log: Any) -> None:
    kernel = codex(PreToolUse=[("guard", "^bash$")])
    model = script(("bash", {"command": "rm -rf build"}), "understood")
    agent, shell, _ = agent_for(kernel, model)
    agent.invoke(ask("clean up"))
    assert shell.ran == []
    [msg] = tool_messages(model.requests[1])
    assert "Blocked: rm -rf is not allowed in this project" in msg.content
    assert hook_log("guard")[0]["hook_event_name"] == "PreToolUse"


def test_host_profile_is_declared_through_the_entry_point() -> None:
    profile = Kernel().hosts["langchain"]
    assert profile.emits(Seam.PROMPT_SUBMIT) and profile.emits(Seam.APPROVE)
    assert profile.emits(Seam.TOOL_BATCH) and profile.emits(Seam.STOP_FAILURE)
    assert profile.emits(Seam.SUBAGENT_STOP)  # an agent invoked inside a guarded tool
    assert not profile.emits(Seam.PRE_COMPACT) and Seam.PRE_COMPACT in profile.missing


async def test_ask_interrupts_on_the_async_path_too(claude: Any, agent_for: Any) -> None:
    kernel = claude(PreToolUse=[("ask", "bash")])
    model = script(("bash", {"command": "echo sudo ok"}), "done")
    agent, shell, _ = agent_for(kernel, model, checkpointer=InMemorySaver())
    config = {"configurable": {"thread_id": "t2"}}
    first = await agent.ainvoke(ask("go"), config)
    assert first["__interrupt__"] and shell.ran == []
    edited = {"type": "edit", "edited_action": {"name": "bash", "args": {"command": "echo edited"}}}
    out = await agent.ainvoke(Command(resume={"decisions": [edited]}), config)
    assert shell.ran == ["echo edited"] and out["messages"][-1].content == "done"


# -- tool_batch, stop_failure ---------------------------------------------------------------------

async def _run(entry: str, agent: Any, payload: Any) -> list[BaseMessage]:
    """The final messages of one run, whichever entry point drives it."""
    if entry == "invoke":
        return list(agent.invoke(payload)["messages"])
    if entry == "ainvoke":
        return list((await agent.ainvoke(payload))["messages"])
    if entry == "stream":
        return list([c for c in agent.stream(payload, stream_mode="values")][-1]["messages"])
    if entry == "astream":
        chunks = [c async for c in agent.astream(payload, stream_mode="values")]
        return list(chunks[-1]["messages"])
    raise AssertionError(entry)


@pytest.mark.parametrize("entry", ["invoke", "ainvoke"])
async def test_tool_batch_block_ends_the_loop_before_the_next_model_request(
        entry: str, claude: Any, agent_for: Any, hook_log: Any) -> None:
    kernel = claude(PostToolBatch=["batch_block"], PreToolUse=[("guard", "bash")], Stop=["stop"])
    model = script([("bash", {"command": "echo one"}), ("bash", {"command": "rm -rf build"})],
                   "never")
    agent, shell, _ = agent_for(kernel, model)
    messages = await _run(entry, agent, ask("go"))
    assert len(model.requests) == 1                 # the model was not asked again
    assert shell.ran == ["echo one"]
    last = messages[-1]                             # the reason stays in the conversation
    assert isinstance(last, SystemMessage)
    assert last.content == "enough tools for now (2 calls)"  # Claude Code's run result
    assert last.additional_kwargs["hookwire_source"].startswith("claude:PostToolBatch hook")
    [batch] = hook_log("batch_block")               # once, for the whole response
    calls = {c["tool_input"]["command"]: c for c in batch["tool_calls"]}
    assert set(calls) == {"echo one", "rm -rf build"}
    assert calls["echo one"]["tool_response"] == "one\n"
    assert "Blocked: rm -rf is not allowed" in calls["rm -rf build"]["tool_response"]
    assert [c["tool_use_id"] for c in batch["tool_calls"]] == ["call_0_0", "call_0_1"]
    assert hook_log("stop") == []                   # the loop ended: no stop


@pytest.mark.parametrize("entry", ["invoke", "stream", "ainvoke", "astream"])
async def test_tool_batch_context_reaches_the_next_request_labelled(
        entry: str, claude: Any, agent_for: Any, hook_log: Any) -> None:
    kernel = claude(PostToolBatch=["batch_context"], PreToolUse=[("rewrite", "bash")])
    model = script([("bash", {"command": "echo old a"}), ("bash", {"command": "echo b"})],
                   ("bash", {"command": "echo c"}), "done")
    agent, _, _ = agent_for(kernel, model)
    messages = await _run(entry, agent, ask("go"))
    assert messages[-1].content == "done" and len(model.requests) == 3
    first, second = hook_log("batch_context")       # one per tool response, none for the text
    assert [c["tool_input"]["command"] for c in first["tool_calls"]] == ["echo new a", "echo b"]
    assert [c["tool_response"] for c in second["tool_calls"]] == ["c\n"]
    [context] = [m for m in model.requests[1]
                 if isinstance(m, SystemMessage) and "the batch returned" in m.content]
    assert context.content == "PostToolBatch hook additional context: the batch returned: new a,b"
    assert context.additional_kwargs["hookwire_source"].startswith("claude:PostToolBatch hook")
    assert any("the batch returned: c" in str(m.content) for m in model.requests[2])


class APIStatusError(Exception):
    """What provider SDKs raise: an HTTP status on the exception."""

    def __init__(self, status_code: int, message: str) -> None:
        super().__init__(message)
        self.status_code = status_code


@pytest.mark.parametrize("error,kind", [
    (APIStatusError(429, "slow down"), "rate_limit"), (APIStatusError(529, "busy"), "overloaded"),
    (APIStatusError(502, "bad gateway"), "server_error"),
    (APIStatusError(401, "bad key"), "authentication_failed"),
    (APIStatusError(400, "bad request"), "invalid_request"),
    (RuntimeError("socket closed"), "unknown")])
def test_stop_failure_hook_receives_the_error(error: Exception, kind: str, claude: Any,
                                              agent_for: Any, hook_log: Any) -> None:
    kernel = claude(StopFailure=["failure_log"], Stop=["stop"])
    model = script(AIMessage(content="looking", tool_calls=[
        {"name": "bash", "args": {"command": "ls"}, "id": "c1", "type": "tool_call"}]),
        error, "never")
    agent, _, _ = agent_for(kernel, model)
    with pytest.raises(type(error)) as caught:      # the error propagates as before
        agent.invoke(ask("go"))
    assert caught.value is error and len(model.requests) == 2
    [payload] = hook_log("failure_log")
    assert payload["hook_event_name"] == "StopFailure" and payload["error"] == kind
    assert str(error) in payload["error_details"]
    assert payload["last_assistant_message"] == "looking"
    assert hook_log("stop") == []


async def test_stop_failure_fires_once_after_langchain_retries(claude: Any, agent_for: Any,
                                                               hook_log: Any) -> None:
    kernel = claude(StopFailure=[("rate", "rate_limit"), ("overload", "overloaded")])
    model = script(*[APIStatusError(429, "slow down") for _ in range(3)], "never")
    retry = ModelRetryMiddleware(max_retries=2, initial_delay=0, jitter=False, on_failure="error")
    agent, _, _ = agent_for(kernel, model, extra=(retry,))
    with pytest.raises(APIStatusError):
        await agent.ainvoke(ask("go"))
    assert len(model.requests) == 3                 # the first try and two retries
    [payload] = hook_log()                          # the matcher picked rate_limit
    assert payload["mode"] == "rate" and "last_assistant_message" not in payload


# -- tool vocabulary (issue 11 acceptance) -------------------------------------------------------

class Workspace:
    """The runtime's own tools, named its way: ``run_shell(cmd)`` and ``write_file(path,
    text)``; both really act in the project."""

    def __init__(self, cwd: Path) -> None:
        self.cwd = cwd
        self.ran: list[str] = []

    def tools(self) -> list[Any]:
        @tool
        def run_shell(cmd: str) -> str:
            """Run a shell command and return its output."""
            self.ran.append(cmd)
            proc = subprocess.run(["sh", "-c", cmd], cwd=self.cwd, capture_output=True,
                                  text=True, timeout=30)
            return proc.stdout + proc.stderr

        @tool
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
        middleware: list[HookwireMiddleware], caplog: pytest.LogCaptureFixture) -> None:
    kernel = guarded()
    map_tools(kernel, how)                              # the only addition
    model = script(*VOCABULARY_TURNS)
    work = Workspace(project)
    mw = HookwireMiddleware(kernel, cwd=str(project))
    middleware.append(mw)
    agent = create_agent(model, tools=work.tools(), middleware=[mw])
    with caplog.at_level("WARNING", logger="hookwire"):
        out = await _run("ainvoke" if how == "code" else "invoke", agent, ask("tidy up"))
    assert out[-1].content == "done"
    # the Bash guard blocked run_shell, and the model saw why
    [blocked] = tool_messages(model.requests[1])
    assert blocked.status == "error"
    assert "Blocked: rm -rf is not allowed in this project" in blocked.content
    guard = hook_log("guard")
    assert guard[0]["tool_name"] == "Bash"
    assert guard[0]["tool_input"] == {"command": "rm -rf build"}
    # the rewrite's updatedInput.command came back as cmd: the tool ran the rewritten command
    assert work.ran == ["echo new value"]
    assert tool_messages(model.requests[2])[-1].content == "new value\n"
    # the Write hook saw Claude Code's shape
    [write] = hook_log("write")
    assert write["tool_name"] == "Write"
    assert write["tool_input"] == {"file_path": "notes.txt", "content": "hello"}
    assert (project / "notes.txt").read_text() == "hello"
    assert not [p for p in mw.problems if "run_shell" in p.message]
    assert "run_shell" not in caplog.text


def test_unmapped_runtime_tools_are_named_in_a_warning(
        guarded: Any, project: Path, hook_log: Any, middleware: list[HookwireMiddleware],
        caplog: pytest.LogCaptureFixture) -> None:
    kernel = guarded()
    model = script(*VOCABULARY_TURNS)
    mw = HookwireMiddleware(kernel, cwd=str(project))
    middleware.append(mw)
    agent = create_agent(model, tools=Workspace(project).tools(), middleware=[mw])
    with caplog.at_level("WARNING", logger="hookwire"):
        agent.invoke(ask("tidy up"))
    assert hook_log("guard") == [] and hook_log("write") == []   # what the warning is about
    warnings = [r.getMessage() for r in caplog.records
                if r.name.startswith("hookwire") and r.levelname == "WARNING"]
    bash = [w for w in warnings if "'Bash'" in w and "run_shell" in w]
    assert bash, warnings
    assert "host langchain" in bash[0]
    assert "tools: {run_shell: {as: Bash" in bash[0]             # the mapping that would fix it
    [problem] = [p for p in mw.problems if "'Bash'" in p.message and "rewrite" in p.message]
    assert str(problem.kind) == "no tool matches" and "run_shell" in str(problem)
    assert any("'Write'" in p.message and "write_file" in p.message for p in mw.problems)


def test_hooks_on_events_langchain_never_emits_are_reported(
        claude: Any, agent_for: Any, caplog: pytest.LogCaptureFixture) -> None:
    kernel = claude(Notification=["note"], PreCompact=["compact"])
    agent, _, mw = agent_for(kernel, script("hi"))
    with caplog.at_level("WARNING", logger="hookwire"):
        agent.invoke(ask("go"))
    kinds = {(str(p.kind), p.message.split(" hook")[0]) for p in mw.problems}
    assert kinds == {("not emitted", "claude Notification"), ("not emitted", "claude PreCompact")}
    assert "host langchain does not emit notification" in caplog.text


def test_a_tool_mapped_as_an_mcp_tool_meets_mcp_matchers(claude: Any, agent_for: Any,
                                                         project: Path, middleware: list[Any],
                                                         hook_log: Any) -> None:
    """langchain-mcp-adapters' tools do not say their server: mapped once by hand
    (``mcp_name``), a ``mcp__files__.*`` matcher sees them under Claude Code's MCP name."""
    from hookwire.tools import mcp_name

    @tool
    def read_notes(topic: str) -> str:
        """Read the notes about a topic."""
        return f"notes about {topic}"

    kernel = claude(PreToolUse=[("mcp", "mcp__files__.*")])
    model = script(("read_notes", {"topic": "hooks"}), "done")
    mw = HookwireMiddleware(kernel, cwd=str(project))
    middleware.append(mw)
    agent = create_agent(model, tools=[read_notes], middleware=[mw])
    agent.invoke(ask("read"))
    assert hook_log("mcp") == []                                # unmapped: not an MCP tool
    assert any("mcp__files__.*" in p.message and "read_notes" in p.message for p in mw.problems)
    kernel.map_tool("read_notes", mcp_name("files", "read_notes"))
    model.turns = list(script(("read_notes", {"topic": "maps"}), "done").turns)
    agent.invoke(ask("read again"))
    [pre] = hook_log("mcp")
    assert pre["tool_name"] == "mcp__files__read_notes" and pre["tool_input"] == {"topic": "maps"}
