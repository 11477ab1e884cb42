"""``type: "mcp_tool"`` hooks on a real stdio MCP server (FastMCP, written to ``tmp_path``),
reached through an ``mcp`` ``ClientSession`` the host lends (``McpSessions``)."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("mcp")
pytest.importorskip("fastmcp")

from mcp import ClientSession, StdioServerParameters, stdio_client

from hookwire import Decision, Kernel
from hookwire.dialects.claude.testing import group
from hookwire.hostparts import HostParts
from hookwire.plugins._mcp import McpSessions

KernelFactory = Callable[..., Kernel]

SERVER = r'''
import json
from fastmcp import FastMCP
server = FastMCP("tools")
@server.tool
def deny(reason: str) -> str:
    """Answer as a Claude Code hook that denies."""
    return json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse",
        "permissionDecision": "deny", "permissionDecisionReason": reason}})
@server.tool
def say(text: str) -> str:
    """Answer plain text."""
    return text
@server.tool
def fail(text: str) -> str:
    """Always an error result."""
    raise ValueError(f"refused: {text}")
server.run(show_banner=False)
'''


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def mcp(tool: str, **input: Any) -> dict[str, Any]:
    return {"type": "mcp_tool", "server": "tools", "tool": tool, "input": input}


@pytest.mark.anyio
async def test_mcp_tool_hooks_call_the_hosts_server_and_read_it_as_stdout(
        claude_kernel: KernelFactory, project: Path, tmp_path: Path) -> None:
    (tmp_path / "server.py").write_text(SERVER)
    params = StdioServerParameters(command=sys.executable, args=[str(tmp_path / "server.py")])
    cases = {
        "deny": ({"PreToolUse": [group(mcp("deny", reason="no ${tool_input.command}"))]},
                 "PreToolUse"),
        "plain": ({"UserPromptSubmit": [group(mcp("say", text="build 42 is green"))]},
                  "UserPromptSubmit"),
        "plain_ignored": ({"PreToolUse": [group(mcp("say", text="just text"))]}, "PreToolUse"),
        "error": ({"PreToolUse": [group(mcp("fail", text="x"))]}, "PreToolUse"),
        "gone": ({"PreToolUse": [group({**mcp("say", text="x"), "server": "gone"})]},
                 "PreToolUse"),
    }
    verdicts: dict[str, Any] = {}
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        for name, (hooks, event) in cases.items():
            kernel = claude_kernel(hooks)
            kernel.parts = HostParts(mcp=McpSessions({"tools": session}))
            async with kernel.session(cwd=str(project)) as s:
                verdicts[name] = (await s.user_prompt("hello") if event == "UserPromptSubmit"
                                  else await s.tool_pre("Bash", {"command": "rm -rf /"}))
    deny = verdicts["deny"]
    assert deny.decision is Decision.DENY and deny.reason == "no rm -rf /"
    assert [c.text for c in verdicts["plain"].contexts] == [
        "UserPromptSubmit hook success: build 42 is green"]
    assert verdicts["plain_ignored"].decision is Decision.NONE
    for name, words in (("error", "returned an error"), ("gone", "is not connected")):
        verdict = verdicts[name]
        assert verdict.decision is Decision.NONE  # a non-blocking error: the tool goes ahead
        assert words in json.dumps(verdict.hooks[0].diagnostics)


@pytest.mark.anyio
async def test_d31_mcp_tool_without_mcp_sessions_is_reported(
        claude_kernel: KernelFactory, project: Path) -> None:
    kernel = claude_kernel({"PreToolUse": [group(mcp("say", text="x"))]})
    async with kernel.session(cwd=str(project)) as s:
        verdict = await s.tool_pre("Bash", {"command": "ls"})
    assert verdict.decision is Decision.NONE
    assert verdict.hooks[0].outcome == "failed_to_start"
    assert "no MCP client" in verdict.hooks[0].diagnostics[0]


@pytest.mark.anyio
async def test_d32_a_plain_text_answer_under_on_failure_block_is_no_failure(
        claude_kernel: KernelFactory, project: Path, tmp_path: Path) -> None:
    """hookwire reads an mcp_tool hook's answer by the command-hook rules: plain text on
    PreToolUse is no decision, ``onFailure: "block"`` or not. (Claude Code's mcp_tool variant
    counts it as a failure and blocks.) An error result still blocks under ``block``."""
    (tmp_path / "server.py").write_text(SERVER)
    params = StdioServerParameters(command=sys.executable, args=[str(tmp_path / "server.py")])
    verdicts = []
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        for tool in ("say", "fail"):
            kernel = claude_kernel({"PreToolUse": [group(
                {**mcp(tool, text="just text"), "onFailure": "block"})]})
            kernel.parts = HostParts(mcp=McpSessions({"tools": session}))
            async with kernel.session(cwd=str(project)) as s:
                verdicts.append(await s.tool_pre("Bash", {"command": "ls"}))
    plain, error = verdicts
    assert plain.decision is Decision.NONE
    assert error.denied and 'blocking because onFailure is "block"' in (error.reason or "")


@pytest.mark.anyio
async def test_an_mcp_tool_hook_calls_an_in_process_server(
        claude_kernel: KernelFactory, project: Path, tmp_path: Path) -> None:
    """The server lives in the host's own process (FastMCP's in-memory transport): the hook's
    call reaches it, and its answer denies in the hook's words."""
    from fastmcp import Client, FastMCP

    seen: list[str] = []
    server = FastMCP("policy")

    @server.tool
    def judge(command: str) -> str:
        """Deny what deletes."""
        seen.append(command)
        if "rm " not in command:
            return "{}"
        return json.dumps({"hookSpecificOutput": {
            "hookEventName": "PreToolUse", "permissionDecision": "deny",
            "permissionDecisionReason": f"policy refuses {command}"}})

    kernel = claude_kernel({"PreToolUse": [group(
        {"type": "mcp_tool", "server": "policy", "tool": "judge",
         "input": {"command": "${tool_input.command}"}}, matcher="Bash")]})
    async with Client(server) as client:
        kernel.parts = HostParts(mcp=McpSessions({"policy": client.session}))
        async with kernel.session(cwd=str(project)) as s:
            denied = await s.tool_pre("Bash", {"command": "rm -rf build"})
            allowed = await s.tool_pre("Bash", {"command": "ls"})
    assert seen == ["rm -rf build", "ls"]
    assert denied.denied and denied.reason == "policy refuses rm -rf build"
    assert allowed.decision is Decision.NONE and not allowed.hooks[0].diagnostics
