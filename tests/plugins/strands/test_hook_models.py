"""Claude Code ``prompt`` and ``agent`` hooks on the Strands agent's own model: the hook's
request goes to the same scripted Strands ``Model`` the agent runs on, which answers both
(told apart by the hook's system prompt)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("strands")

from strands import Agent, tool
from strands.models import Model

from hookwire import Kernel
from hookwire.dialects.claude.testing import group, write_settings
from hookwire.plugins.strands import HookwireHooks

PROMPT = "Block any command that deletes files. The call: $ARGUMENTS"


class Both(Model):
    """The agent's scripted ``turns`` (a text, or a tool call ``(name, args)``) and
    ``judge(messages)`` for the hook's own requests."""

    def __init__(self, turns: list[Any], judge: Any) -> None:
        self.turns, self.judge = turns, judge
        self.agent_requests: list[str] = []
        self.hook_requests: list[tuple[list[Any], list[str]]] = []

    def update_config(self, **config: Any) -> None:
        pass

    def get_config(self) -> Any:
        return {}

    async def structured_output(self, *args: Any, **kwargs: Any) -> Any:  # pragma: no cover
        raise NotImplementedError
        yield

    async def stream(self, messages: Any, tool_specs: Any = None, system_prompt: Any = None,
                     **kwargs: Any) -> Any:
        if "hook" in str(system_prompt):
            self.hook_requests.append((list(messages), [s["name"] for s in tool_specs or []]))
            step = self.judge(messages)
        else:
            self.agent_requests.append(json.dumps(messages))
            step = self.turns.pop(0)
        yield {"messageStart": {"role": "assistant"}}
        if isinstance(step, str):
            yield {"contentBlockStart": {"start": {}}}
            yield {"contentBlockDelta": {"delta": {"text": step}}}
            yield {"contentBlockStop": {}}
            yield {"messageStop": {"stopReason": "end_turn"}}
            return
        name, args = step
        use = {"toolUseId": f"{name}-{len(self.hook_requests)}", "name": name}
        yield {"contentBlockStart": {"start": {"toolUse": use}}}
        yield {"contentBlockDelta": {"delta": {"toolUse": {"input": json.dumps(args)}}}}
        yield {"contentBlockStop": {}}
        yield {"messageStop": {"stopReason": "tool_use"}}


def run(project: Path, hooks: dict[str, Any], model: Both) -> tuple[list[str], str]:
    write_settings(project / ".claude" / "settings.json", hooks)
    kernel = Kernel()
    kernel.add_config("claude", project / ".claude" / "settings.json")
    ran: list[str] = []

    @tool(name="Bash")
    def bash(command: str) -> str:
        """Run a shell command."""
        ran.append(command)
        return subprocess.run(["sh", "-c", command], cwd=project, capture_output=True,
                              text=True, timeout=30).stdout

    with HookwireHooks(kernel, cwd=str(project)) as hooks:
        result = Agent(model=model, tools=[bash], hooks=[hooks], callback_handler=None)(
            "clean up")
    return ran, "".join(b.get("text", "") for b in result.message["content"])


def tool_results(messages: list[Any]) -> list[str]:
    return [c["text"] for m in messages for b in m["content"] if "toolResult" in b
            for c in b["toolResult"]["content"]]


def test_prompt_hook_denial_reads_as_claude_code_words_it(tmp_path: Path) -> None:
    model = Both([("Bash", {"command": "rm -rf build"}), "understood"],
                 judge=lambda m: ("answer", {"ok": False, "reason": "it deletes files"}))
    ran, out = run(tmp_path, {"PreToolUse": [group(
        {"type": "prompt", "prompt": PROMPT, "continueOnBlock": True}, matcher="Bash")]}, model)
    assert ran == [] and out == "understood"
    [(request, offered)] = model.hook_requests  # the answer ends the hook's own agent
    assert offered == ["answer"]
    assert '"tool_input":{"command":"rm -rf build"}' in request[-1]["content"][0]["text"]
    assert f"PreToolUse:Bash hook error: [{PROMPT}]: it deletes files" in model.agent_requests[1]


def test_d34_a_plain_json_answer_counts(tmp_path: Path) -> None:
    model = Both([("Bash", {"command": "rm -rf build"}), "understood"],
                 judge=lambda m: json.dumps({"ok": False, "reason": "it deletes files"}))
    ran, out = run(tmp_path, {"PreToolUse": [group(
        {"type": "prompt", "prompt": PROMPT, "continueOnBlock": True}, matcher="Bash")]}, model)
    assert ran == [] and out == "understood" and len(model.hook_requests) == 1
    assert f"PreToolUse:Bash hook error: [{PROMPT}]: it deletes files" in model.agent_requests[1]


def test_agent_hook_reads_a_project_file_before_it_answers(tmp_path: Path) -> None:
    (tmp_path / "POLICY.md").write_text("Never delete the build folder.\n")

    def investigator(messages: list[Any]) -> tuple[str, dict[str, Any]]:
        read = tool_results(messages)
        if not read:
            return "Read", {"file_path": "POLICY.md"}
        return "StructuredOutput", {"ok": False, "reason": f"policy: {read[0]}"}

    model = Both([("Bash", {"command": "rm -rf build"}), "ok, I will not"], judge=investigator)
    ran, out = run(tmp_path, {"PreToolUse": [group(
        {"type": "agent", "prompt": PROMPT}, matcher="Bash")]}, model)
    assert ran == [] and out == "ok, I will not" and len(model.hook_requests) == 2
    assert set(model.hook_requests[0][1]) == {"Read", "Glob", "Grep", "StructuredOutput"}
    assert "Never delete the build folder." in model.agent_requests[1]


def test_a_hook_agent_that_never_answers_stops_at_its_turn_limit(tmp_path: Path) -> None:
    (tmp_path / "POLICY.md").write_text("Never delete the build folder.\n")
    model = Both([("Bash", {"command": "true"}), "done"],
                 judge=lambda m: ("Read", {"file_path": "POLICY.md"}))
    ran, out = run(tmp_path, {"PreToolUse": [group(
        {"type": "agent", "prompt": PROMPT}, matcher="Bash")]}, model)
    assert len(model.hook_requests) == 50  # Claude Code's turn limit, then no answer:
    assert ran == ["true"] and out == "done"  # the hook failed, which blocks nothing
