"""The host conformance kit against the Claude Agent SDK adapter, on the real Claude Code CLI
the SDK bundles, run offline against a scripted Anthropic Messages API on 127.0.0.1.

The kit's tools are in-process SDK MCP tools: ``run_shell`` and ``save_file`` on a server
``kit`` (the CLI names them ``mcp__kit__run_shell`` and ``mcp__kit__save_file``; the kit's
``tools:`` mapping is given for those names), ``lookup`` on a server ``docs`` (the CLI names it
``mcp__docs__lookup``, the MCP name the kit expects, with no mapping). The runtime's own
sub-agent is the CLI's agent tool running an ``AgentDefinition``."""

from __future__ import annotations

import itertools
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import anyio
import pytest

pytest.importorskip("claude_agent_sdk")

from claude_agent_sdk import (
    AgentDefinition,
    ClaudeAgentOptions,
    ClaudeSDKClient,
    ResultMessage,
    SystemMessage,
    create_sdk_mcp_server,
    tool,
)

from hookwire.plugins.claude_agent_sdk import HookwireHooks
from hookwire.plugins.hostkit import (
    TOOLS,
    Call,
    HostConformance,
    HostHarness,
    KitTools,
    Step,
    Transcript,
    flatten,
    scripted,
)

api = sys.modules["_hookwire_sdk_api"]
#: The CLI's name of each kit tool (an SDK MCP tool is ``mcp__<server>__<tool>``).
NAMES = {"run_shell": "mcp__kit__run_shell", "save_file": "mcp__kit__save_file",
         "lookup": "mcp__docs__lookup"}
#: Marks the inner agent's system prompt, so that its requests get the inner script.
HELPER = "You are the kit's helper agent."


def sdk_tools(kit: KitTools) -> dict[str, Any]:
    """The kit's tools as two in-process SDK MCP servers."""

    def wrap(fn: Callable[..., str], name: str, doc: str, schema: dict[str, type]) -> Any:
        @tool(name, doc, schema)
        async def call(args: dict[str, Any]) -> dict[str, Any]:
            return {"content": [{"type": "text", "text": fn(**args)}]}

        return call

    return {
        "kit": create_sdk_mcp_server("kit", tools=[
            wrap(kit.run_shell, "run_shell", "Run a shell command.", {"cmd": str}),
            wrap(kit.save_file, "save_file", "Save a file.", {"path": str, "text": str})]),
        "docs": create_sdk_mcp_server("docs", tools=[
            wrap(kit.lookup, "lookup", "Look something up in the docs.", {"query": str})]),
    }


class Stopped(RuntimeError):
    """The CLI's own report that a hook stopped the run: it does not raise, it reports a
    blocked prompt in a system message and a halt as ``terminal_reason="hook_stopped"`` (its
    reason from :attr:`HookwireHooks.halted`)."""


class ClaudeAgentSDKHarness(HostHarness):
    name = "Claude Agent SDK"
    renders = ("the CLI is Claude Code: it words every refusal the hooks answer its callbacks "
               "with, naming the tool by its own name (PreToolUse:mcp__kit__run_shell hook "
               "error: [<command>]: <stderr>), and answers an ask itself (the hook's reason)")
    delegate_arg = "prompt"

    def run(self, kernel: Any, *, cwd: Path, prompt: str, script: Sequence[Step],
            tools: KitTools) -> Transcript:
        return self._run(kernel, cwd, prompt, script, (), tools)

    def run_nested(self, kernel: Any, *, cwd: Path, prompt: str, script: Sequence[Step],
                   inner_script: Sequence[Step], tools: KitTools) -> Transcript:
        return self._run(kernel, cwd, prompt, script, inner_script, tools)

    def _run(self, kernel: Any, cwd: Path, prompt: str, script: Sequence[Step],
             inner_script: Sequence[Step], tools: KitTools) -> Transcript:
        t = tools.transcript
        for name, spec in TOOLS.items():  # the kit's mapping, for the CLI's names of its tools
            if NAMES[name] != spec:
                kernel.map_tools({NAMES[name]: spec})
        outer, inner, ids = scripted(script), scripted(inner_script), itertools.count()

        def respond(body: dict[str, Any]) -> list[dict[str, Any]]:
            offered = {t["name"] for t in body.get("tools") or []}
            if not offered & set(NAMES.values()):
                return [api.text("ok")]  # the CLI's own side requests
            t.requests.append(flatten([body.get("system"), body.get("messages")]))
            step = (inner if HELPER in flatten(body.get("system")) else outer)()
            if isinstance(step, str):
                return [api.text(step)]
            return [api.tool_use(f"toolu_kit{next(ids):04d}", *_call(c)) for c in step]

        hooks = HookwireHooks(kernel, cwd=str(cwd))
        with api.ScriptedAPI(respond) as server:
            options = hooks.options(ClaudeAgentOptions(
                mcp_servers=sdk_tools(tools), tools=["Agent"], setting_sources=[],
                allowed_tools=[*NAMES.values(), "Agent"], max_turns=8, cwd=str(cwd),
                model="claude-sonnet-4-5", env=server.env(str(cwd.parent / "home")),
                agents={"helper": AgentDefinition(description="A helper agent.", prompt=HELPER,
                                                  tools=["mcp__kit__run_shell"])}))
            try:
                anyio.run(_query, options, prompt, hooks, t)
            except Exception as exc:
                t.error = exc
            finally:
                hooks.close()
        return t


def _call(call: Call) -> tuple[str, dict[str, Any]]:
    """A kit tool call as the CLI's tool call: ``delegate`` is its agent tool, in the
    foreground (the CLI runs agents in the background by default)."""
    if call.name == "delegate":
        return "Agent", {"subagent_type": "helper", "description": "delegate",
                         "run_in_background": False, **call.args}
    return NAMES[call.name], dict(call.args)


async def _query(options: ClaudeAgentOptions, prompt: str, hooks: HookwireHooks,
                 t: Transcript) -> None:
    async with ClaudeSDKClient(options=options) as client:
        await client.query(prompt)
        async for message in client.receive_response():
            outcome = (message.data.get("prompt_submit_outcome") or {}
                       if isinstance(message, SystemMessage) else {})
            if outcome.get("kind") == "blocked_by_hook":
                t.error = Stopped(message.data.get("content") or outcome.get("reason"))
            if isinstance(message, ResultMessage):
                t.output = message.result
                if message.terminal_reason == "hook_stopped":
                    t.error = Stopped(f"a hook stopped the run: {hooks.halted}")


class TestClaudeAgentSDKConformance(HostConformance):
    harness = ClaudeAgentSDKHarness()
