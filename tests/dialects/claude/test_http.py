"""``type: "http"`` handlers, run in process, against real local HTTP servers on 127.0.0.1:
the request, the answers, the allowlists of the settings, timeouts, cancellation, the cap."""

from __future__ import annotations

import json
import socket
import threading
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import anyio
import pytest

from hookwire import Decision, Kernel
from hookwire.dialects.claude import ClaudeDialect
from hookwire.dialects.claude.testing import group, write_settings

KernelFactory = Callable[..., Kernel]


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


class Server:
    """Answers each request with the next queued (status, body, headers); records the
    method, path, headers and body of each."""

    def __init__(self) -> None:
        self.replies: list[tuple[int, bytes, dict[str, str]]] = []
        self.requests: list[tuple[dict[str, str], bytes]] = []
        self.paths: list[tuple[str, str]] = []
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                outer.requests.append((dict(self.headers), body))
                outer.paths.append((self.command, self.path))
                status, reply, more = (outer.replies.pop(0) if outer.replies
                                       else (200, b"", {}))
                self.send_response(status)
                self.send_header("Content-Length", str(len(reply)))
                for name, value in more.items():
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(reply)

            do_GET = do_POST

            def log_message(self, *args: Any) -> None:
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.base = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        self.url = self.base + "/hook"

    def reply(self, status: int, body: bytes = b"", **headers: str) -> None:
        self.replies.append((status, body, headers))


@pytest.fixture
def server() -> Iterator[Server]:
    srv = Server()
    thread = threading.Thread(target=srv.httpd.serve_forever, kwargs={"poll_interval": 0.05},
                              daemon=True)
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
    server.reply(200, json.dumps({"hookSpecificOutput": {
        "hookEventName": "PreToolUse", "permissionDecision": "deny",
        "permissionDecisionReason": "from http"}}).encode())
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
    server.reply(status, body)
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


class Silent:
    """A server that reads a request and never answers; ``got`` is set once a request came."""

    def __init__(self) -> None:
        self.sock = socket.create_server(("127.0.0.1", 0))
        self.port = self.sock.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}/hook"
        self.got = threading.Event()
        self.held: list[socket.socket] = []
        threading.Thread(target=self.serve, daemon=True).start()

    def serve(self) -> None:
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            self.held.append(conn)
            if conn.recv(65536):
                self.got.set()

    def close(self) -> None:
        self.sock.close()
        for conn in self.held:
            conn.close()


@pytest.fixture
def silent() -> Iterator[Silent]:
    srv = Silent()
    yield srv
    srv.close()


def connections_to(port: int) -> int:
    """How many sockets of this process are connected to 127.0.0.1:``port`` (Linux /proc)."""
    mine = set()
    for fd in Path("/proc/self/fd").iterdir():
        try:
            target = fd.readlink().name
        except OSError:
            continue
        if target.startswith("socket:["):
            mine.add(target[8:-1])
    count = 0
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        fields = line.split()
        remote_port = int(fields[2].split(":")[1], 16)
        if remote_port == port and fields[9] in mine and fields[3] != "0A":  # 0A: listening
            count += 1
    return count


def kernel_with(*files: Path, **kw: Any) -> Kernel:
    kernel = Kernel(load_entry_points=False, **kw)
    kernel.add_dialect(ClaudeDialect())
    for path in files:
        kernel.add_config("claude", path)
    return kernel


@pytest.mark.anyio
async def test_the_request_is_one_post_and_the_hooks_own_content_length_is_ignored(
        server: Server, claude_kernel: KernelFactory, project: Path) -> None:
    kernel = claude_kernel({"PreToolUse": [group(http(
        server.url, headers={"Content-Length": "1", "X-Hook": "yes"}))]})
    await fire(kernel, project)
    (headers, body), = server.requests
    assert server.paths == [("POST", "/hook")]
    assert headers["X-Hook"] == "yes" and headers["Content-Length"] == str(len(body))
    assert json.loads(body)["tool_input"] == {"command": "ls"}


@pytest.mark.anyio
async def test_a_url_the_allowlist_does_not_match_is_not_called_and_is_reported(
        server: Server, claude_kernel: KernelFactory, project: Path) -> None:
    server.reply(200, b'{"decision": "block", "reason": "allowed hook"}')
    kernel = claude_kernel(
        {"PreToolUse": [group(http(server.base + "/allowed/one"),
                              http(server.base + "/refused"))]},
        allowedHttpHookUrls=[server.base + "/allowed/*"])
    verdict = await fire(kernel, project)
    assert server.paths == [("POST", "/allowed/one")]
    assert verdict.denied and "allowed hook" in (verdict.reason or "")
    (refused,) = [h for h in verdict.hooks if h.command.endswith("/refused")]
    assert refused.outcome == "failed_to_start"
    assert "is not allowed by allowedHttpHookUrls" in refused.diagnostics[0]
    assert "hook_no_verdict" in refused.diagnostics[1]


@pytest.mark.anyio
async def test_allowlists_join_across_settings_files_and_an_empty_one_allows_none(
        server: Server, project: Path, tmp_path: Path) -> None:
    hooks = {"PreToolUse": [group(http(server.base + "/a"), http(server.base + "/b"))]}
    user = write_settings(tmp_path / "user.json", None, allowedHttpHookUrls=[server.base + "/a"])
    proj = write_settings(tmp_path / "proj.json", hooks, allowedHttpHookUrls=[server.base + "/b"])
    await fire(kernel_with(user, proj), project)
    assert sorted(server.paths) == [("POST", "/a"), ("POST", "/b")]
    server.paths.clear()
    none = write_settings(tmp_path / "none.json", hooks, allowedHttpHookUrls=[])
    verdict = await fire(kernel_with(none), project)
    assert server.paths == [] and [h.outcome for h in verdict.hooks] == ["failed_to_start"] * 2


@pytest.mark.anyio
async def test_the_settings_env_var_allowlist_narrows_what_a_header_interpolates(
        server: Server, claude_kernel: KernelFactory, project: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOOK_TOKEN", "sekret")
    monkeypatch.setenv("TEAM", "blue")
    kernel = claude_kernel({"PreToolUse": [group(http(
        server.url, headers={"Authorization": "Bearer $HOOK_TOKEN", "X-Team": "${TEAM}!"},
        allowedEnvVars=["HOOK_TOKEN", "TEAM"]))]}, httpHookAllowedEnvVars=["HOOK_TOKEN"])
    await fire(kernel, project)
    (headers, _), = server.requests
    assert headers["Authorization"] == "Bearer sekret" and headers["X-Team"] == "!"


@pytest.mark.anyio
async def test_a_redirect_is_not_followed(server: Server, claude_kernel: KernelFactory,
                                          project: Path) -> None:
    server.reply(302, b"", Location=server.base + "/elsewhere")
    verdict = await fire(claude_kernel({"PreToolUse": [group(http(server.url))]}), project)
    assert server.paths == [("POST", "/hook")]
    assert verdict.decision is Decision.NONE
    assert "HTTP hook returned status 302" in verdict.hooks[0].diagnostics[0]


@pytest.mark.anyio
async def test_a_body_over_the_output_cap_decides_nothing(server: Server, project: Path,
                                                          tmp_path: Path) -> None:
    deny = {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny",
                                   "permissionDecisionReason": "x" * 200}}
    server.reply(200, json.dumps(deny).encode())
    path = write_settings(tmp_path / "s.json", {"PreToolUse": [group(http(server.url))]})
    verdict = await fire(kernel_with(path, output_cap=100), project)
    assert verdict.decision is Decision.NONE
    assert verdict.hooks[0].outcome == "over_cap"
    assert "more output than hookwire keeps" in verdict.hooks[0].diagnostics[0]


@pytest.mark.anyio
async def test_a_server_that_never_answers_times_out_and_its_connection_is_closed(
        silent: Silent, claude_kernel: KernelFactory, project: Path) -> None:
    kernel = claude_kernel({"PreToolUse": [group(http(silent.url, timeout=0.5))]})
    verdict = await fire(kernel, project)
    assert silent.got.is_set()
    assert verdict.decision is Decision.NONE and verdict.hooks[0].timed_out
    assert "hook timed out" in verdict.hooks[0].diagnostics[0]
    assert connections_to(silent.port) == 0


@pytest.mark.anyio
async def test_a_cancelled_run_leaves_no_open_connection(
        silent: Silent, claude_kernel: KernelFactory, project: Path) -> None:
    kernel = claude_kernel({"PreToolUse": [group(http(silent.url))]})
    async with (kernel.session(cwd=str(project), project_dir=str(project)) as s,
                anyio.create_task_group() as tg):
        tg.start_soon(s.tool_pre, "Bash", {"command": "ls"})
        assert await anyio.to_thread.run_sync(silent.got.wait, 60)
        during = connections_to(silent.port)
        tg.cancel_scope.cancel()
    assert during == 1 and connections_to(silent.port) == 0


def test_default_timeouts_are_a_command_hooks(tmp_path: Path) -> None:
    from hookwire.events import SessionInfo

    path = write_settings(tmp_path / "s.json", {
        "PreToolUse": [group(http("http://127.0.0.1:1/a"))],
        "UserPromptSubmit": [group(http("http://127.0.0.1:1/b"))]})
    dialect = ClaudeDialect()
    session = SessionInfo(session_id="s", cwd=str(tmp_path), project_dir=str(tmp_path))
    pre, prompt = dialect.read_config(path).entries
    timeouts = [dialect.prepare(e, dialect.event_from_wire(e.event, data), e.event,
                                session).command.timeout
                for e, data in ((pre, {"tool_name": "Bash", "tool_input": {}}),
                                (prompt, {"prompt": "hi"}))]
    assert timeouts == [600, 30]


@pytest.mark.anyio
@pytest.mark.parametrize("anyio_backend", ["trio"])
async def test_on_trio_too_an_answer_decides_and_a_silent_server_is_let_go(
        server: Server, silent: Silent, claude_kernel: KernelFactory, project: Path) -> None:
    server.reply(200, b'{"decision": "block", "reason": "from trio"}')
    kernel = claude_kernel({"PreToolUse": [group(http(server.url)),
                                           group(http(silent.url, timeout=0.5))]})
    verdict = await fire(kernel, project)
    assert verdict.denied and "from trio" in (verdict.reason or "")
    assert silent.got.is_set() and connections_to(silent.port) == 0
