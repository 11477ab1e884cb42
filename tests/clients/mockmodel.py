"""A scripted model on 127.0.0.1 for the real-client runs (``nox -s clients``), standard
library only.

It speaks just enough of each client's model API for one scripted exchange: the first request
that offers a shell tool is answered with one call of it (``echo hi``); a request that carries
that call's result is answered with a final text; any other request (titles, quota probes,
routing checks) with a short text. Streaming (SSE) and plain JSON answers.

- Anthropic Messages (``POST …/v1/messages``, ``…/count_tokens``): Claude Code.
- OpenAI Responses (``POST …/responses``): Codex.
- Gemini ``generateContent`` / ``streamGenerateContent?alt=sse`` / ``countTokens``: Gemini CLI.
- OpenAI Chat Completions (``POST …/chat/completions``, ``GET …/models``): OpenAI-compatible
  providers.

The same port is also given to the client as its HTTP(S) proxy: a ``CONNECT`` or an
absolute-URI request is some address other than 127.0.0.1, which is refused (403) and recorded
in :attr:`MockModel.outside`.
"""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

COMMAND = "echo hi"
FINAL = "All done: the command printed hi."
SHELL_TOOLS = ("Bash", "exec_command", "shell", "run_shell_command", "bash", "execute_command",
               "run_commands")


def _command_args(schema: Any) -> dict[str, Any]:
    """Arguments for a shell tool whose JSON schema is ``schema``: the command under the name
    the schema uses (``command`` or ``cmd``; a one-item list for an array ``commands``, Cline's
    ``run_commands``), plus any other required string."""
    props = (schema or {}).get("properties") or {}
    args: dict[str, Any]
    if "commands" in props and "command" not in props:
        args = {"commands": [COMMAND]}
    else:
        args = {"cmd" if "cmd" in props and "command" not in props else "command": COMMAND}
    for name in (schema or {}).get("required") or []:
        if name not in args and (props.get(name) or {}).get("type") == "string":
            args[name] = "print hi" if name == "description" else "false"
        elif name not in args and (props.get(name) or {}).get("type") == "boolean":
            args[name] = False
    return args


class MockModel(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, gemini_calls: list[tuple[str, dict[str, Any]]] | None = None) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        #: a scripted Gemini exchange instead of the one ``echo hi`` call: the function calls
        #: to make, one per model request, while fewer function responses than calls are in
        #: the conversation (the Gemini CLI hook recordings, tests/dialects/gemini)
        self.gemini_calls = gemini_calls
        self.requests: list[tuple[str, str, Any]] = []
        self.outside: list[str] = []
        self.tool_calls = 0
        self._lock = threading.Lock()
        self._thread = threading.Thread(target=self.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}"

    def __enter__(self) -> MockModel:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.shutdown()
        self.server_close()
        self._thread.join()

    def record(self, method: str, path: str, body: Any) -> None:
        with self._lock:
            self.requests.append((method, path, body))


class _Handler(BaseHTTPRequestHandler):
    server: MockModel

    def log_message(self, *args: Any) -> None:
        pass

    # -- anything that is not for 127.0.0.1 -------------------------------------------------

    def do_CONNECT(self) -> None:
        self.server.outside.append(f"CONNECT {self.path}")
        self.send_error(403)

    def _outside(self) -> bool:
        if self.path.startswith(("http://", "https://")):
            self.server.outside.append(f"{self.command} {self.path}")
            self.send_error(403)
            return True
        return False

    # -- the APIs -----------------------------------------------------------------------------

    def do_GET(self) -> None:
        if self._outside():
            return
        self.server.record("GET", self.path, None)
        if self.path.rstrip("/").endswith("/models"):
            self._json({"object": "list", "data": [{"id": "mock-model", "object": "model",
                                                    "owned_by": "mock", "created": 0}]})
        else:
            self.send_error(404)

    def do_HEAD(self) -> None:
        if not self._outside():
            self.send_response(200)
            self.end_headers()

    def do_POST(self) -> None:
        if self._outside():
            return
        raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        try:
            body = json.loads(raw or b"{}")
        except ValueError:
            body = {"raw": raw.decode("utf-8", "replace")}
        self.server.record("POST", self.path, body)
        path = self.path.split("?")[0]
        if path.endswith("/count_tokens"):
            self._json({"input_tokens": 10})
        elif path.endswith("/messages"):
            self._anthropic(body)
        elif path.endswith("/responses"):
            self._responses(body)
        elif path.endswith(":countTokens"):
            self._json({"totalTokens": 10})
        elif path.endswith((":generateContent", ":streamGenerateContent")):
            self._gemini(body, stream=path.endswith(":streamGenerateContent"))
        elif path.endswith("/chat/completions"):
            self._chat(body)
        else:
            self.send_error(404)

    # -- writers ------------------------------------------------------------------------------

    def _json(self, doc: Any) -> None:
        data = json.dumps(doc).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def _sse(self, events: list[tuple[str | None, Any]]) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.end_headers()
        for name, data in events:
            head = f"event: {name}\n" if name else ""
            text = data if isinstance(data, str) else json.dumps(data)
            self.wfile.write(f"{head}data: {text}\n\n".encode())
        self.wfile.flush()

    def _call(self) -> int:
        with self.server._lock:
            self.server.tool_calls += 1
            return self.server.tool_calls

    # -- Anthropic Messages -------------------------------------------------------------------

    def _anthropic(self, body: dict[str, Any]) -> None:
        messages = body.get("messages") or []
        # answered once any tool result is in the conversation: a hook's context may follow
        # the result (in its message or a later one)
        answered = any(isinstance(m, dict) and isinstance(m.get("content"), list) and any(
            isinstance(b, dict) and b.get("type") == "tool_result" for b in m["content"])
            for m in messages)
        tools = {t.get("name"): t for t in body.get("tools") or [] if isinstance(t, dict)}
        model = body.get("model", "mock-model")
        if "Bash" in tools and not answered:
            n = self._call()
            block: dict[str, Any] = {"type": "tool_use", "id": f"toolu_mock{n:04d}",
                                     "name": "Bash", "input": {}}
            args = _command_args(tools["Bash"].get("input_schema"))
            content = [{**block, "input": args}]
            stop = "tool_use"
        else:
            content = [{"type": "text", "text": FINAL if answered else "ok"}]
            stop = "end_turn"
        usage = {"input_tokens": 10, "output_tokens": 5, "cache_creation_input_tokens": 0,
                 "cache_read_input_tokens": 0}
        message = {"id": "msg_mock", "type": "message", "role": "assistant", "model": model,
                   "content": content, "stop_reason": stop, "stop_sequence": None,
                   "usage": usage}
        if not body.get("stream"):
            self._json(message)
            return
        events: list[tuple[str | None, Any]] = [
            ("message_start", {"type": "message_start",
                               "message": {**message, "content": [], "stop_reason": None}})]
        for i, b in enumerate(content):
            if b["type"] == "tool_use":
                start = {**b, "input": {}}
                delta = {"type": "input_json_delta", "partial_json": json.dumps(b["input"])}
            else:
                start = {"type": "text", "text": ""}
                delta = {"type": "text_delta", "text": b["text"]}
            events += [("content_block_start", {"type": "content_block_start", "index": i,
                                                "content_block": start}),
                       ("content_block_delta", {"type": "content_block_delta", "index": i,
                                                "delta": delta}),
                       ("content_block_stop", {"type": "content_block_stop", "index": i})]
        events += [("message_delta", {"type": "message_delta",
                                      "delta": {"stop_reason": stop, "stop_sequence": None},
                                      "usage": {"output_tokens": 5}}),
                   ("message_stop", {"type": "message_stop"})]
        self._sse(events)

    # -- OpenAI Responses ---------------------------------------------------------------------

    def _responses(self, body: dict[str, Any]) -> None:
        items = body.get("input") or []
        answered = any(isinstance(i, dict) and i.get("type") == "function_call_output"
                       for i in items)
        tools = {t.get("name"): t for t in body.get("tools") or [] if isinstance(t, dict)}
        shell = next((n for n in SHELL_TOOLS if n in tools), None)
        if shell and not answered:
            n = self._call()
            args = _command_args(tools[shell].get("parameters"))
            item: dict[str, Any] = {"type": "function_call", "id": f"fc_mock{n:04d}",
                                    "call_id": f"call_mock{n:04d}", "name": shell,
                                    "arguments": json.dumps(args), "status": "completed"}
        else:
            item = {"type": "message", "id": "msg_mock", "role": "assistant",
                    "status": "completed",
                    "content": [{"type": "output_text", "text": FINAL if answered else "ok",
                                 "annotations": []}]}
        usage = {"input_tokens": 10, "input_tokens_details": {"cached_tokens": 0},
                 "output_tokens": 5, "output_tokens_details": {"reasoning_tokens": 0},
                 "total_tokens": 15}
        response = {"id": "resp_mock", "object": "response", "status": "completed",
                    "model": body.get("model", "mock-model"), "output": [item], "usage": usage}
        self._sse([("response.created", {"type": "response.created",
                                         "response": {**response, "status": "in_progress",
                                                      "output": []}}),
                   ("response.output_item.done", {"type": "response.output_item.done",
                                                  "output_index": 0, "item": item}),
                   ("response.completed", {"type": "response.completed",
                                           "response": response})])

    # -- Gemini -------------------------------------------------------------------------------

    def _gemini(self, body: dict[str, Any], stream: bool) -> None:
        if self.server.gemini_calls is not None:
            self._gemini_scripted(body, stream, self.server.gemini_calls)
            return
        contents = body.get("contents") or []
        answered = any(isinstance(p, dict) and "functionResponse" in p
                       for c in contents if isinstance(c, dict) for p in c.get("parts") or [])
        decls = {d.get("name"): d for t in body.get("tools") or [] if isinstance(t, dict)
                 for d in t.get("functionDeclarations") or []}
        if "run_shell_command" in decls and not answered:
            self._call()
            schema = (decls["run_shell_command"].get("parametersJsonSchema")
                      or decls["run_shell_command"].get("parameters"))
            parts: list[dict[str, Any]] = [{"functionCall": {
                "name": "run_shell_command", "args": _command_args(schema)}}]
        else:
            gen = body.get("generationConfig") or {}
            if gen.get("responseMimeType") == "application/json" or gen.get("responseSchema") \
                    or gen.get("responseJsonSchema"):
                # internal structured calls (routing, next speaker): a neutral JSON answer
                text = json.dumps({"reasoning": "scripted", "next_speaker": "user",
                                   "model_choice": "flash"})
            else:
                text = FINAL if answered else "ok"
            parts = [{"text": text}]
        self._gemini_answer(parts, stream)

    def _gemini_answer(self, parts: list[dict[str, Any]], stream: bool) -> None:
        doc = {"candidates": [{"content": {"role": "model", "parts": parts},
                               "finishReason": "STOP", "index": 0}],
               "usageMetadata": {"promptTokenCount": 10, "candidatesTokenCount": 5,
                                 "totalTokenCount": 15},
               "modelVersion": "mock-model"}
        if stream:
            self._sse([(None, doc)])
        else:
            self._json(doc)

    def _gemini_scripted(self, body: dict[str, Any], stream: bool,
                         calls: list[tuple[str, dict[str, Any]]]) -> None:
        contents = body.get("contents") or []
        answered = sum(1 for c in contents if isinstance(c, dict)
                       for p in c.get("parts") or [] if isinstance(p, dict)
                       and "functionResponse" in p)
        gen = body.get("generationConfig") or {}
        parts: list[dict[str, Any]]
        if gen.get("responseMimeType") == "application/json" or gen.get("responseSchema") \
                or gen.get("responseJsonSchema"):
            parts = [{"text": json.dumps({"reasoning": "scripted", "next_speaker": "user",
                                          "model_choice": "flash"})}]
        elif body.get("tools") and answered < len(calls):
            self._call()
            name, args = calls[answered]
            parts = [{"functionCall": {"name": name, "args": args}}]
        else:
            parts = [{"text": FINAL if answered else "ok"}]
        self._gemini_answer(parts, stream)

    # -- OpenAI Chat Completions --------------------------------------------------------------

    def _chat(self, body: dict[str, Any]) -> None:
        messages = body.get("messages") or []
        answered = any(isinstance(m, dict) and m.get("role") == "tool" for m in messages)
        tools = {(t.get("function") or {}).get("name"): t.get("function") or {}
                 for t in body.get("tools") or [] if isinstance(t, dict)}
        shell = next((n for n in SHELL_TOOLS if n in tools), None)
        message: dict[str, Any] = {"role": "assistant", "content": None}
        if shell and not answered:
            n = self._call()
            message["tool_calls"] = [{"id": f"call_mock{n:04d}", "type": "function",
                                      "function": {"name": shell, "arguments": json.dumps(
                                          _command_args(tools[shell].get("parameters")))}}]
            finish = "tool_calls"
        else:
            message["content"] = FINAL if answered else "ok"
            finish = "stop"
        usage = {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}
        base = {"id": "chatcmpl-mock", "created": 0, "model": body.get("model", "mock-model")}
        if not body.get("stream"):
            self._json({**base, "object": "chat.completion", "usage": usage,
                        "choices": [{"index": 0, "message": message,
                                     "finish_reason": finish}]})
            return
        delta = dict(message)
        if "tool_calls" in delta:
            delta["tool_calls"] = [{**c, "index": i} for i, c in enumerate(delta["tool_calls"])]
        chunk = {**base, "object": "chat.completion.chunk"}
        self._sse([(None, {**chunk, "choices": [{"index": 0, "delta": delta,
                                                 "finish_reason": None}]}),
                   (None, {**chunk, "choices": [{"index": 0, "delta": {},
                                                 "finish_reason": finish}], "usage": usage}),
                   (None, "[DONE]")])
