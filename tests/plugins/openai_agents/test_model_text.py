"""What an OpenAI Agents SDK model reads (issue #14): each hook's text in its harness's wording
and place, as :func:`hookwire.render.render` gives it; ``Hookwire(kernel, neutral=True)`` gives
hookwire's neutral labelled form. Real hook scripts (``tests/plugins/conftest.py``), a real
``Bash`` tool; only the model is the SDK's own ``ScriptedModel``."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("agents")

from agents import Agent, function_tool, set_tracing_disabled
from agents.testing import ScriptedModel, assistant_message, function_call

from hookwire import Kernel, Seam
from hookwire.dialects.claude.render import PREAMBLE
from hookwire.plugins.openai_agents import Hookwire

pytestmark = pytest.mark.anyio


@pytest.fixture(autouse=True)
def offline(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-dummy-never-used")
    set_tracing_disabled(True)
    yield


async def run(kernel: Kernel, project: Path, prompt: str, *turns: str | dict[str, Any],
              neutral: bool = False) -> list[list[Any]]:
    """The agent's run of ``prompt``; each request's input items."""
    @function_tool(name_override="Bash")
    def bash(command: str) -> str:
        """Run a shell command and return its output."""
        proc = subprocess.run(["sh", "-c", command], cwd=project, capture_output=True,
                              text=True, timeout=30)
        return proc.stdout + proc.stderr

    steps = [[assistant_message(t)] if isinstance(t, str)
             else [function_call("Bash", t, call_id=f"call_{i}")] for i, t in enumerate(turns)]
    model = ScriptedModel(steps)
    agent = Agent(name="worker", instructions="help", model=model, tools=[bash])
    with Hookwire(kernel, cwd=str(project), neutral=neutral) as hooks:
        await hooks.run(agent, prompt)
    return [list(c.input) for c in model.calls]


def shown(items: list[Any]) -> list[tuple[str, str]]:
    """``(role or "tool", text)`` of each input item but the model's own."""
    out = []
    for item in items:
        item = item if isinstance(item, dict) else item.model_dump()
        if item.get("type") == "function_call_output":
            out.append(("tool", str(item["output"])))
        elif item.get("role") in ("user", "system", "developer"):
            content = item["content"]
            out.append((item["role"], content if isinstance(content, str) else str(content)))
    return out


def hook(project: Path, mode: str) -> str:
    return f"{sys.executable} {project.parent / 'hook.py'} {mode}"


@pytest.mark.parametrize("neutral", [False, True])
@pytest.mark.parametrize("dialect", ["claude", "codex"])
async def test_pre_tool_use_deny(dialect: str, neutral: bool, request: Any, project: Path,
                                 verdicts: Any, rendered: Any) -> None:
    kernel = request.getfixturevalue(dialect)(PreToolUse=[("guard", "Bash")])
    seen = verdicts(kernel)
    requests = await run(kernel, project, "clean up", {"command": "rm -rf build"}, "ok",
                         neutral=neutral)
    [tool] = [text for kind, text in shown(requests[1]) if kind == "tool"]
    [expected] = rendered(kernel, seen.last(Seam.TOOL_PRE), neutral=neutral, tool_name="Bash",
                          tool_input={"command": "rm -rf build"})
    assert tool == expected
    reason = "Blocked: rm -rf is not allowed in this project"
    if not neutral and dialect == "claude":  # byte for byte, stderr's newline kept
        assert expected == f"PreToolUse:Bash hook error: [{hook(project, 'guard')}]: {reason}\n"
    elif not neutral:
        assert expected == f"Command blocked by PreToolUse hook: {reason}. Command: rm -rf build"


@pytest.mark.parametrize("neutral", [False, True])
@pytest.mark.parametrize("dialect", ["claude", "codex"])
async def test_post_tool_use_block(dialect: str, neutral: bool, request: Any, project: Path,
                                   verdicts: Any, rendered: Any) -> None:
    kernel = request.getfixturevalue(dialect)(PostToolUse=[("post_block", "Bash")])
    seen = verdicts(kernel)
    requests = await run(kernel, project, "go", {"command": "echo hello"}, "ok",
                         neutral=neutral)
    expected = rendered(kernel, seen.last(Seam.TOOL_POST), neutral=neutral, tool_name="Bash",
                        tool_input={"command": "echo hello"})
    after = shown(requests[1])[1:]  # after the user's prompt
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
async def test_user_prompt_submit_context(dialect: str, neutral: bool, request: Any,
                                          project: Path, verdicts: Any, rendered: Any) -> None:
    kernel = request.getfixturevalue(dialect)(UserPromptSubmit=[("context", "")])
    seen = verdicts(kernel)
    requests = await run(kernel, project, "what is the build id?", "4242", neutral=neutral)
    [expected] = rendered(kernel, seen.last(Seam.PROMPT_SUBMIT), neutral=neutral,
                          prompt="what is the build id?")
    role = "developer" if dialect == "codex" and not neutral else "system"  # never "user"
    assert shown(requests[0]) == [("user", "what is the build id?"), (role, expected)]
    if not neutral:
        assert expected == ("UserPromptSubmit hook additional context: build id is 4242"
                            if dialect == "claude" else "build id is 4242")


@pytest.mark.parametrize("dialect", ["claude", "codex"])
async def test_session_start_context(dialect: str, request: Any, project: Path) -> None:
    kernel = request.getfixturevalue(dialect)(SessionStart=[("say", "")])
    requests = await run(kernel, project, "hello", "hi")
    if dialect == "claude":  # the system message after the first user message
        assert shown(requests[0]) == [
            ("user", "hello"), ("system", "SessionStart:startup hook success: tests run by hand")]
    else:  # Codex: a developer message before it
        assert shown(requests[0]) == [("developer", "tests run by hand"), ("user", "hello")]


@pytest.mark.parametrize("neutral", [False, True])
@pytest.mark.parametrize("dialect", ["claude", "codex"])
async def test_stop_block(dialect: str, neutral: bool, request: Any, project: Path,
                          verdicts: Any, rendered: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("STOP_BLOCKS", "1")
    kernel = request.getfixturevalue(dialect)(Stop=[("stop", "")])
    seen = verdicts(kernel)
    requests = await run(kernel, project, "work", "done", "really done", neutral=neutral)
    assert len(requests) == 2
    stop = next(v for v in seen.seen if v.seam is Seam.STOP)
    expected = rendered(kernel, stop, neutral=neutral)
    added = shown(requests[1])[1:]  # after the user's prompt
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
