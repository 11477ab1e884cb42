"""What a LangChain model reads (issue #14): each hook's text in its harness's wording and
place, as :func:`hookwire.render.render` gives it; ``HookwireMiddleware(kernel, neutral=True)``
gives hookwire's neutral labelled form. Real hook scripts (``tests/plugins/conftest.py``), a
real ``Bash`` tool; only the model is LangChain's own fake chat model."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("langchain")

from langchain.agents import create_agent
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
from pydantic import Field

from hookwire import Kernel, Seam
from hookwire.dialects.claude.render import PREAMBLE
from hookwire.plugins.langchain import HookwireMiddleware


class FakeModel(GenericFakeChatModel):
    """Each request takes the next turn (text, or one ``Bash`` call) and is recorded."""

    turns: list[Any] = Field(default_factory=list)
    requests: list[list[BaseMessage]] = Field(default_factory=list)

    def bind_tools(self, tools: Any, **kwargs: Any) -> FakeModel:
        return self

    def _generate(self, messages: list[BaseMessage], stop: Any = None, run_manager: Any = None,
                  **kwargs: Any) -> ChatResult:
        self.requests.append(list(messages))
        turn = self.turns.pop(0)
        if isinstance(turn, str):
            message = AIMessage(content=turn)
        else:
            message = AIMessage(content="", tool_calls=[
                {"name": "Bash", "args": turn, "id": f"call_{len(self.requests)}",
                 "type": "tool_call"}])
        return ChatResult(generations=[ChatGeneration(message=message)])


@pytest.fixture
def run(project: Path) -> Iterator[Any]:
    made: list[HookwireMiddleware] = []

    def go(kernel: Kernel, prompt: str, *turns: Any, neutral: bool = False
           ) -> tuple[FakeModel, list[BaseMessage]]:
        @tool("Bash")
        def bash(command: str) -> str:
            """Run a shell command and return its output."""
            proc = subprocess.run(["sh", "-c", command], cwd=project, capture_output=True,
                                  text=True, timeout=30)
            return proc.stdout + proc.stderr

        model = FakeModel(messages=iter(()), turns=list(turns))
        mw = HookwireMiddleware(kernel, cwd=str(project), neutral=neutral)
        made.append(mw)
        agent = create_agent(model, tools=[bash], middleware=[mw])
        result = agent.invoke({"messages": [HumanMessage(prompt)]})
        return model, list(result["messages"])

    yield go
    for mw in made:
        mw.close()


def shown(messages: list[BaseMessage]) -> list[tuple[str, str]]:
    """``(kind, text)`` of each message but the model's own."""
    kinds = {HumanMessage: "user", SystemMessage: "system", ToolMessage: "tool"}
    return [(kinds[type(m)], str(m.content)) for m in messages if type(m) in kinds]


def hook(project: Path, mode: str) -> str:
    return f"{sys.executable} {project.parent / 'hook.py'} {mode}"


@pytest.mark.parametrize("neutral", [False, True])
@pytest.mark.parametrize("dialect", ["claude", "codex"])
def test_pre_tool_use_deny(dialect: str, neutral: bool, request: Any, project: Path,
                           verdicts: Any, rendered: Any, run: Any) -> None:
    kernel = request.getfixturevalue(dialect)(PreToolUse=[("guard", "Bash")])
    seen = verdicts(kernel)
    model, _ = run(kernel, "clean up", {"command": "rm -rf build"}, "ok", neutral=neutral)
    [tool_message] = [m for m in model.requests[1] if isinstance(m, ToolMessage)]
    [expected] = rendered(kernel, seen.last(Seam.TOOL_PRE), neutral=neutral, tool_name="Bash",
                          tool_input={"command": "rm -rf build"})
    assert tool_message.content == expected and tool_message.status == "error"
    reason = "Blocked: rm -rf is not allowed in this project"
    if not neutral and dialect == "claude":  # byte for byte, stderr's newline kept
        assert expected == f"PreToolUse:Bash hook error: [{hook(project, 'guard')}]: {reason}\n"
    elif not neutral:
        assert expected == f"Command blocked by PreToolUse hook: {reason}. Command: rm -rf build"


@pytest.mark.parametrize("neutral", [False, True])
@pytest.mark.parametrize("dialect", ["claude", "codex"])
def test_post_tool_use_block(dialect: str, neutral: bool, request: Any, project: Path,
                             verdicts: Any, rendered: Any, run: Any) -> None:
    kernel = request.getfixturevalue(dialect)(PostToolUse=[("post_block", "Bash")])
    seen = verdicts(kernel)
    model, _ = run(kernel, "go", {"command": "echo hello"}, "ok", neutral=neutral)
    expected = rendered(kernel, seen.last(Seam.TOOL_POST), neutral=neutral, tool_name="Bash",
                        tool_input={"command": "echo hello"})
    after = shown(model.requests[1])[1:]  # after the user's prompt
    if neutral:
        result = "hello\n" if dialect == "claude" else "lint failed"
        assert after == [("tool", result), ("system", expected[-1])]
        assert expected[-1].startswith(f"[hookwire: PostToolUse feedback from {dialect}:")
    elif dialect == "claude":  # the result unchanged, then the blocking error
        assert after == [("tool", "hello\n"), ("system", expected[0])]
        assert expected == ["PostToolUse:Bash hook blocking error from command: "
                            f'"{hook(project, "post_block")}": lint failed']
    else:  # Codex: the reason replaces the tool output
        assert after == [("tool", "lint failed")] and expected == ["lint failed"]


@pytest.mark.parametrize("neutral", [False, True])
@pytest.mark.parametrize("dialect", ["claude", "codex"])
def test_user_prompt_submit_context(dialect: str, neutral: bool, request: Any, project: Path,
                                    verdicts: Any, rendered: Any, run: Any) -> None:
    kernel = request.getfixturevalue(dialect)(UserPromptSubmit=[("context", "")])
    seen = verdicts(kernel)
    model, _ = run(kernel, "what is the build id?", "4242", neutral=neutral)
    [expected] = rendered(kernel, seen.last(Seam.PROMPT_SUBMIT), neutral=neutral,
                          prompt="what is the build id?")
    assert shown(model.requests[0]) == [("user", "what is the build id?"), ("system", expected)]
    system = model.requests[0][1]
    assert system.additional_kwargs["hookwire_source"].startswith(
        f"{dialect}:UserPromptSubmit hook")                    # a hook's, never the user's
    if not neutral:
        assert expected == ("UserPromptSubmit hook additional context: build id is 4242"
                            if dialect == "claude" else "build id is 4242")
    if dialect == "codex" and not neutral:  # a developer message
        assert system.additional_kwargs["__openai_role__"] == "developer"


@pytest.mark.parametrize("dialect", ["claude", "codex"])
def test_session_start_context(dialect: str, request: Any, project: Path, run: Any) -> None:
    kernel = request.getfixturevalue(dialect)(SessionStart=[("say", "")])
    model, _ = run(kernel, "hello", "hi")
    if dialect == "claude":  # the system message after the first user message
        assert shown(model.requests[0]) == [
            ("user", "hello"), ("system", "SessionStart:startup hook success: tests run by hand")]
    else:  # Codex: a developer message before it
        assert shown(model.requests[0]) == [("system", "tests run by hand"), ("user", "hello")]


@pytest.mark.parametrize("neutral", [False, True])
@pytest.mark.parametrize("dialect", ["claude", "codex"])
def test_stop_block(dialect: str, neutral: bool, request: Any, project: Path, verdicts: Any,
                    rendered: Any, run: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("STOP_BLOCKS", "1")
    kernel = request.getfixturevalue(dialect)(Stop=[("stop", "")])
    seen = verdicts(kernel)
    model, _ = run(kernel, "work", "done", "really done", neutral=neutral)
    assert len(model.requests) == 2
    stop = next(v for v in seen.seen if v.seam is Seam.STOP)
    expected = rendered(kernel, stop, neutral=neutral)
    added = shown(model.requests[1])[1:]  # after the user's prompt
    cmd, reason = hook(project, "stop"), "not done yet (1)"
    if neutral:
        assert added == [("system", expected[0])]
        assert expected[0] == (f"[hookwire: Stop hook feedback from {dialect}:Stop hook "
                               f"`{cmd}`]\n{reason}")
    elif dialect == "claude":  # a user message in a system-reminder, then the blocking error
        assert added == [("user", expected[0]), ("system", expected[1])]
        assert expected == [f"<system-reminder>\n{PREAMBLE}\nStop hook feedback:\n{reason}\n"
                            "</system-reminder>",
                            f'Stop hook blocking error from command: "{cmd}": {reason}']
    else:
        assert added == [("user", expected[0])]
        source = project / ".codex" / "hooks.json"  # Codex names the file, not the command
        assert expected == [f'<hook_prompt hook_run_id="stop:0:{source}">{reason}'
                            "</hook_prompt>"]
    hook_message = [m for m in model.requests[1] if isinstance(m, HumanMessage)][-1]
    assert neutral or hook_message.additional_kwargs["hookwire_source"].startswith(
        f"{dialect}:Stop hook")
