"""Claude Code ``prompt`` and ``agent`` hooks on the ADK agent's own model: the hook's request
goes to the same scripted ``BaseLlm`` the agent runs on, which answers both (told apart by the
hook's system instruction)."""

from __future__ import annotations

import asyncio
import json
import subprocess
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("google.adk")

from google.adk.agents import LlmAgent
from google.adk.apps import App
from google.adk.models import BaseLlm, LlmResponse
from google.adk.runners import InMemoryRunner
from google.genai import types

from hookwire import Kernel
from hookwire.dialects.claude.testing import group, write_settings
from hookwire.plugins.google_adk import HookwirePlugin

PROMPT = "Block any command that deletes files. The call: $ARGUMENTS"


class Both(BaseLlm):
    """The agent's scripted ``turns`` and ``judge(request)`` for the hook's own requests."""

    model: str = "scripted"
    turns: list[Any] = []
    judge: Any = None
    agent_requests: list[str] = []
    hook_requests: list[Any] = []

    async def generate_content_async(self, llm_request: Any, stream: bool = False
                                     ) -> AsyncIterator[LlmResponse]:
        system = str(llm_request.config.system_instruction or "")
        if "hook" in system:
            self.hook_requests.append(llm_request)
            parts = self.judge(llm_request)
        else:
            self.agent_requests.append(json.dumps(
                [c.model_dump(exclude_none=True, mode="json") for c in llm_request.contents]))
            turn = self.turns.pop(0)
            parts = [types.Part(text=turn)] if isinstance(turn, str) else [types.Part(
                function_call=types.FunctionCall(id="c1", name=turn[0], args=turn[1]))]
        yield LlmResponse(content=types.Content(role="model", parts=parts))


def call(name: str, args: dict[str, Any]) -> list[types.Part]:
    return [types.Part(function_call=types.FunctionCall(id=f"h-{name}", name=name, args=args))]


def run(project: Path, hooks: dict[str, Any], model: Both) -> tuple[list[str], str]:
    write_settings(project / ".claude" / "settings.json", hooks)
    kernel = Kernel()
    kernel.add_config("claude", project / ".claude" / "settings.json")
    kernel.map_tool("run_shell", "Bash", input={"command": "cmd"})
    ran: list[str] = []

    def run_shell(cmd: str) -> str:
        """Run a shell command."""
        ran.append(cmd)
        return subprocess.run(["sh", "-c", cmd], cwd=project, capture_output=True, text=True,
                              timeout=30).stdout

    plugin = HookwirePlugin(kernel, cwd=str(project))
    agent = LlmAgent(name="a", model=model, tools=[run_shell])
    runner = InMemoryRunner(app=App(name="hooks", root_agent=agent, plugins=[plugin]))

    async def go() -> str:
        session = await runner.session_service.create_session(app_name="hooks", user_id="u")
        out = ""
        try:
            async for event in plugin.run_async(runner, user_id="u", session_id=session.id,
                                                new_message=types.Content(role="user", parts=[
                                                    types.Part(text="clean up")])):
                if event.content and event.content.parts and event.content.parts[0].text:
                    out = event.content.parts[0].text
        finally:
            await runner.close()
            await plugin.close()
        return out

    return ran, asyncio.run(go())


def test_prompt_hook_denial_reads_as_claude_code_words_it(tmp_path: Path) -> None:
    def judge(request: Any) -> list[types.Part]:
        assert request.config.response_mime_type == "application/json" and not request.config.tools
        return [types.Part(text=json.dumps({"ok": False, "reason": "it deletes files"}))]

    model = Both(turns=[("run_shell", {"cmd": "rm -rf build"}), "understood"], judge=judge)
    ran, out = run(tmp_path, {"PreToolUse": [group(
        {"type": "prompt", "prompt": PROMPT, "continueOnBlock": True}, matcher="Bash")]}, model)
    assert ran == [] and out == "understood" and len(model.hook_requests) == 1
    assert f"PreToolUse:Bash hook error: [{PROMPT}]: it deletes files" in model.agent_requests[1]


def test_agent_hook_reads_a_project_file_before_it_answers(tmp_path: Path) -> None:
    (tmp_path / "POLICY.md").write_text("Never delete the build folder.\n")

    def investigator(request: Any) -> list[types.Part]:
        [tools] = request.config.tools
        assert {f.name for f in tools.function_declarations} == {
            "Read", "Glob", "Grep", "StructuredOutput"}
        answers = [p.function_response.response["result"] for c in request.contents
                   for p in c.parts or () if p.function_response]
        if not answers:
            return call("Read", {"file_path": "POLICY.md"})
        return call("StructuredOutput", {"ok": False, "reason": f"policy: {answers[0]}"})

    model = Both(turns=[("run_shell", {"cmd": "rm -rf build"}), "ok, I will not"],
                 judge=investigator)
    ran, out = run(tmp_path, {"PreToolUse": [group(
        {"type": "agent", "prompt": PROMPT}, matcher="Bash")]}, model)
    assert ran == [] and out == "ok, I will not" and len(model.hook_requests) == 2
    assert "Never delete the build folder." in model.agent_requests[1]
