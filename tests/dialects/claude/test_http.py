"""``type: "http"`` handlers against a real local HTTP server."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from hookwire import Decision, Kernel
from hookwire.dialects.claude.testing import group

KernelFactory = Callable[..., Kernel]


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


class Server:
    """Answers each POST with the next queued (status, body); records requests."""

    def __init__(self) -> None:
        self.replies: list[tuple[int, bytes]] = []
        self.requests: list[tuple[dict[str, str], bytes]] = []
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers["Content-Length"]))
                outer.requests.append((dict(self.headers), body))
                status, reply = outer.replies.pop(0) if outer.replies else (200, b"")
                self.send_response(status)
                self.send_header("Content-Length", str(len(reply)))
                self.end_headers()
                self.wfile.write(reply)

            def log_message(self, *args: Any) -> None:
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/hook"


@pytest.fixture
def server() -> Iterator[Server]:
    srv = Server()
    thread = threading.Thread(target=srv.httpd.serve_forever, daemon=True)
    thread.start()
    yield srv
    srv.httpd.shutdown()
    srv.httpd.server_close()


def http(url: str, **more: Any) -> dict[str, Any]:
    return {"type": "http", "url": url, **more}


async def fire(kernel: Kernel, project: Path) -> Any:
    async with kernel.session(cwd=str(project), project_dir=str(project),
                              session_id="s") as s:
        return await s.tool_pre("Bash", {"command": "ls"}, tool_use_id="t1")


@pytest.mark.anyio
async def test_http_hook_posts_the_payload_and_its_json_decides(
        server: Server, claude_kernel: KernelFactory, project: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOOK_TOKEN", "sekret")
    monkeypatch.setenv("OTHER", "leak")
    server.replies.append((200, json.dumps({"hookSpecificOutput": {
        "hookEventName": "PreToolUse", "permissionDecision": "deny",
        "permissionDecisionReason": "from http"}}).encode()))
    kernel = claude_kernel({"PreToolUse": [group(http(
        server.url, headers={"Authorization": "Bearer $HOOK_TOKEN", "X-Other": "${OTHER}"},
        allowedEnvVars=["HOOK_TOKEN"]))]})
    verdict = await fire(kernel, project)
    assert verdict.decision is Decision.DENY and verdict.reason == "from http"
    headers, body = server.requests[0]
    assert headers["Content-Type"] == "application/json"
    assert headers["Authorization"] == "Bearer sekret" and headers["X-Other"] == ""
    assert body.endswith(b'"tool_use_id":"t1"}\n')
    assert json.loads(body)["hook_event_name"] == "PreToolUse"


@pytest.mark.anyio
@pytest.mark.parametrize(("status", "body"), [
    (200, b""), (200, b"plain text"), (500, b'{"decision":"block"}'), (204, b""),
])
async def test_http_hooks_never_block_by_status(server: Server, claude_kernel: KernelFactory,
                                                project: Path, status: int,
                                                body: bytes) -> None:
    server.replies.append((status, body))
    verdict = await fire(claude_kernel({"PreToolUse": [group(http(server.url))]}), project)
    assert verdict.decision is Decision.NONE and not verdict.contexts


@pytest.mark.anyio
async def test_http_connection_failure_is_non_blocking_unless_on_failure_block(
        claude_kernel: KernelFactory, project: Path) -> None:
    url = "http://127.0.0.1:9/unreachable"
    verdict = await fire(claude_kernel({"PreToolUse": [group(http(url))]}), project)
    assert verdict.decision is Decision.NONE
    assert "request failed" in verdict.hooks[0].diagnostics[0]
    kernel = claude_kernel({"PreToolUse": [group(http(url, onFailure="block"))]})
    assert (await fire(kernel, project)).denied
