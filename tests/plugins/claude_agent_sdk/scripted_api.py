"""A scripted Anthropic Messages API on 127.0.0.1 for the real Claude Code CLI the Claude
Agent SDK bundles (standard library only). Each ``POST …/v1/messages`` is recorded and
answered, streamed, with the content blocks ``respond(body)`` gives (text and ``tool_use``
blocks); ``…/count_tokens`` gets a fixed count."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

Block = dict[str, Any]

#: The CLI's environment for a run against this API: no traffic to any other address.
OFFLINE = {"ANTHROPIC_API_KEY": "sk-ant-kit", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
           "DISABLE_TELEMETRY": "1", "DISABLE_AUTOUPDATER": "1", "DISABLE_ERROR_REPORTING": "1"}


def text(value: str) -> Block:
    return {"type": "text", "text": value}


def tool_use(call_id: str, name: str, args: dict[str, Any]) -> Block:
    return {"type": "tool_use", "id": call_id, "name": name, "input": args}


class ScriptedAPI(ThreadingHTTPServer):
    """``with ScriptedAPI(respond) as api:`` serves on :attr:`url` until the block ends;
    :attr:`requests` holds every message request's body."""

    daemon_threads = True

    def __init__(self, respond: Callable[[dict[str, Any]], list[Block]]) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.respond = respond
        self.requests: list[dict[str, Any]] = []
        self.lock = threading.Lock()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}"

    def env(self, home: str) -> dict[str, str]:
        """The CLI's environment: this API, a fresh home, nothing else contacted."""
        return {**OFFLINE, "ANTHROPIC_BASE_URL": self.url, "HOME": home,
                "CLAUDE_CONFIG_DIR": f"{home}/.claude"}

    def __enter__(self) -> ScriptedAPI:
        threading.Thread(target=self.serve_forever, daemon=True).start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.shutdown()
        self.server_close()


class _Handler(BaseHTTPRequestHandler):
    server: ScriptedAPI

    def log_message(self, *args: Any) -> None:
        pass

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers.get("content-length", 0))) or b"{}")
        if "count_tokens" in self.path:
            return self._send("application/json", json.dumps({"input_tokens": 10}).encode())
        with self.server.lock:  # the script is answered in the order requests arrive
            self.server.requests.append(body)
            blocks = self.server.respond(body)
        calls = any(b["type"] == "tool_use" for b in blocks)
        message = {"id": "msg_kit", "type": "message", "role": "assistant",
                   "model": body.get("model", "kit"), "content": [], "stop_reason": None,
                   "stop_sequence": None, "usage": {"input_tokens": 10, "output_tokens": 1}}
        events: list[tuple[str, dict[str, Any]]] = [("message_start", {"message": message})]
        for index, block in enumerate(blocks):
            if block["type"] == "text":
                start, delta = {**block, "text": ""}, {"type": "text_delta", "text": block["text"]}
            else:
                start = {**block, "input": {}}
                delta = {"type": "input_json_delta", "partial_json": json.dumps(block["input"])}
            events += [("content_block_start", {"index": index, "content_block": start}),
                       ("content_block_delta", {"index": index, "delta": delta}),
                       ("content_block_stop", {"index": index})]
        events += [("message_delta", {"delta": {"stop_reason": "tool_use" if calls else "end_turn",
                                                "stop_sequence": None},
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
