"""``type: "prompt"`` and ``type: "agent"`` hooks on a model the host lends (Claude Code 2.1.332's
behaviour, recorded offline). The model is a scripted :class:`HostModel`; the adapters' own
fake models are tested under tests/plugins."""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from hookwire import Decision, Kernel
from hookwire.dialects.claude._inprocess import fill
from hookwire.dialects.claude._prompt import AGENT_SCHEMA, PROMPT_SCHEMA, substitute
from hookwire.dialects.claude.testing import group
from hookwire.hostparts import HostParts, ModelAsk, ModelReply

KernelFactory = Callable[..., Kernel]
PROMPT = "Is this command safe? $ARGUMENTS"


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


class Scripted:
    """A model that answers each ask with ``answer(ask)`` and records the asks."""

    def __init__(self, answer: Callable[[ModelAsk], Any], name: str = "scripted") -> None:
        self.answer = answer
        self.asks: list[ModelAsk] = []
        self._name = name

    @property
    def name(self) -> str:
        return self._name

    async def ask(self, ask: ModelAsk) -> ModelReply:
        self.asks.append(ask)
        found = self.answer(ask)
        if isinstance(found, ModelReply):
            return found
        return ModelReply(output=found, model=self.name)


def prompt(text: str = PROMPT, **more: Any) -> dict[str, Any]:
    return {"type": "prompt", "prompt": text, **more}


async def tool_pre(kernel: Kernel, project: Path, command: str = "rm -rf /") -> Any:
    async with kernel.session(cwd=str(project), project_dir=str(project),
                              session_id="s") as s:
        return await s.tool_pre("Bash", {"command": command}, tool_use_id="t1")


def test_arguments_are_substituted_escaped_or_appended() -> None:
    assert substitute("check $ARGUMENTS now", '{"a":1}') == 'check {"a":1} now'
    assert substitute("cost \\$5: $ARGUMENTS", "{}") == "cost $5: {}"
    assert substitute("literal \\$ARGUMENTS", "{}") == "literal $ARGUMENTS\n\n{}"
    assert substitute("no placeholder", "{}") == "no placeholder\n\n{}"


@pytest.mark.anyio
async def test_pre_tool_use_ok_false_denies_and_ends_the_turn(
        claude_kernel: KernelFactory, project: Path) -> None:
    model = Scripted(lambda ask: {"ok": False, "reason": "it deletes everything"})
    kernel = claude_kernel({"PreToolUse": [group(prompt(), matcher="Bash")]})
    kernel.parts = HostParts(model=model)
    verdict = await tool_pre(kernel, project)
    assert verdict.decision is Decision.DENY
    # the bracket holds the prompt, unsubstituted, where a command hook has its command
    assert verdict.reason == f"[{PROMPT}]: it deletes everything"
    assert verdict.halt is not None and verdict.halt.reason == "it deletes everything"
    (ask,) = model.asks
    assert ask.tools == () and ask.output_tool is None and ask.schema == PROMPT_SCHEMA
    (message,) = ask.messages
    event = json.loads(message.text.removeprefix("Is this command safe? "))
    assert event["tool_input"] == {"command": "rm -rf /"}
    assert event["hook_event_name"] == "PreToolUse" and not message.text.endswith("\n")
    assert "data" in ask.system and '"ok": false' in ask.system


@pytest.mark.anyio
async def test_ok_true_lets_the_tool_run_and_continue_on_block_keeps_the_turn(
        claude_kernel: KernelFactory, project: Path) -> None:
    kernel = claude_kernel({"PreToolUse": [group(prompt())]})
    kernel.parts = HostParts(model=Scripted(lambda ask: {"ok": True, "reason": "fine"}))
    verdict = await tool_pre(kernel, project, "ls")
    assert verdict.decision is Decision.NONE and verdict.halt is None
    kernel = claude_kernel({"PreToolUse": [group(prompt(continueOnBlock=True))]})
    kernel.parts = HostParts(model=Scripted(lambda ask: {"ok": False, "reason": "no"}))
    verdict = await tool_pre(kernel, project)
    assert verdict.denied and verdict.halt is None


@pytest.mark.anyio
async def test_d26_no_model_is_reported_and_the_tool_goes_ahead(
        claude_kernel: KernelFactory, project: Path, caplog: pytest.LogCaptureFixture) -> None:
    kernel = claude_kernel({"PreToolUse": [group(prompt())]})
    with caplog.at_level(logging.WARNING, logger="hookwire"):
        verdict = await tool_pre(kernel, project)
    assert verdict.decision is Decision.NONE
    assert "no model" in " ".join(verdict.hooks[0].diagnostics)
    assert any("could not start" in r.message and "no model" in r.message
               for r in caplog.records)


@pytest.mark.anyio
@pytest.mark.parametrize("reply", [ModelReply(output=None, text='{"ok": false}'),
                                   ModelReply(output={"reason": "no ok"})])
async def test_an_answer_of_another_shape_blocks_nothing(
        claude_kernel: KernelFactory, project: Path, reply: ModelReply) -> None:
    kernel = claude_kernel({"PreToolUse": [group(prompt())]})
    kernel.parts = HostParts(model=Scripted(lambda ask: reply))
    verdict = await tool_pre(kernel, project)
    assert verdict.decision is Decision.NONE and verdict.halt is None


@pytest.mark.anyio
async def test_a_model_that_raises_blocks_nothing(claude_kernel: KernelFactory,
                                                  project: Path) -> None:
    def boom(ask: ModelAsk) -> Any:
        raise ConnectionError("API down")

    kernel = claude_kernel({"PreToolUse": [group(prompt())]})
    kernel.parts = HostParts(model=Scripted(boom))
    verdict = await tool_pre(kernel, project)
    assert verdict.decision is Decision.NONE
    assert "API down" in " ".join(verdict.hooks[0].diagnostics)


@pytest.mark.anyio
async def test_the_hooks_model_field_is_resolved_through_the_host(
        claude_kernel: KernelFactory, project: Path) -> None:
    fast = Scripted(lambda ask: {"ok": False, "reason": "fast says no"}, "fast")
    default = Scripted(lambda ask: {"ok": True, "reason": ""}, "default")
    kernel = claude_kernel({"PreToolUse": [group(prompt(model="claude-haiku-4-5"))]})
    kernel.parts = HostParts(model=default, models={"claude-haiku-4-5": fast})
    assert (await tool_pre(kernel, project)).denied
    assert fast.asks and not default.asks
    kernel = claude_kernel({"PreToolUse": [group(prompt(model="unknown-model"))]})
    kernel.parts = HostParts(model=default)
    verdict = await tool_pre(kernel, project)
    assert default.asks[-1].model == "unknown-model"
    assert any("not lent by the host: default answered" in d
               for d in verdict.hooks[0].diagnostics)


@pytest.mark.anyio
async def test_stop_prompt_hook_continues_the_turn_and_reads_the_transcript(
        claude_kernel: KernelFactory, project: Path, tmp_path: Path) -> None:
    transcript = tmp_path / "t.jsonl"
    transcript.write_text("\n".join(json.dumps(r) for r in [
        {"type": "user", "message": {"role": "user", "content": "run the tests"}},
        {"type": "assistant", "message": {"role": "assistant", "content": [
            {"type": "text", "text": "I did not run them."}]}},
    ]) + "\n")
    model = Scripted(lambda ask: {"ok": False, "reason": "the tests were not run"})
    kernel = claude_kernel({"Stop": [group(prompt("Were the tests run? $ARGUMENTS"))]})
    kernel.parts = HostParts(model=model)
    async with kernel.session(cwd=str(project), transcript_path=str(transcript)) as s:
        verdict = await s.stop(last_assistant_message="Done.")
    assert verdict.continue_turn and verdict.reason == "the tests were not run"
    roles = [(m.role, m.text) for m in model.asks[0].messages]
    assert roles[:2] == [("user", "run the tests"), ("assistant", "I did not run them.")]
    assert "evidence" in model.asks[0].system


@pytest.mark.anyio
async def test_impossible_lets_the_stop_happen(claude_kernel: KernelFactory,
                                              project: Path) -> None:
    kernel = claude_kernel({"Stop": [group(prompt("Is it deployed?"))]})
    kernel.parts = HostParts(model=Scripted(
        lambda ask: {"ok": False, "reason": "cannot deploy here", "impossible": True}))
    async with kernel.session(cwd=str(project)) as s:
        verdict = await s.stop(last_assistant_message="Done.")
    assert not verdict.continue_turn


@pytest.mark.anyio
async def test_user_prompt_submit_ok_false_blocks_the_prompt(
        claude_kernel: KernelFactory, project: Path) -> None:
    kernel = claude_kernel({"UserPromptSubmit": [group(prompt("On topic? $ARGUMENTS"))]})
    kernel.parts = HostParts(model=Scripted(lambda ask: {"ok": False, "reason": "off topic"}))
    async with kernel.session(cwd=str(project)) as s:
        verdict = await s.user_prompt("tell me a joke")
    assert verdict.denied and verdict.reason == "off topic"


@pytest.mark.anyio
async def test_d28_agent_hook_reads_a_project_file_through_read_only_tools(
        claude_kernel: KernelFactory, project: Path) -> None:
    (project / "POLICY.md").write_text("rm is forbidden\n")
    read: list[str] = []

    class Agent:
        name = "agent-model"

        async def ask(self, ask: ModelAsk) -> ModelReply:
            tools = {t.name: t for t in ask.tools}
            assert set(tools) == {"Read", "Glob", "Grep"}  # read-only
            read.append(await tools["Read"].call({"file_path": "POLICY.md"}))
            read.append(await tools["Read"].call({"file_path": "../outside"}))
            read.append(await tools["Grep"].call({"pattern": "forbidden"}))
            assert ask.output_tool == "StructuredOutput" and ask.max_turns == 50
            assert ask.schema == AGENT_SCHEMA and "PreToolUse hook" in ask.system
            return ModelReply(output={"ok": False, "reason": "POLICY.md forbids rm"})

    kernel = claude_kernel({"PreToolUse": [group({"type": "agent", "prompt": PROMPT})]})
    kernel.parts = HostParts(model=Agent())
    verdict = await tool_pre(kernel, project)
    assert read[0] == "     1\trm is forbidden"
    assert read[1].startswith("Error:") and "outside the project" in read[1]
    assert read[2] == "POLICY.md:1:rm is forbidden"
    # an agent hook denies the tool and the turn goes on (as continueOnBlock)
    assert verdict.denied and verdict.halt is None
    assert verdict.reason == f"[{PROMPT}]: POLICY.md forbids rm"


def test_mcp_tool_input_paths_are_filled_from_the_hook_input() -> None:
    body = {"tool_input": {"file_path": "/p/a.py", "n": 3}, "tool_name": "Write"}
    assert fill({"path": "${tool_input.file_path}", "n": "${tool_input.n}",
                 "gone": "${tool_input.nothing}", "list": ["${tool_name}", 4]}, body) == {
        "path": "/p/a.py", "n": "3", "gone": "", "list": ["Write", 4]}


def test_prompt_hooks_on_events_that_take_none_are_reported(
        claude_kernel: KernelFactory) -> None:
    kernel = claude_kernel({"SessionStart": [group(prompt())],
                            "PreToolUse": [group(prompt())]})
    assert [e.event for e in kernel.hooks] == ["PreToolUse"]
    assert any("SessionStart does not accept prompt handlers" in p.message
               for p in kernel.config_problems)


@pytest.mark.anyio
async def test_stop_prompt_hook_that_always_blocks_is_asked_nine_times(
        claude_kernel: KernelFactory, project: Path) -> None:
    """Recorded on 2.1.332: an always-blocking Stop hook was called 9 times, the first Stop
    and 8 blocked continuations, then Claude Code stopped asking (the cap of 8)."""
    from hookwire.dialects.claude.events import stop_block_cap

    model = Scripted(lambda ask: {"ok": False, "reason": "keep going"})
    kernel = claude_kernel({"Stop": [group(prompt("Done? $ARGUMENTS"))]})
    kernel.parts = HostParts(model=model)
    async with kernel.session(cwd=str(project), max_stop_blocks=stop_block_cap()) as s:
        await s.user_prompt("work")
        actives = []
        while True:
            verdict = await s.stop(last_assistant_message="Done.")
            actives.append(json.loads(model.asks[-1].messages[-1].text.split(
                "Done? ", 1)[1])["stop_hook_active"])
            if not verdict.continue_turn:
                break
    assert len(model.asks) == 9
    assert actives == [False] + [True] * 8


@pytest.mark.anyio
async def test_if_conditions_select_prompt_hooks_as_command_hooks(
        claude_kernel: KernelFactory, project: Path) -> None:
    """Recorded on 2.1.332 for a command hook: ``if: "Bash(git *)"`` ran for ``git status; …``
    and not for ``echo hi``; a prompt hook is selected the same way."""
    model = Scripted(lambda ask: {"ok": True, "reason": "fine"})
    kernel = claude_kernel({"PreToolUse": [group(prompt(**{"if": "Bash(git *)"}))]})
    kernel.parts = HostParts(model=model)
    await tool_pre(kernel, project, "git status; echo done")
    await tool_pre(kernel, project, "echo hi")
    assert len(model.asks) == 1 and "git status" in model.asks[0].messages[0].text
