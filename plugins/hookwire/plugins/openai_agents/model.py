"""An OpenAI Agents SDK model lent to hookwire's hooks that ask a model (Claude Code's ``prompt``
and ``agent`` hooks; :class:`hookwire.hostparts.HostModel`).

Each question is a run of a fresh SDK ``Agent`` on the model, with none of hookwire's hooks: a
``prompt`` hook is one turn whose final output is held to the hook's JSON schema (the SDK's
structured output); an ``agent`` hook gets its tools as ``FunctionTool``s and an answer tool of
the name it asks for, and the run stops at that tool's call (``StopAtTools``) or its turn
limit. A plain text answer from an ``agent`` hook is no answer.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from agents import (
    Agent,
    AgentOutputSchemaBase,
    FunctionTool,
    Model,
    ModelBehaviorError,
    Runner,
    StopAtTools,
)
from agents.exceptions import MaxTurnsExceeded

from hookwire.hostparts import HookTool, ModelAsk, ModelReply
from hookwire.plugins._mcp import on_loop


class OpenAIAgentsModel:
    """``model`` (an SDK ``Model``, a model name, or ``None``: the SDK's default) as a
    :class:`~hookwire.hostparts.HostModel`."""

    def __init__(self, model: Model | str | None, *, loop: Any = None) -> None:
        self.model = model
        self.loop = loop  # the asyncio loop its client lives on (hooks may run on another)

    @property
    def name(self) -> str:
        model = self.model
        if model is None or isinstance(model, str):
            return model or "the OpenAI Agents SDK's default model"
        return str(getattr(model, "model", None) or type(model).__name__)

    async def ask(self, ask: ModelAsk) -> ModelReply:
        answers: list[dict[str, Any]] = []
        common: dict[str, Any] = {"name": "hookwire-hook", "instructions": ask.system,
                                  "model": self.model}
        if ask.output_tool:
            tools: list[Any] = [_tool(t) for t in ask.tools]
            tools.append(FunctionTool(
                name=ask.output_tool, description="Give your answer.",
                params_json_schema=dict(ask.schema), strict_json_schema=False,
                on_invoke_tool=lambda ctx, args: _keep(answers, args)))
            agent: Agent[Any] = Agent(**common, tools=tools, tool_use_behavior=StopAtTools(
                stop_at_tool_names=[ask.output_tool]))
        else:
            agent = Agent(**common, output_type=_Schema(ask.schema))
        items: Any = [{"role": m.role, "content": m.text} for m in ask.messages]
        try:
            result = await on_loop(self.loop, lambda: Runner.run(
                agent, items, max_turns=max(ask.max_turns, 1)))
        except (MaxTurnsExceeded, ModelBehaviorError) as exc:
            return ModelReply(output=None, text=str(exc), model=self.name)
        final = result.final_output
        if ask.output_tool:
            return ModelReply(output=answers[-1] if answers else None,
                              text=None if answers else str(final), model=self.name)
        return ModelReply(output=final if isinstance(final, Mapping) else None, model=self.name)


async def _keep(answers: list[dict[str, Any]], args: str) -> str:
    value = json.loads(args or "{}")
    if isinstance(value, dict):
        answers.append(value)
    return args


def _tool(tool: HookTool) -> FunctionTool:
    async def invoke(ctx: Any, args: str) -> str:
        value = json.loads(args or "{}")
        return await tool.call(value if isinstance(value, dict) else {})

    return FunctionTool(name=tool.name, description=tool.description,
                        params_json_schema=dict(tool.parameters), on_invoke_tool=invoke,
                        strict_json_schema=False)


class _Schema(AgentOutputSchemaBase):
    """The hook's JSON schema as the SDK's output type (not strict: the schema is Claude
    Code's, with an optional field)."""

    def __init__(self, schema: Mapping[str, Any]) -> None:
        self.schema = dict(schema)

    def is_plain_text(self) -> bool:
        return False

    def name(self) -> str:
        return "answer"

    def json_schema(self) -> dict[str, Any]:
        return self.schema

    def is_strict_json_schema(self) -> bool:
        return False

    def validate_json(self, json_str: str) -> Any:
        try:
            value = json.loads(json_str)
        except ValueError as exc:
            raise ModelBehaviorError(f"the answer is not JSON: {exc}") from None
        if not isinstance(value, dict):
            raise ModelBehaviorError("the answer is not a JSON object")
        return value
