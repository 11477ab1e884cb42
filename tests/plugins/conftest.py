"""Claude Code and Codex hook suites shared by the runtime-adapter tests:
real scripts in a tmp project (pydantic-ai and LangChain)."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from hookwire import Kernel
from hookwire.dialects.claude.testing import group, write_settings

#: One Python hook script; ``argv[1]`` picks its behaviour. Every run appends its payload to
#: ``$HOOK_LOG`` so tests count firings and see what the hook saw.
HOOK = r'''
import json, os, sys, time
mode = sys.argv[1]
data = json.load(sys.stdin)
with open(os.environ["HOOK_LOG"], "a") as fh:
    fh.write(json.dumps({"mode": mode, **data}) + "\n")
def out(obj):
    print(json.dumps(obj)); sys.exit(0)
cmd = (data.get("tool_input") or {}).get("command", "")
if mode == "guard" and "rm -rf" in cmd:
    print("Blocked: rm -rf is not allowed in this project", file=sys.stderr); sys.exit(2)
if mode == "rewrite" and cmd.startswith("echo old"):
    out({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow",
         "updatedInput": {"command": cmd.replace("echo old", "echo new", 1)}}})
if mode == "ask" and "sudo" in cmd:
    out({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "ask",
         "permissionDecisionReason": "sudo needs a human"}})
if mode == "context":
    out({"hookSpecificOutput": {"hookEventName": "UserPromptSubmit",
         "additionalContext": "build id is 4242"}})
if mode == "stop":
    n = sum(1 for line in open(os.environ["HOOK_LOG"]) if '"mode": "stop"' in line)
    if n <= int(os.environ.get("STOP_BLOCKS", "2")):
        out({"decision": "block", "reason": f"not done yet ({n})"})
if mode == "batch_block":
    out({"decision": "block", "reason": f"enough tools for now ({len(data['tool_calls'])} calls)"})
if mode == "batch_context":
    seen = ",".join(str(c["tool_response"]).strip() for c in data["tool_calls"])
    out({"hookSpecificOutput": {"hookEventName": "PostToolBatch",
         "additionalContext": f"the batch returned: {seen}"}})
if mode == "halt" and "halt" in json.dumps(data):
    out({"continue": False, "stopReason": "the halt hook stopped everything"})
if mode == "deny_halt" and "halt" in json.dumps(data):
    out({"continue": False, "stopReason": "the deny_halt hook stopped everything",
         "hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny",
                                "permissionDecisionReason": "refused before halting"}})
if mode == "slow":
    time.sleep(30)
if mode == "say":
    print("tests run by hand"); sys.exit(0)
if mode == "post_block":
    out({"decision": "block", "reason": "lint failed"})
sys.exit(0)
'''


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    proj = tmp_path / "proj"
    proj.mkdir()
    (tmp_path / "hook.py").write_text(HOOK)
    monkeypatch.setenv("HOOK_LOG", str(tmp_path / "hooks.log"))
    return proj


@pytest.fixture
def claude(project: Path) -> Callable[..., Kernel]:
    """``claude(PreToolUse=[("guard", "bash")], Stop=["stop"])``: a kernel (every installed
    dialect, via entry points) reading that suite from ``.claude/settings.json``."""

    def make(**events: list[Any]) -> Kernel:
        script = project.parent / "hook.py"
        hooks: dict[str, Any] = {}
        for event, specs in events.items():
            groups = []
            for spec in specs:
                mode, matcher, timeout = (spec, None, None) if isinstance(spec, str) else (
                    *spec, None)[:3]
                handler: dict[str, Any] = {"type": "command",
                                           "command": f"{sys.executable} {script} {mode}"}
                if timeout is not None:
                    handler["timeout"] = timeout
                groups.append(group(handler, matcher=matcher))
            hooks[event] = groups
        kernel = Kernel()
        path = write_settings(project / ".claude" / "settings.json", hooks)
        result = kernel.add_config("claude", path)
        assert not getattr(result, "problems", ()), result
        return kernel

    return make


@pytest.fixture
def hook_log(project: Path) -> Callable[..., list[dict[str, Any]]]:
    """``hook_log(mode=None)``: the payloads the hooks received, in order."""

    def read(mode: str | None = None) -> list[dict[str, Any]]:
        path = project.parent / "hooks.log"
        if not path.exists():
            return []
        rows = [json.loads(line) for line in path.read_text().splitlines()]
        return [r for r in rows if mode is None or r["mode"] == mode]

    return read


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
def codex(project: Path) -> Callable[..., Kernel]:
    """``codex(PreToolUse=[("guard", "bash")])``: the same suite as a Codex ``hooks.json``."""

    def make(**events: list[tuple[str, str]]) -> Kernel:
        script = project.parent / "hook.py"
        hooks = {event: [{"matcher": matcher, "hooks": [
            {"type": "command", "command": f"{sys.executable} {script} {mode}"}]}
            for mode, matcher in specs] for event, specs in events.items()}
        path = project / ".codex" / "hooks.json"
        path.parent.mkdir(exist_ok=True)
        path.write_text(json.dumps({"hooks": hooks}))
        kernel = Kernel()
        kernel.add_config("codex", path)
        return kernel

    return make


#: The vocabulary acceptance suite (issue 11): a runtime whose shell tool is ``run_shell(cmd)``
#: and whose write tool is ``write_file(path, text)``, mapped once onto Claude Code's tools.
TOOL_MAPPING: dict[str, Any] = {
    "run_shell": {"as": "Bash", "input": {"command": "cmd"}},
    "write_file": {"as": "Write", "input": {"file_path": "path", "content": "text"}},
}


@pytest.fixture
def guarded(claude: Callable[..., Kernel]) -> Callable[[], Kernel]:
    """``guarded()``: a kernel with the user's unmodified ``.claude/settings.json``: a ``Bash``
    guard (exit 2 on ``rm -rf``), a ``Bash`` rewrite (``echo old`` → ``echo new``) and a
    ``Write`` hook (it logs the ``tool_input`` it saw, ``file_path`` included)."""
    return lambda: claude(PreToolUse=[("guard", "Bash"), ("rewrite", "Bash"),
                                      ("write", "Write")])


@pytest.fixture
def map_tools(project: Path) -> Callable[[Kernel, str], None]:
    """``map_tools(kernel, how)``: add :data:`TOOL_MAPPING` to ``kernel``, ``how`` being
    ``"code"`` (``kernel.map_tools``) or ``"hooks_file"`` (a ``.hookwire/hooks.yaml`` holding
    only a ``tools:`` key, loaded by ``hookwire.config.install``)."""

    def apply(kernel: Kernel, how: str) -> None:
        if how == "code":
            kernel.map_tools(TOOL_MAPPING)
            return
        assert how == "hooks_file", how
        from hookwire import config

        path = project / ".hookwire" / "hooks.yaml"
        path.parent.mkdir(exist_ok=True)
        path.write_text(f"version: 1\ntools: {json.dumps(TOOL_MAPPING)}\n")  # JSON is YAML
        home = project.parent / "xdg"
        config.install(kernel, cwd=project, env={"XDG_CONFIG_HOME": str(home),
                                                 "HOME": str(project.parent)})
        assert kernel.tools.get("run_shell") is not None

    return apply


class Verdicts:
    """The verdict of every seam a kernel folded, in order (a native plugin on the audit plane):
    what :func:`hookwire.render.render` is given, to compare the model's request with."""

    hookwire_name = "test-verdicts"

    def __init__(self) -> None:
        self.seen: list[Any] = []

    from hookwire import hookimpl as _hookimpl

    @_hookimpl
    def seam_verdict(self, event: Any, session: Any, verdict: Any) -> None:
        self.seen.append(verdict)

    def last(self, seam: Any) -> Any:
        return [v for v in self.seen if v.seam is seam][-1]


@pytest.fixture
def verdicts() -> Callable[[Kernel], Verdicts]:
    """``verdicts(kernel)``: record every folded verdict of ``kernel``."""

    def watch(kernel: Kernel) -> Verdicts:
        recorder = Verdicts()
        kernel.register(recorder)
        return recorder

    return watch


@pytest.fixture
def rendered() -> Callable[..., list[str]]:
    """``rendered(kernel, verdict, neutral=False, **subject)``: the texts
    :func:`hookwire.render.render` gives for ``verdict`` (``neutral``: hookwire's labelled
    form), to compare with what the model was sent."""
    from hookwire.render import Subject, render

    def texts(kernel: Kernel, verdict: Any, *, neutral: bool = False,
              **subject: Any) -> list[str]:
        return [t.text for t in render(verdict, kernel.dialect, Subject(**subject),
                                       neutral_form=neutral)]

    return texts


#: A stdio MCP server (FastMCP) with one tool, ``check(command)``: it logs each call to
#: ``argv[1]`` and answers with Claude Code hook output (a deny for ``rm``, else ``{}``).
GUARD_SERVER = r'''
import json, sys
from fastmcp import FastMCP
server = FastMCP("guard")
@server.tool
def check(command: str) -> str:
    """Check a shell command before it runs."""
    with open(sys.argv[1], "a") as fh:
        fh.write(command + "\n")
    if "rm " in command:
        return json.dumps({"hookSpecificOutput": {
            "hookEventName": "PreToolUse", "permissionDecision": "deny",
            "permissionDecisionReason": "the guard server refuses rm"}})
    return "{}"
server.run(show_banner=False)
'''


class FiveHandlers:
    """One ``.claude/settings.json`` holding a ``Bash`` PreToolUse hook of each of Claude Code's
    five handler types: a command script, an http hook (a local server), a prompt hook, an
    agent hook and an mcp_tool hook (``guard:check`` on a stdio MCP server)."""

    PROMPT = "Is this call safe? $ARGUMENTS"
    AGENT = "Check the call against POLICY.md: $ARGUMENTS"

    def __init__(self, root: Path) -> None:
        import threading
        from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

        self.root = root
        self.http_bodies: list[bytes] = []
        bodies = self.http_bodies

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                bodies.append(self.rfile.read(int(self.headers["Content-Length"])))
                self.send_response(200)
                self.send_header("Content-Length", "2")
                self.end_headers()
                self.wfile.write(b"{}")

            def log_message(self, *args: Any) -> None:
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()
        (root / "guard_server.py").write_text(GUARD_SERVER)
        (root / "command_hook.sh").write_text(  # one payload a line (each ends in \n)
            '#!/bin/sh\ncat >> "$(dirname "$0")/command.log"\n')
        (root / "command_hook.sh").chmod(0o755)

    @property
    def mcp_argv(self) -> list[str]:
        """How to start the MCP server (stdio)."""
        return [sys.executable, str(self.root / "guard_server.py"), str(self.root / "mcp.log")]

    def read(self, name: str) -> list[str]:
        path = self.root / name
        return path.read_text().splitlines() if path.exists() else []

    def kernel(self, project: Path) -> Kernel:
        (project / "POLICY.md").write_text("Commands that delete files are forbidden.\n")
        hooks = {"PreToolUse": [group(
            {"type": "command", "command": str(self.root / "command_hook.sh")},
            {"type": "http", "url": f"http://127.0.0.1:{self.httpd.server_address[1]}/hook"},
            {"type": "prompt", "prompt": self.PROMPT},
            {"type": "agent", "prompt": self.AGENT},
            {"type": "mcp_tool", "server": "guard", "tool": "check",
             "input": {"command": "${tool_input.command}"}},
            matcher="Bash")]}
        kernel = Kernel()
        result = kernel.add_config("claude", write_settings(
            project / ".claude" / "settings.json", hooks))
        assert not result.problems, result.problems
        return kernel

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture
def five_handlers(tmp_path: Path) -> Any:
    """:class:`FiveHandlers` in ``tmp_path`` (its HTTP server stopped at the end)."""
    made = FiveHandlers(tmp_path)
    yield made
    made.close()
