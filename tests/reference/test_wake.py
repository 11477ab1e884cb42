"""The reference host woken by a Claude Code ``asyncRewake`` hook (exit 2): idle, the wake
starts a turn of its own; in a turn, the wake is read before the next model request. Real hook
scripts; only the model is scripted."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import anyio
import pytest

from hookwire import Kernel
from hookwire.dialects.claude import ClaudeDialect
from hookwire.reference import Agent, ModelTurn, ScriptedModel, ToolCall
from hookwire.reference.tools import Tool, ToolContext, default_tools


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def kernel(tmp_path: Path, event: str, body: str, matcher: str | None = None) -> Kernel:
    hook = tmp_path / "rewake.sh"
    hook.write_text("#!/bin/sh\ncat >/dev/null\n" + body + "\n")
    hook.chmod(0o755)
    group: dict[str, Any] = {"hooks": [{"type": "command", "command": str(hook),
                                        "asyncRewake": True}]}
    if matcher is not None:
        group["matcher"] = matcher
    settings = tmp_path / "settings.json"
    settings.write_text(json.dumps({"hooks": {event: [group]}}))
    k = Kernel(load_entry_points=False)
    k.add_dialect(ClaudeDialect())
    k.add_config("claude", settings)
    return k


REMINDER = "<system-reminder>\nAsync {event} hook feedback:\n{text}\n</system-reminder>"


@pytest.mark.anyio
async def test_an_idle_agent_is_woken_into_a_turn_of_its_own(tmp_path: Path) -> None:
    k = kernel(tmp_path, "SessionStart", "echo 'the nightly build is red' >&2; exit 2")
    model = ScriptedModel([ModelTurn(text="looking at the build")])
    async with Agent(k, model, cwd=str(tmp_path)) as agent:
        with anyio.fail_after(30):  # no user prompt: the hook's wake starts the turn
            while not agent.woken:
                await anyio.sleep(0.02)
    (result,) = agent.woken
    assert result.terminal_reason == "completed" and result.text == "looking at the build"
    (request,) = model.requests
    reminder = REMINDER.format(event="SessionStart", text="the nightly build is red")
    assert [(m.role, m.content) for m in request] == [("user", reminder)]
    assert request[0].source is not None and "rewake.sh" in request[0].source


@pytest.mark.anyio
async def test_a_wake_in_a_turn_is_read_before_the_next_request(tmp_path: Path) -> None:
    k = kernel(tmp_path, "PostToolUse", "echo 'lint: 2 errors' >&2; exit 2", matcher="Bash")
    agent_box: list[Agent] = []

    async def until_woken(tool_input: Mapping[str, Any], ctx: ToolContext) -> str:
        with anyio.fail_after(30):  # a tool still running when the hook's wake comes
            while not agent_box[0].waking.queue:
                await anyio.sleep(0.02)
        return "waited"

    tools = {**default_tools(), "Wait": Tool(name="Wait", description="wait", required={},
                                             call=until_woken)}
    model = ScriptedModel([
        ModelTurn(tool_calls=(ToolCall(name="Bash", input={"command": "true"}, id="t1"),)),
        ModelTurn(tool_calls=(ToolCall(name="Wait", input={}, id="t2"),)),
        ModelTurn(text="fixing the lint errors")])
    async with Agent(k, model, tools=tools, cwd=str(tmp_path)) as agent:
        agent_box.append(agent)
        result = await agent.run("tidy up")
    assert result.terminal_reason == "completed" and agent.woken == []
    last = model.requests[-1]
    reminder = REMINDER.format(event="PostToolUse", text="lint: 2 errors")
    assert (last[-1].role, last[-1].content) == ("user", reminder)  # right before the request
    assert last[-2].role == "tool" and last[-2].tool_use_id == "t2"
