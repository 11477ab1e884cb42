"""Codex ``type: "mcp_tool"`` hooks on real MCP servers the host lends (``McpSessions``): a
stdio FastMCP server written to ``tmp_path``, and FastMCP servers in the test's own process
(in-memory transport). The tool's text is read as Codex reads a command hook's stdout."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import AsyncIterator, Mapping
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("mcp")
pytest.importorskip("fastmcp")

from fastmcp import Client, FastMCP
from mcp import ClientSession, StdioServerParameters, stdio_client

from hookwire import Decision, Kernel, Verdict
from hookwire.dialect import ProblemKind
from hookwire.dialects.codex import CodexDialect
from hookwire.hostparts import HostParts
from hookwire.plugins._mcp import McpSessions

from .conftest import hooks_json

SERVER = r'''
import json
from fastmcp import FastMCP
server = FastMCP("guard")
@server.tool
def deny(reason: str) -> str:
    """Answer as a Codex PreToolUse hook that denies."""
    return json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse",
        "permissionDecision": "deny", "permissionDecisionReason": reason}})
server.run(show_banner=False)
'''

BASH = {"turn_id": "t", "tool_name": "Bash", "tool_input": {"command": "rm -rf /"},
        "tool_use_id": "c1"}
#: A call of an MCP tool, whose input Codex passes on as the model wrote it.
MCP_CALL = {"turn_id": "t", "tool_name": "mcp__db__query",
            "tool_input": {"sql": "select 1", "limit": 3, "dry": True}, "tool_use_id": "c2"}


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def mcp(tool: str, server: str = "guard", **input: Any) -> dict[str, Any]:
    return {"type": "mcp_tool", "server": server, "tool": tool, "input": input}


async def fire(tmp_path: Path, doc: Mapping[str, Any], event: str, data: Mapping[str, Any],
               parts: HostParts | None = None) -> Verdict:
    path = tmp_path / "hooks.json"
    path.write_text(json.dumps(doc))
    kernel = Kernel(load_entry_points=False)
    dialect = CodexDialect(codex_home=tmp_path, spill_dir=tmp_path / "spill")
    kernel.add_dialect(dialect)
    kernel.add_config("codex", path)
    if parts is not None:
        kernel.parts = parts
    async with kernel.session(cwd=str(tmp_path), session_id="thread-1") as s:
        return await s.dispatch(dialect.event_from_wire(event, data))


def recorder(seen: list[Any]) -> FastMCP:
    """An in-process server whose ``see`` tool records its ``value`` argument (with its
    JSON type) and answers ``{}``; its ``fail`` tool always answers an error."""
    server: FastMCP = FastMCP("guard")

    @server.tool
    def see(value: Any) -> str:
        """Record what came."""
        seen.append(value)
        return "{}"

    @server.tool
    def fail(text: str) -> str:
        """Always an error result."""
        raise ValueError(f"refused: {text}")

    return server


async def lent(server: FastMCP) -> AsyncIterator[HostParts]:
    async with Client(server) as client:
        yield HostParts(mcp=McpSessions({"guard": client.session}))


@pytest.mark.anyio
async def test_an_mcp_tool_hook_denies_through_a_stdio_servers_answer(tmp_path: Path) -> None:
    (tmp_path / "server.py").write_text(SERVER)
    params = StdioServerParameters(command=sys.executable, args=[str(tmp_path / "server.py")])
    doc = hooks_json("PreToolUse", mcp("deny", reason="no ${tool_input.command} here"),
                     matcher="Bash")
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        verdict = await fire(tmp_path, doc, "PreToolUse", BASH,
                             HostParts(mcp=McpSessions({"guard": session})))
    assert verdict.decision is Decision.DENY and verdict.reason == "no rm -rf / here"
    assert not verdict.hooks[0].diagnostics


@pytest.mark.anyio
async def test_a_whole_string_placeholder_keeps_its_json_type(tmp_path: Path) -> None:
    """Codex 0.171.0: ``"${tool_input}"`` arrives as the object, ``"${tool_input.limit}"`` as
    the number, ``"${tool_input.dry}"`` as the boolean, a placeholder inside a longer string
    as text (JSON for a non-string)."""
    seen: list[Any] = []
    doc = hooks_json("PreToolUse", *(mcp("see", value=v) for v in (
        "${tool_input}", "${tool_input.limit}", "${tool_input.dry}",
        "limit=${tool_input.limit} dry=${tool_input.dry} ${tool_name}")))
    async for parts in lent(recorder(seen)):
        verdict = await fire(tmp_path, doc, "PreToolUse", MCP_CALL, parts)
    assert sorted(map(json.dumps, seen)) == sorted(map(json.dumps, [
        {"sql": "select 1", "limit": 3, "dry": True}, 3, True,
        "limit=3 dry=true mcp__db__query"]))
    assert verdict.decision is Decision.NONE
    assert [h.diagnostics for h in verdict.hooks] == [()] * 4


@pytest.mark.anyio
async def test_a_placeholder_naming_nothing_is_a_hook_error_and_the_tool_is_not_called(
        tmp_path: Path) -> None:
    seen: list[Any] = []
    doc = hooks_json("PreToolUse", mcp("see", value="${tool_input.nowhere}"))
    async for parts in lent(recorder(seen)):
        verdict = await fire(tmp_path, doc, "PreToolUse", BASH, parts)
    assert seen == []
    assert verdict.decision is Decision.NONE  # a failed hook does not block, as in Codex
    (hook,) = verdict.hooks
    assert hook.diagnostics == ("hook failed: mcp_tool hook input placeholder "
                                "${tool_input.nowhere} names no value of the hook input",)


@pytest.mark.anyio
async def test_an_error_result_or_an_unknown_server_is_a_hook_error(tmp_path: Path) -> None:
    doc = hooks_json("PreToolUse", mcp("fail", text="x"), mcp("see", server="gone", value=1))
    async for parts in lent(recorder([])):
        verdict = await fire(tmp_path, doc, "PreToolUse", BASH, parts)
    assert verdict.decision is Decision.NONE
    gone, error = sorted(d for h in verdict.hooks for d in h.diagnostics)
    assert error.startswith("hook failed: MCP tool guard:fail returned an error")
    assert "refused: x" in error
    assert gone == "hook failed: MCP server 'gone' is not connected (connected: guard)"


@pytest.mark.anyio
async def test_plain_text_on_user_prompt_submit_is_context_as_a_commands_stdout(
        tmp_path: Path) -> None:
    server: FastMCP = FastMCP("guard")

    @server.tool
    def say(text: str) -> str:
        """Answer plain text."""
        return text

    doc = hooks_json("UserPromptSubmit", mcp("say", text="you said ${prompt}"))
    async for parts in lent(server):
        verdict = await fire(tmp_path, doc, "UserPromptSubmit", {"turn_id": "t",
                                                                 "prompt": "hi"}, parts)
    assert [c.text for c in verdict.contexts] == ["you said hi"]


@pytest.mark.anyio
async def test_without_mcp_lent_the_hook_is_reported_not_started(tmp_path: Path) -> None:
    doc = hooks_json("PreToolUse", mcp("see", value=1))
    verdict = await fire(tmp_path, doc, "PreToolUse", BASH)
    assert verdict.decision is Decision.NONE
    (hook,) = verdict.hooks
    assert hook.outcome == "failed_to_start"
    assert "no MCP client" in hook.diagnostics[0]


def test_loading_rejects_session_end_and_a_blank_server_or_tool(tmp_path: Path) -> None:
    path = tmp_path / "hooks.json"
    path.write_text(json.dumps({"hooks": {
        "SessionEnd": [{"hooks": [mcp("see")]}],
        "Stop": [{"hooks": [mcp("see", server=" "), {**mcp("see"), "tool": ""}, mcp("see")]}]}}))
    result = CodexDialect(codex_home=tmp_path).read_config(path)
    assert [p.message for p in result.problems] == [
        f"skipping MCP tool hook in {path}: SessionEnd MCP hooks are not supported",
        f"skipping MCP tool hook in {path}: server and tool must not be empty",
        f"skipping MCP tool hook in {path}: server and tool must not be empty"]
    assert {p.kind for p in result.problems} == {ProblemKind.INVALID_HANDLER}
    (entry,) = result.entries
    assert entry.event == "Stop" and entry.display == "guard:see"
    assert entry.timeout == 600 and entry.handler.handler_index == 2
    assert CodexDialect().runs_on(entry) == "mcp"
    assert "stays in Codex's file" in (CodexDialect().export(entry).rejected or "")


def test_check_shows_mcp_tool_hooks_on_the_hosts_mcp_sessions_or_not_lent(
        tmp_path: Path) -> None:
    """The real ``hookwire check`` on a Codex file named in hookwire's config: an mcp_tool
    hook Codex trusts is 'not lent' on a host without MCP sessions, runs 'on the host's MCP
    session' on one that lends them; the command hook beside it runs on both."""
    home, root = tmp_path / "home", tmp_path / "proj"
    (home / ".config").mkdir(parents=True)
    (root / ".hookwire").mkdir(parents=True)
    (root / "hooks.json").write_text(json.dumps(hooks_json(
        "PreToolUse", mcp("see", value="${tool_input}"), "true", matcher="Bash")))
    (root / ".hookwire" / "hooks.yaml").write_text(
        "version: 1\nsources:\n  - {dialect: codex, path: hooks.json}\n")
    env = {**os.environ, "HOME": str(home), "XDG_CONFIG_HOME": str(home / ".config"),
           "CODEX_HOME": str(home / ".codex")}

    def statuses(host: str) -> list[tuple[str, str]]:
        out = subprocess.run([sys.executable, "-m", "hookwire.cli", "check", "--json",
                              "--host", host], cwd=root, env=env, capture_output=True,
                             text=True, timeout=60).stdout
        rows = [r for r in json.loads(out)["hooks"] if r["dialect"] == "codex"]
        return [(r["status"], r["detail"]) for r in rows]

    # Codex's own trust record (config.toml's [hooks.state]) trusts both hooks
    read = CodexDialect(codex_home=home / ".codex").read_config(root / "hooks.json")
    (home / ".codex").mkdir()
    (home / ".codex" / "config.toml").write_text("".join(
        f'[hooks.state.{json.dumps(e.handler.key)}]\ntrusted_hash = "{e.handler.hash}"\n'
        for e in read.entries))
    (mcp_hook, command) = statuses("reference")
    assert mcp_hook[0] == "not lent" and "MCP session" in mcp_hook[1]
    assert command[0] == "runs"
    (mcp_hook, command) = statuses("pydantic-ai")
    assert mcp_hook[0] == "runs" and "on the host's MCP session" in mcp_hook[1]
    assert command[0] == "runs"
