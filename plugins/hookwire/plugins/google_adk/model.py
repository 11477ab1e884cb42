"""A Google ADK model (``BaseLlm``) lent to hookwire's hooks that ask a model (Claude Code's
``prompt`` and ``agent`` hooks; :class:`hookwire.hostparts.HostModel`).

A question is asked on the model itself, outside any ADK runner (no plugin, hookwire's
included, sees it): a ``prompt`` hook is one request with the hook's JSON schema as the
response schema (``application/json``); an ``agent`` hook's tools and its answer tool are
function declarations, run in a short loop until the model calls the answer tool or its turns
run out. A plain text answer is taken only from a ``prompt`` hook, and only as a JSON object.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

from google.adk.models import BaseLlm
from google.adk.models.llm_request import LlmRequest
from google.genai import types

from hookwire.hostparts import ModelAsk, ModelReply
from hookwire.plugins._hookmodel import ToolCall, Turn, converse, offered
from hookwire.plugins._mcp import on_loop


class AdkModel:
    """``model`` (an ADK ``BaseLlm``) as a :class:`~hookwire.hostparts.HostModel`."""

    def __init__(self, model: BaseLlm, *, loop: Any = None) -> None:
        self.model = model
        self.loop = loop  # the asyncio loop its client lives on (hooks may run on another)

    @property
    def name(self) -> str:
        return str(getattr(self.model, "model", "") or type(self.model).__name__)

    async def ask(self, ask: ModelAsk) -> ModelReply:
        config = types.GenerateContentConfig(system_instruction=ask.system)
        if ask.output_tool:
            config.tools = [types.Tool(function_declarations=[
                types.FunctionDeclaration(name=name, description=description,
                                          parameters_json_schema=dict(parameters))
                for name, description, parameters in offered(ask)])]
        else:
            config.response_mime_type = "application/json"
            config.response_json_schema = dict(ask.schema)
        contents = [types.Content(role="model" if m.role == "assistant" else "user",
                                  parts=[types.Part(text=m.text)]) for m in ask.messages]

        async def send(results: Sequence[tuple[ToolCall, str]]) -> Turn:
            if results:
                contents.append(types.Content(role="user", parts=[
                    types.Part(function_response=types.FunctionResponse(
                        id=call.id or None, name=call.name, response={"result": text}))
                    for call, text in results]))
            request = LlmRequest(model=getattr(self.model, "model", None), contents=contents,
                                 config=config)
            reply = await on_loop(self.loop, functools.partial(_one, self.model, request))
            contents.append(reply)
            parts = reply.parts or ()
            return Turn(calls=tuple(ToolCall(id=p.function_call.id or "",
                                             name=p.function_call.name or "",
                                             args=dict(p.function_call.args or {}))
                                    for p in parts if p.function_call),
                        text="".join(p.text or "" for p in parts) or None)

        return await converse(ask, send, model=self.name)


async def _one(model: BaseLlm, request: LlmRequest) -> types.Content:
    """The model's whole answer to ``request`` (the last response a stream ends with)."""
    content = types.Content(role="model", parts=[])
    async for response in model.generate_content_async(request, stream=False):
        if response.content is not None:
            content = response.content
    return content
