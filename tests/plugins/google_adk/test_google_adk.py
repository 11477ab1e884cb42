"""The Google ADK plugin beyond the kit: the blocking ``run`` drives Stop continuations too
(ADK runs ``runner.run`` on a thread and loop of its own), and a tool call whose run start the
plugin never saw is still guarded."""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("google.adk")

from google.adk.agents import LlmAgent
from google.adk.apps import App
from google.adk.runners import InMemoryRunner
from google.genai import types

from hookwire import Kernel
from hookwire.plugins.google_adk import HookwirePlugin
from hookwire.plugins.hostkit import Transcript, scripted

from .test_conformance import ScriptedLlm

STOP = '''import json, sys
data = json.load(sys.stdin)
if not data.get("stop_hook_active"):
    print(json.dumps({"decision": "block", "reason": "run the tests before you stop"}))
'''
GUARD = '''import json, sys
if "rm -rf" in json.load(sys.stdin)["tool_input"].get("command", ""):
    print("Blocked: rm -rf is not allowed here", file=sys.stderr); sys.exit(2)
'''


def kernel(tmp_path: Path, event: str, script: str, matcher: str | None = None) -> Kernel:
    (tmp_path / "hook.py").write_text(script)
    group: dict[str, Any] = {"hooks": [{"type": "command",
                                         "command": f"{sys.executable} {tmp_path / 'hook.py'}"}]}
    if matcher:
        group["matcher"] = matcher
    settings = tmp_path / "settings.json"
    settings.write_text(json.dumps({"hooks": {event: [group]}}))
    k = Kernel()
    k.add_config("claude", settings)
    k.map_tool("run_shell", "Bash", input={"command": "cmd"})
    return k


def test_the_blocking_run_continues_a_turn_a_stop_hook_blocks(tmp_path: Path) -> None:
    t = Transcript()
    plugin = HookwirePlugin(kernel(tmp_path, "Stop", STOP), cwd=str(tmp_path))
    agent = LlmAgent(name="kit_agent", model=ScriptedLlm(
        steps=scripted(["first answer", "second answer"]), transcript=t))
    runner = InMemoryRunner(app=App(name="kit", root_agent=agent, plugins=[plugin]))
    session = asyncio.run(runner.session_service.create_session(app_name="kit", user_id="u"))
    try:
        events = list(plugin.run(runner, user_id="u", session_id=session.id, new_message=
                                 types.Content(role="user", parts=[types.Part(text="go")])))
    finally:
        asyncio.run(runner.close())
        plugin.shutdown()
    assert len(t.requests) == 2, "a Stop block calls the model once more"
    assert "run the tests before you stop" in t.requests[1]
    assert any(e.content and "second answer" in str(e.content) for e in events)


def test_a_tool_call_of_an_unseen_run_is_still_guarded(tmp_path: Path) -> None:
    t = Transcript()
    plugin = HookwirePlugin(kernel(tmp_path, "PreToolUse", GUARD, "Bash"), cwd=str(tmp_path))

    class Context:  # what ADK hands the callback, for a run whose start went unseen
        invocation_id = "unseen"
        function_call_id = "call-1"

    class Tool:
        name = "run_shell"

    async def main() -> Any:
        return await plugin.before_tool_callback(tool=Tool(), tool_args={"cmd": "rm -rf x"},
                                                 tool_context=Context())

    try:
        answer = asyncio.run(main())
    finally:
        plugin.shutdown()
    assert answer is not None and "Blocked: rm -rf is not allowed here" in answer["error"]
    assert t.ran == []  # nothing ran: the callback answered instead of the tool
