"""What a pydantic-ai model reads (issue #14): each hook's text in its harness's wording and
place, as :func:`hookwire.render.render` gives it; ``Hookwire(kernel, neutral=True)`` gives
hookwire's neutral labelled form. Real hook scripts (``tests/plugins/conftest.py``), a real
``Bash`` tool; only the model is pydantic-ai's own ``FunctionModel``."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("pydantic_ai")

from pydantic_ai import Agent, Tool
from pydantic_ai.messages import (
    ModelMessage,
    ModelRequest,
    ModelResponse,
    SystemPromptPart,
    TextPart,
    ToolCallPart,
    ToolReturnPart,
    UserPromptPart,
)
from pydantic_ai.models.function import AgentInfo, FunctionModel

from hookwire import Kernel, Seam
from hookwire.dialects.claude.render import PREAMBLE
from hookwire.plugins.pydantic_ai import Hookwire

pytestmark = pytest.mark.anyio


class Script:
    """Each request takes the next turn (text, or one ``Bash`` call) and is recorded."""

    def __init__(self, *turns: str | dict[str, Any]) -> None:
        self.turns = list(turns)
        self.requests: list[list[ModelMessage]] = []

    def respond(self, messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        self.requests.append(list(messages))
        turn = self.turns.pop(0)
        if isinstance(turn, str):
            return ModelResponse(parts=[TextPart(turn)])
        return ModelResponse(parts=[ToolCallPart("Bash", turn)])


async def run(kernel: Kernel, project: Path, prompt: str, *turns: str | dict[str, Any],
        neutral: bool = False) -> tuple[Script, list[ModelMessage]]:
    script = Script(*turns)

    def bash(command: str) -> str:
        """Run a shell command and return its output."""
        proc = subprocess.run(["sh", "-c", command], cwd=project, capture_output=True,
                              text=True, timeout=30)
        return proc.stdout + proc.stderr

    agent = Agent(FunctionModel(script.respond), tools=[Tool(bash, name="Bash")],
                  capabilities=[Hookwire(kernel, cwd=str(project), neutral=neutral)])
    result = await agent.run(prompt)
    return script, result.all_messages()


def parts(messages: list[ModelMessage]) -> list[tuple[str, str]]:
    """Every request part as ``(kind, text)``: ``system``, ``user`` or ``tool``."""
    out = []
    for message in messages:
        if not isinstance(message, ModelRequest):
            continue
        for part in message.parts:
            if isinstance(part, SystemPromptPart):
                out.append(("system", part.content))
            elif isinstance(part, UserPromptPart):
                out.append(("user", str(part.content)))
            elif isinstance(part, ToolReturnPart):
                out.append(("tool", part.model_response_str(wrap_if_error=False)))
    return out


def sent(script: Script, i: int) -> str:
    """Every text of the model's ``i``-th request (``FunctionModel`` hands a system part over
    as ``<system>…</system>``)."""
    return "\n".join(text for _, text in parts(script.requests[i]))


def hook(project: Path, mode: str) -> str:
    return f"{sys.executable} {project.parent / 'hook.py'} {mode}"


@pytest.mark.parametrize("neutral", [False, True])
@pytest.mark.parametrize("dialect", ["claude", "codex"])
async def test_pre_tool_use_deny(
        dialect: str, neutral: bool, request: Any, project: Path, verdicts: Any,
        rendered: Any) -> None:
    kernel = request.getfixturevalue(dialect)(PreToolUse=[("guard", "Bash")])
    seen = verdicts(kernel)
    _, history = await run(kernel, project, "clean up", {"command": "rm -rf build"}, "ok",
                     neutral=neutral)
    [tool] = [text for kind, text in parts(history) if kind == "tool"]
    [expected] = rendered(kernel, seen.last(Seam.TOOL_PRE), neutral=neutral, tool_name="Bash",
                          tool_input={"command": "rm -rf build"})
    assert tool == expected
    reason = "Blocked: rm -rf is not allowed in this project"
    if neutral:  # the hook's reason as it gave it
        assert tool == (f"[{hook(project, 'guard')}]: {reason}\n" if dialect == "claude"
                        else reason)
    elif dialect == "claude":  # byte for byte, stderr's newline kept
        assert tool == f"PreToolUse:Bash hook error: [{hook(project, 'guard')}]: {reason}\n"
    else:
        assert tool == f"Command blocked by PreToolUse hook: {reason}. Command: rm -rf build"


@pytest.mark.parametrize("neutral", [False, True])
@pytest.mark.parametrize("dialect", ["claude", "codex"])
async def test_post_tool_use_block(
        dialect: str, neutral: bool, request: Any, project: Path, verdicts: Any,
        rendered: Any) -> None:
    kernel = request.getfixturevalue(dialect)(PostToolUse=[("post_block", "Bash")])
    seen = verdicts(kernel)
    script, history = await run(kernel, project, "go", {"command": "echo hello"}, "ok",
                          neutral=neutral)
    expected = rendered(kernel, seen.last(Seam.TOOL_POST), neutral=neutral, tool_name="Bash",
                        tool_input={"command": "echo hello"})
    after = parts(history)[1:]  # after the user's prompt
    if neutral:  # the result (Codex: replaced by the reason), then the labelled feedback
        result = "hello\n" if dialect == "claude" else "lint failed"
        assert after == [("tool", result), ("system", expected[-1])]
        assert expected[-1] == (f"[hookwire: PostToolUse feedback from {dialect}:PostToolUse "
                                f"hook `{hook(project, 'post_block')}`]\nlint failed")
    elif dialect == "claude":  # the result unchanged, then the blocking error
        assert after == [("tool", "hello\n"), ("system", expected[0])]
        assert expected == ["PostToolUse:Bash hook blocking error from command: "
                            f'"{hook(project, "post_block")}": lint failed']
    else:  # Codex: the reason replaces the tool output
        assert after == [("tool", "lint failed")] and expected == ["lint failed"]
    assert all(t in sent(script, 1) for _, t in after)


@pytest.mark.parametrize("neutral", [False, True])
@pytest.mark.parametrize("dialect", ["claude", "codex"])
async def test_user_prompt_submit_context(
        dialect: str, neutral: bool, request: Any, project: Path, verdicts: Any,
        rendered: Any) -> None:
    kernel = request.getfixturevalue(dialect)(UserPromptSubmit=[("context", "")])
    seen = verdicts(kernel)
    script, history = await run(kernel, project, "what is the build id?", "4242",
                          neutral=neutral)
    [expected] = rendered(kernel, seen.last(Seam.PROMPT_SUBMIT), neutral=neutral,
                          prompt="what is the build id?")
    # after the prompt, a system part: never the user's words
    assert parts(history)[:2] == [("user", "what is the build id?"), ("system", expected)]
    if neutral:
        assert expected.startswith(f"[hookwire: context from {dialect}:UserPromptSubmit hook")
    elif dialect == "claude":
        assert expected == "UserPromptSubmit hook additional context: build id is 4242"
    else:
        assert expected == "build id is 4242"
    [part] = [p for m in history if isinstance(m, ModelRequest) for p in m.parts
              if isinstance(p, SystemPromptPart)]
    assert part.metadata["hookwire"]["source"].startswith(f"{dialect}:UserPromptSubmit hook")
    assert expected in sent(script, 0)


@pytest.mark.parametrize("neutral", [False, True])
@pytest.mark.parametrize("dialect", ["claude", "codex"])
async def test_stop_block(
        dialect: str, neutral: bool, request: Any, project: Path, verdicts: Any,
        rendered: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("STOP_BLOCKS", "1")
    kernel = request.getfixturevalue(dialect)(Stop=[("stop", "")])
    seen = verdicts(kernel)
    script, history = await run(kernel, project, "work", "done", "really done", neutral=neutral)
    assert len(script.requests) == 2
    stop = next(v for v in seen.seen if v.seam is Seam.STOP)
    expected = rendered(kernel, stop, neutral=neutral)
    added = parts(history)[1:]  # after the user's prompt: what the continuation added
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
    assert all(t in sent(script, 1) for _, t in added)
