"""A pydantic-ai model lent to hookwire's hooks that ask a model (Claude Code's ``prompt`` and
``agent`` hooks; :class:`hookwire.hostparts.HostModel`).

Each question is a run of a fresh pydantic-ai ``Agent`` on the model, with no capability of its
own (a hook's model request meets no hooks): a ``prompt`` hook is one request whose answer is
held to the hook's JSON schema (the model's native structured output where it has one, else
the schema in the instructions); an ``agent`` hook gets its tools and answers through an output
tool of the name it asks for, within its turn limit.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic_ai import Agent, NativeOutput, PromptedOutput, StructuredDict, ToolOutput
from pydantic_ai.exceptions import UnexpectedModelBehavior, UsageLimitExceeded
from pydantic_ai.messages import ModelMessage, ModelRequest, ModelResponse, TextPart, UserPromptPart
from pydantic_ai.models import AbstractModel, infer_model
from pydantic_ai.tools import Tool
from pydantic_ai.usage import UsageLimits

from hookwire.hostparts import HookTool, ModelAsk, ModelReply


class PydanticAIModel:
    """``model`` (a pydantic-ai ``Model`` or a model name such as ``"openai:gpt-5-mini"``) as
    a :class:`~hookwire.hostparts.HostModel`."""

    def __init__(self, model: AbstractModel | str) -> None:
        self.model = model

    @property
    def name(self) -> str:
        model = self.model
        if isinstance(model, str):
            return model
        return f"{getattr(model, 'system', 'model')}:{getattr(model, 'model_name', '')}"

    async def ask(self, ask: ModelAsk) -> ModelReply:
        model: Any = infer_model(self.model) if isinstance(self.model, str) else self.model
        shape: Any = StructuredDict(dict(ask.schema), name=ask.output_tool or "answer")
        output: Any
        if ask.output_tool:
            output = ToolOutput(shape, name=ask.output_tool)
        elif _supports_schema(model):
            output = NativeOutput(shape)
        else:
            output = PromptedOutput(shape)
        agent: Agent[None, Any] = Agent(model, output_type=output, instructions=ask.system,
                                        tools=[_tool(t) for t in ask.tools])
        *earlier, last = ask.messages
        try:
            result = await agent.run(last.text, message_history=_history(earlier),
                                     usage_limits=UsageLimits(request_limit=ask.max_turns))
        except (UnexpectedModelBehavior, UsageLimitExceeded) as exc:  # no answer in its shape
            return ModelReply(output=None, text=str(exc), model=self.name)
        answer = result.output
        return ModelReply(output=dict(answer) if isinstance(answer, Mapping) else None,
                          model=result.response.model_name or self.name)


def _supports_schema(model: AbstractModel) -> bool:
    """Whether the model has native JSON-schema output (its profile is a mapping in recent
    pydantic-ai, an object before)."""
    profile: Any = getattr(model, "profile", None) or {}
    flag = (profile.get("supports_json_schema_output") if isinstance(profile, Mapping)
            else getattr(profile, "supports_json_schema_output", False))
    return bool(flag)


def _tool(tool: HookTool) -> Tool[None]:
    async def call(**arguments: Any) -> str:
        return await tool.call(arguments)

    return Tool.from_schema(call, name=tool.name, description=tool.description,
                            json_schema=dict(tool.parameters))


def _history(messages: Any) -> list[ModelMessage]:
    out: list[ModelMessage] = []
    for m in messages:
        if m.role == "assistant":
            out.append(ModelResponse(parts=[TextPart(m.text)]))
        else:
            out.append(ModelRequest(parts=[UserPromptPart(m.text)]))
    return out
