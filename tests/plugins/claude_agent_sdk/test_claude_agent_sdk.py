"""The Claude Agent SDK adapter against the real Claude Code CLI the SDK bundles, run offline:
its model is a scripted Anthropic Messages API on 127.0.0.1, the user's hooks are real scripts
in ``.claude/settings.json`` and ``.codex/hooks.json``, and the runtime's tool is an in-process
SDK MCP tool ``run_shell(cmd)`` that hooks see as ``Bash``."""

from __future__ import annotations

import json
import sys
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import anyio
import pytest

pytest.importorskip("claude_agent_sdk")

from claude_agent_sdk import (
    ClaudeAgentOptions,
    ClaudeSDKClient,
    ResultMessage,
    create_sdk_mcp_server,
    tool,
)

from hookwire import Kernel
from hookwire.errors import ConfigError
from hookwire.plugins.claude_agent_sdk import HookwireHooks

GUARD = r'''
import json, os, sys
data = json.load(sys.stdin)
with open(os.environ["KIT_LOG"], "a") as fh:
    fh.write(json.dumps(data) + "\n")
if data.get("hook_event_name") == "UserPromptSubmit":
    print(json.dumps({"hookSpecificOutput": {"hookEventName": "UserPromptSubmit",
                                             "additionalContext": "build id is 4242"}}))
    sys.exit(0)
if data.get("hook_event_name") == "Stop":
    if not data.get("stop_hook_active"):
        print(json.dumps({"decision": "block", "reason": "run the tests before you stop"}))
    sys.exit(0)
if "rm -rf" in (data.get("tool_input") or {}).get("command", ""):
    print("Blocked: rm -rf is not allowed here", file=sys.stderr)
    sys.exit(2)
'''


class Model(ThreadingHTTPServer):
    """Anthropic Messages on 127.0.0.1: the first request that offers ``run_shell`` calls it
    with ``command``; every other request answers ``done``. Records each request."""

    def __init__(self, command: str) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.command = command
        self.requests: list[dict[str, Any]] = []
        self.called = False

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}"


class _Handler(BaseHTTPRequestHandler):
    server: Model

    def log_message(self, *args: Any) -> None:
        pass

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers.get("content-length", 0))) or b"{}")
        if "count_tokens" in self.path:
            return self._send("application/json", json.dumps({"input_tokens": 10}).encode())
        self.server.requests.append(body)
        shell = next((t["name"] for t in body.get("tools") or [] if "run_shell" in t["name"]),
                     None)
        if shell and not self.server.called:
            self.server.called = True
            block = {"type": "tool_use", "id": "toolu_kit0001", "name": shell,
                     "input": {"cmd": self.server.command}}
            stop = "tool_use"
        else:
            block, stop = {"type": "text", "text": "done"}, "end_turn"
        message = {"id": "msg_kit", "type": "message", "role": "assistant",
                   "model": body.get("model", "kit"), "content": [], "stop_reason": None,
                   "stop_sequence": None, "usage": {"input_tokens": 10, "output_tokens": 1}}
        events = [("message_start", {"message": message})]
        if block["type"] == "text":
            events += [("content_block_start", {"index": 0, "content_block": {
                "type": "text", "text": ""}}), ("content_block_delta", {"index": 0, "delta": {
                    "type": "text_delta", "text": block["text"]}})]
        else:
            events += [("content_block_start", {"index": 0, "content_block": {
                **block, "input": {}}}), ("content_block_delta", {"index": 0, "delta": {
                    "type": "input_json_delta", "partial_json": json.dumps(block["input"])}})]
        events += [("content_block_stop", {"index": 0}),
                   ("message_delta", {"delta": {"stop_reason": stop, "stop_sequence": None},
                                      "usage": {"output_tokens": 1}}),
                   ("message_stop", {})]
        self._send("text/event-stream", b"".join(
            f"event: {kind}\ndata: {json.dumps({'type': kind, **data})}\n\n".encode()
            for kind, data in events))

    def _send(self, kind: str, payload: bytes) -> None:
        self.send_response(200)
        self.send_header("content-type", kind)
        self.send_header("content-length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "guard.py").write_text(GUARD)
    monkeypatch.setenv("KIT_LOG", str(tmp_path / "hooks.log"))
    proj = tmp_path / "project"
    proj.mkdir()
    return proj


def model(command: str) -> Iterator[Model]:
    server = Model(command)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()


def run(hooks: HookwireHooks, server: Model, project: Path, ran: list[str]) -> str | None:
    @tool("run_shell", "Run a shell command", {"cmd": str})
    async def run_shell(args: dict[str, Any]) -> dict[str, Any]:
        ran.append(args["cmd"])
        return {"content": [{"type": "text", "text": f"ran: {args['cmd']}"}]}

    home = project.parent / "home"
    options = hooks.options(ClaudeAgentOptions(
        mcp_servers={"kit": create_sdk_mcp_server("kit", tools=[run_shell])},
        allowed_tools=["mcp__kit__run_shell"], tools=[], setting_sources=[], max_turns=4,
        cwd=str(project), model="claude-sonnet-4-5",
        env={"ANTHROPIC_BASE_URL": server.url, "ANTHROPIC_API_KEY": "sk-ant-kit",
             "HOME": str(home), "CLAUDE_CONFIG_DIR": str(home / ".claude"),
             "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1", "DISABLE_TELEMETRY": "1",
             "DISABLE_AUTOUPDATER": "1", "DISABLE_ERROR_REPORTING": "1"}))

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


def kernel_with(project: Path, dialect: str, *, stop: bool = False) -> Kernel:
    command = f"{sys.executable} {project.parent / 'guard.py'}"
    group = {"matcher": "Bash", "hooks": [{"type": "command", "command": command}]}
    prompt = {"hooks": [{"type": "command", "command": command}]}
    hooks = {"PreToolUse": [group], "UserPromptSubmit": [prompt]}
    if stop:
        hooks["Stop"] = [prompt]
    path = project / (".claude/settings.json" if dialect == "claude" else ".codex/hooks.json")
    path.parent.mkdir()
    path.write_text(json.dumps({"hooks": hooks}))
    kernel = Kernel()
    kernel.add_config(dialect, path)
    kernel.map_tool("mcp__kit__run_shell", "Bash", input={"command": "cmd"})
    return kernel


def tool_results(server: Model) -> str:
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
        run(HookwireHooks(kernel_with(project, "claude", stop=True)), server, project, [])
        seen = [json.loads(line) for line in (project.parent / "hooks.log").read_text()
                .splitlines()]
        stops = [s["stop_hook_active"] for s in seen if s["hook_event_name"] == "Stop"]
        assert stops == [False, True], "blocked once, then the CLI's stop_hook_active"
        later = json.dumps(server.requests[-1])
        assert "run the tests before you stop" in later, "the model read the feedback"
