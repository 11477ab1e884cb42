"""The Claude Agent SDK adapter against the real Claude Code CLI the SDK bundles, run offline:
its model is a scripted Anthropic Messages API on 127.0.0.1, the user's hooks are real scripts
in ``.claude/settings.json`` and ``.codex/hooks.json``, and the runtime's tool is an in-process
SDK MCP tool ``run_shell(cmd)`` that hooks see as ``Bash``."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
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
    create_sdk_mcp_server,
    tool,
)

from hookwire import Kernel
from hookwire.errors import ConfigError
from hookwire.plugins.claude_agent_sdk import HookwireHooks

api = sys.modules["_hookwire_sdk_api"]

GUARD = r'''
import json, os, sys
data = json.load(sys.stdin)
with open(os.environ["KIT_LOG"], "a") as fh:
    fh.write(json.dumps(data) + "\n")
if data.get("hook_event_name") == "UserPromptSubmit":
    print(json.dumps({"hookSpecificOutput": {"hookEventName": "UserPromptSubmit",
                                             "additionalContext": "build id is 4242"}}))
    sys.exit(0)
if data.get("hook_event_name") == "PostToolUse":
    print(json.dumps({"decision": "block", "reason": "the output looks wrong"}))
    sys.exit(0)
if data.get("hook_event_name") == "SubagentStart":
    print(json.dumps({"hookSpecificOutput": {"hookEventName": "SubagentStart",
                                             "additionalContext": "helper context 77"}}))
    sys.exit(0)
if data.get("hook_event_name") == "Stop":
    if not data.get("stop_hook_active"):
        print(json.dumps({"decision": "block", "reason": "run the tests before you stop"}))
    sys.exit(0)
if "rm -rf" in (data.get("tool_input") or {}).get("command", ""):
    print("Blocked: rm -rf is not allowed here", file=sys.stderr)
    sys.exit(2)
'''


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "guard.py").write_text(GUARD)
    monkeypatch.setenv("KIT_LOG", str(tmp_path / "hooks.log"))
    proj = tmp_path / "project"
    proj.mkdir()
    return proj


class Model:
    """The scripted API's answers: the first request that offers ``run_shell`` calls it with
    ``command``; every other request answers ``done``."""

    def __init__(self, command: str) -> None:
        self.command = command
        self.called = False

    def __call__(self, body: dict[str, Any]) -> list[dict[str, Any]]:
        shell = next((t["name"] for t in body.get("tools") or [] if "run_shell" in t["name"]),
                     None)
        if shell and not self.called:
            self.called = True
            return [api.tool_use("toolu_kit0001", shell, {"cmd": self.command})]
        return [api.text("done")]


def model(command: str) -> Iterator[Any]:
    with api.ScriptedAPI(Model(command)) as server:
        yield server


def run(hooks: HookwireHooks, server: Any, project: Path, ran: list[str], *,
        agents: dict[str, AgentDefinition] | None = None) -> str | None:
    @tool("run_shell", "Run a shell command", {"cmd": str})
    async def run_shell(args: dict[str, Any]) -> dict[str, Any]:
        ran.append(args["cmd"])
        return {"content": [{"type": "text", "text": f"ran: {args['cmd']}"}]}

    options = hooks.options(ClaudeAgentOptions(
        mcp_servers={"kit": create_sdk_mcp_server("kit", tools=[run_shell])},
        allowed_tools=["mcp__kit__run_shell", "Agent"], tools=["Agent"] if agents else [],
        agents=agents, setting_sources=[], max_turns=6, cwd=str(project),
        model="claude-sonnet-4-5", env=server.env(str(project.parent / "home"))))

    async def main() -> str | None:
        result = None
        async with ClaudeSDKClient(options=options) as client:
            await client.query("please clean the build")
            async for message in client.receive_response():
                if isinstance(message, ResultMessage):
                    result = message.result
        return result

    try:
        return anyio.run(main)
    finally:
        hooks.close()


def kernel_with(project: Path, dialect: str, *events: str) -> Kernel:
    """The guard on ``PreToolUse`` (``Bash``) and ``UserPromptSubmit``, and on ``events``."""
    command = f"{sys.executable} {project.parent / 'guard.py'}"
    group = {"matcher": "Bash", "hooks": [{"type": "command", "command": command}]}
    prompt = {"hooks": [{"type": "command", "command": command}]}
    hooks = {"PreToolUse": [group], "UserPromptSubmit": [prompt]}
    for event in events:
        hooks[event] = [group if event.startswith("PostToolUse") else prompt]
    path = project / (".claude/settings.json" if dialect == "claude" else ".codex/hooks.json")
    path.parent.mkdir()
    path.write_text(json.dumps({"hooks": hooks}))
    kernel = Kernel()
    kernel.add_config(dialect, path)
    kernel.map_tool("mcp__kit__run_shell", "Bash", input={"command": "cmd"})
    return kernel


def seen(project: Path, event: str) -> list[dict[str, Any]]:
    """The payloads the guard got for ``event``."""
    rows = [json.loads(line) for line in (project.parent / "hooks.log").read_text().splitlines()]
    return [r for r in rows if r["hook_event_name"] == event]


def tool_results(server: Any) -> str:
    return json.dumps([b for r in server.requests for m in r.get("messages", [])
                       if isinstance(m.get("content"), list) for b in m["content"]
                       if b.get("type") == "tool_result"])


@pytest.mark.parametrize("dialect", ["claude", "codex"])
def test_the_users_guard_blocks_the_runtime_tool_in_the_real_cli(project: Path,
                                                                 dialect: str) -> None:
    for server in model("rm -rf build"):
        ran: list[str] = []
        result = run(HookwireHooks(kernel_with(project, dialect)), server, project, ran)
        assert ran == [], "the guard must stop the tool"
        assert "Blocked: rm -rf is not allowed here" in tool_results(server)
        assert result == "done"
        seen = [json.loads(line) for line in (project.parent / "hooks.log").read_text()
                .splitlines()]
        pre = [s for s in seen if s["hook_event_name"] == "PreToolUse"]
        assert [(s["tool_name"], s["tool_input"]["command"]) for s in pre] == [
            ("Bash", "rm -rf build")]
        # the user's prompt hook added context, and the model read it
        assert "build id is 4242" in json.dumps(server.requests[0])


def test_an_allowed_command_runs(project: Path) -> None:
    for server in model("ls"):
        ran: list[str] = []
        run(HookwireHooks(kernel_with(project, "claude")), server, project, ran)
        assert ran == ["ls"]
        assert "ran: ls" in tool_results(server)


def test_hooks_the_cli_loads_itself_are_refused(project: Path) -> None:
    hooks = HookwireHooks(kernel_with(project, "claude"))
    with pytest.raises(ConfigError, match="would run twice"):
        hooks.options(ClaudeAgentOptions(cwd=str(project)))  # setting_sources None: all
    hooks.options(ClaudeAgentOptions(cwd=str(project), setting_sources=["user"]))


def test_a_stop_hook_keeps_the_cli_going_once(project: Path) -> None:
    for server in model("ls"):
        run(HookwireHooks(kernel_with(project, "claude", "Stop")), server, project, [])
        seen = [json.loads(line) for line in (project.parent / "hooks.log").read_text()
                .splitlines()]
        stops = [s["stop_hook_active"] for s in seen if s["hook_event_name"] == "Stop"]
        assert stops == [False, True], "blocked once, then the CLI's stop_hook_active"
        later = json.dumps(server.requests[-1])
        assert "run the tests before you stop" in later, "the model read the feedback"


def test_post_tool_use_sees_the_result_and_its_feedback_reaches_the_model(project: Path) -> None:
    for server in model("ls"):
        ran: list[str] = []
        run(HookwireHooks(kernel_with(project, "claude", "PostToolUse")), server, project, ran)
        assert ran == ["ls"]
        [post] = seen(project, "PostToolUse")
        assert (post["tool_name"], post["tool_input"]) == ("Bash", {"command": "ls"})
        assert "ran: ls" in json.dumps(post["tool_response"])
        assert post["session_id"] == seen(project, "UserPromptSubmit")[0]["session_id"]
        assert "the output looks wrong" in json.dumps(server.requests[-1]), \
            "the model read the PostToolUse hook's feedback"


HELPER = "You are the helper agent of this test."


def delegating(body: dict[str, Any], state: dict[str, int]) -> list[dict[str, Any]]:
    """The main agent calls the CLI's agent tool once (in the foreground); the helper agent
    (its system prompt is :data:`HELPER`) runs ``ls`` once, then both answer."""
    names = {t["name"] for t in body.get("tools") or []}
    who = "helper" if HELPER in json.dumps(body.get("system")) else "main"
    if "mcp__kit__run_shell" not in names:
        return [api.text("ok")]  # the CLI's side requests
    state[who] = state.get(who, 0) + 1
    if who == "main" and state[who] == 1:
        return [api.tool_use("toolu_main0001", "Agent", {
            "subagent_type": "helper", "description": "clean up", "prompt": "clean the build",
            "run_in_background": False})]
    if who == "helper" and state[who] == 1:
        return [api.tool_use("toolu_help0001", "mcp__kit__run_shell", {"cmd": "ls"})]
    return [api.text(f"{who} done")]


def test_a_sub_agent_of_the_cli_meets_the_same_session_and_its_seams(project: Path) -> None:
    state: dict[str, int] = {}
    with api.ScriptedAPI(lambda body: delegating(body, state)) as server:
        ran: list[str] = []
        kernel = kernel_with(project, "claude", "SubagentStart", "SubagentStop")
        result = run(HookwireHooks(kernel), server, project, ran, agents={"helper": AgentDefinition(
            description="A helper agent.", prompt=HELPER, tools=["mcp__kit__run_shell"])})
        assert ran == ["ls"] and result == "main done"
        [start], [stop] = seen(project, "SubagentStart"), seen(project, "SubagentStop")
        assert start["agent_type"] == stop["agent_type"] == "helper"
        assert start["agent_id"] == stop["agent_id"]
        session = seen(project, "UserPromptSubmit")[0]["session_id"]
        [pre] = seen(project, "PreToolUse")  # the helper's call, under the same guard
        assert (pre["tool_name"], pre["session_id"]) == ("Bash", session)
        assert start["session_id"] == stop["session_id"] == session
        helper = [r for r in server.requests if HELPER in json.dumps(r.get("system"))]
        assert "helper context 77" in json.dumps(helper[0]), \
            "the helper's model read the SubagentStart context"
