"""The pydantic-ai capability: hookwire's hooks at every seam pydantic-ai has (its capability
hooks ``wrap_run``, ``before_model_request``, ``wrap_tool_validate``, ``wrap_tool_execute``,
``handle_deferred_tool_calls`` and ``after_node_run``), applied the way pydantic-ai applies
them. The protocol is :class:`hookwire.driver.HostDriver`'s; this module translates. The
seam-by-seam table is in docs/hosts/pydantic-ai.md.

Hook texts reach the model as system prompt parts labelled with their hook
(``metadata["hookwire"]["source"]``), or user prompt parts where the harness sends a user
message, in each dialect's wording (``neutral=True``: hookwire's labelled form).
"""

from __future__ import annotations

import typing
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from pydantic import ValidationError
from pydantic_ai import CallToolsNode, ModelRequestNode
from pydantic_ai.capabilities import AbstractCapability, HandleDeferredToolCalls
from pydantic_ai.capabilities.abstract import CapabilityOrdering
from pydantic_ai.exceptions import (
    ApprovalRequired,
    CallDeferred,
    FallbackExceptionGroup,
    ModelAPIError,
    ModelRetry,
    OutputTokenLimitExceeded,
    SkipToolExecution,
    ToolFailed,
)
from pydantic_ai.messages import (
    ModelRequest,
    ModelResponse,
    SystemPromptPart,
    TextPart,
    UserPromptPart,
)
from pydantic_ai.tools import (
    DeferredToolRequests,
    DeferredToolResults,
    RunContext,
    ToolApproved,
    ToolDenied,
)
from pydantic_graph import End

from hookwire.driver import (
    Action,
    HostAdapter,
    HostRun,
    PromptBlocked,
    RunHalted,
    invalid_rewrite,
    last_text,
    place,
)
from hookwire.kernel import Kernel
from hookwire.plugins.pydantic_ai.mcpclient import PydanticAIMcp, is_mcp
from hookwire.plugins.pydantic_ai.model import PydanticAIModel
from hookwire.plugins.pydantic_ai.profile import PROFILE
from hookwire.render import ModelText, Placement, source_label, texts_at, texts_but

_CONTROL_FLOW = (SkipToolExecution, CallDeferred, ApprovalRequired, RunHalted, PromptBlocked)
#: What a failed model request raises once pydantic-ai's own retries (and fallbacks) gave up.
_MODEL_FAILURES = (ModelAPIError, OutputTokenLimitExceeded, FallbackExceptionGroup)


class Hookwire(HostAdapter, AbstractCapability[Any]):
    """Runs hookwire's hooks and plugins at a pydantic-ai agent's seams:
    ``Agent(model, capabilities=[Hookwire(kernel, cwd=project)])``. Each run opens a session
    of its own (one ``session_id`` across runs, ``source="resume"`` after the first); inside
    ``async with capability:`` every run shares one. The tools each request offers are
    declared to it, MCP tools mapped to ``mcp__server__tool`` first (the toolset's ``id`` is
    the server); :attr:`problems` says why configured hooks cannot run here."""

    def __init__(self, kernel: Kernel, *, max_stop_blocks: int | None = 8,
                 neutral: bool = False, **session_fields: Any) -> None:
        super().__init__(kernel, host=PROFILE, max_stop_blocks=max_stop_blocks, neutral=neutral,
                         blocking=False, session_per_run=True, **session_fields)
        self.max_stop_blocks = max_stop_blocks
        self.neutral = neutral

    def get_ordering(self) -> CapabilityOrdering:
        # Approval handlers answer an ``ask`` before the kernel's approval seam does.
        return CapabilityOrdering(wrapped_by=[HandleDeferredToolCalls])

    @classmethod
    def get_serialization_name(cls) -> str | None:
        return None  # holds a live kernel: not constructible from an agent spec

    def _current(self) -> HostRun:
        run = self.current()  # the run's state is its context's: one capability, many runs
        if run is None:
            raise RuntimeError("hookwire capability used outside an agent run")
        return run

    # -- run -----------------------------------------------------------------------------------

    async def wrap_run(self, ctx: RunContext[Any], *, handler: Callable[[], Awaitable[Any]]
                       ) -> Any:
        agent = getattr(ctx.agent, "name", None) or "agent"
        # prompt and agent hooks ask its model; mcp_tool hooks call its MCP toolsets
        self.driver.lend(model=PydanticAIModel(ctx.model), mcp=PydanticAIMcp(ctx.agent))
        # a run resuming deferred tools (no prompt) is not a user turn
        run = self.driver.begin(ctx.prompt, resumed=ctx.prompt is None, agent_type=agent)
        await run.open()
        try:  # not one an inner agent's tool raised (the driver knows)
            with self.running(run):
                return await self.model_call(run, handler, failures=_MODEL_FAILURES)
        finally:
            await run.close()

    async def before_model_request(self, ctx: RunContext[Any], request_context: Any) -> Any:
        run = self._current()
        self._declare_tools(ctx)
        texts = await run.before_model()
        before = texts_at(texts, Placement.BEFORE_PROMPT)
        request = (getattr(request_context, "messages", None) or [None])[-1]
        if isinstance(request, ModelRequest) and any(isinstance(p, UserPromptPart)
                                                     for p in request.parts):
            parts = list(request.parts)  # Codex's SessionStart context: before the prompt
            place(parts, before, _part, lambda p: isinstance(p, UserPromptPart))
            request.parts = parts
        else:
            self._place(ctx, before)  # no user prompt in this request: after it, then
        # from here, pydantic-ai adds it to this very request
        self._place(ctx, texts_but(texts, Placement.BEFORE_PROMPT, Placement.RESULT))
        return request_context

    # -- tools ---------------------------------------------------------------------------------

    def _declare_tools(self, ctx: RunContext[Any]) -> None:
        """Tell the session the tools this request offers (function tools; output tools are
        pydantic-ai's own), MCP tools mapped to ``mcp__server__tool`` first."""
        tools = getattr(ctx.tool_manager, "tools", None) or {}
        names = [n for n, t in tools.items()
                 if getattr(t.tool_def, "kind", "function") != "output"]
        origins = {n: o for n in names if (o := _mcp_origin(n, tools[n])) is not None}
        self.driver.declare_tools(names, mcp=origins, unnamed="an `id` (MCPToolset(id=...))")

    async def wrap_tool_validate(self, ctx: RunContext[Any], *, call: Any, tool_def: Any,
                                 args: Any, handler: Callable[[Any], Awaitable[dict[str, Any]]]
                                 ) -> dict[str, Any]:
        validated = await handler(args)
        run, call_id = self._current(), call.tool_call_id
        go = await run.tool_pre(call.tool_name, validated, call_id,
                                approved=bool(ctx.tool_call_approved))
        # A halt (``continue: false``) does not stop this tool: as in Claude Code the tool is
        # handled as decided, and the run stops at the next seam (the session's halt is sticky).
        if go.action is Action.DEFER:
            raise CallDeferred(metadata=go.describe())
        effective = validated
        if go.rewritten and go.action is not Action.REFUSE:
            try:  # the rewritten input goes through the tool's own validator again
                effective = await handler(dict(go.input))
            except (ValidationError, ModelRetry) as exc:
                text = invalid_rewrite(call.tool_name, exc)
                run.refuse(call_id, text)
                raise ToolFailed(text) from None
        if go.action is Action.ASK:
            raise ApprovalRequired(metadata=go.describe())
        if go.action is Action.REFUSE:  # the refusal, as the hook's harness words it
            raise ToolFailed(go.text or "denied by a hook")
        return effective

    async def handle_deferred_tool_calls(self, ctx: RunContext[Any], *,
                                         requests: DeferredToolRequests
                                         ) -> DeferredToolResults | None:
        """The kernel's approval seam, for approvals nothing else resolved, unless the agent
        returns ``DeferredToolRequests`` (then the caller's own approval flow decides)."""
        ours = [c for c in requests.approvals
                if "hookwire" in (requests.metadata.get(c.tool_call_id) or {})]
        if not ours or _returns_deferred(ctx):
            return None
        run = self._current()
        results = DeferredToolResults()
        for call in ours:
            go = self.driver.pre.get(call.tool_call_id)
            if go is None:
                continue
            go = await run.approve(call.tool_name, go, call.tool_call_id)
            results.approvals[call.tool_call_id] = (
                ToolApproved(override_args=dict(go.input)) if go.action is Action.RUN
                else ToolDenied(go.text or "denied by the approval hook"))
        return results

    async def wrap_tool_execute(self, ctx: RunContext[Any], *, call: Any, tool_def: Any,
                                args: dict[str, Any], handler: Callable[[Any], Awaitable[Any]]
                                ) -> Any:
        run = self._current()
        try:
            _, sent = await self.run_tool(run, call.tool_name, args, call.tool_call_id,
                                          lambda: handler(args), passthrough=_CONTROL_FLOW)
        except _CONTROL_FLOW:
            raise
        except Exception:  # a crash, ModelRetry or ToolFailed: the tool did not succeed
            self._place(ctx, run.take())
            raise
        self._place(ctx, run.take())  # right after the tool's result
        return sent

    # -- stop ----------------------------------------------------------------------------------

    async def after_node_run(self, ctx: RunContext[Any], *, node: Any, result: Any) -> Any:
        run = self.current()
        if run is None or run.session is None:
            return result
        if isinstance(node, ModelRequestNode) and isinstance(result, CallToolsNode):
            response = result.model_response
            run.model_answered(_text(response), [c.tool_call_id for c in response.tool_calls])
            return result
        if not isinstance(result, End):
            return result
        output = getattr(result.data, "output", None)
        if isinstance(output, DeferredToolRequests):
            return result  # paused for approval, not a stop
        # run_stream hands the first final output to the caller mid-stream: there is no
        # later model request to redirect to. iter() and run() can continue.
        cannot = ("run_stream() cannot: use run(), iter() or run_stream_events()"
                  if type(node).__name__ == "SetFinalResult" else None)
        feedback = await run.stop(_last_text(ctx, output), cannot=cannot)
        self._place(ctx, feedback or [])  # contexts, then the continuation's feedback
        return result

    def _place(self, ctx: RunContext[Any], texts: typing.Iterable[ModelText]) -> None:
        """Hook texts into the next model request, in order (during a tool call: right after
        its tool result): a user prompt part where the harness sends a user message, else a
        system prompt part labelled with its hook."""
        parts = [_part(t) for t in texts]
        if parts:
            ctx.enqueue(*parts)


def _mcp_origin(name: str, tool: Any) -> tuple[str | None, str] | None:
    """``(server, tool name on the server)`` when ``tool`` comes from an MCP toolset (through
    prefixing, renaming and other wrappers); the server is the toolset's ``id`` (``None``
    without one)."""
    toolset = tool.toolset
    for _ in range(32):  # wrappers of wrappers, but never a cycle
        if is_mcp(toolset):
            return getattr(toolset, "id", None), name
        prefix = getattr(toolset, "prefix", None)
        if isinstance(prefix, str):
            name = name.removeprefix(f"{prefix}_")
        name_map = getattr(toolset, "name_map", None)
        if isinstance(name_map, Mapping):
            name = str(name_map.get(name, name))
        wrapped = getattr(toolset, "wrapped", None)
        if wrapped is None:
            return None
        toolset = wrapped
    return None


def _part(text: ModelText) -> str | SystemPromptPart:
    if text.role == "user":  # a user message of the harness (Stop feedback): its text says
        return text.text     # it is a hook's (a <system-reminder>, a <hook_prompt>)
    return SystemPromptPart(text.text, metadata={"hookwire": {"source": source_label(text)}})


def _returns_deferred(ctx: RunContext[Any]) -> bool:
    def has(t: Any) -> bool:
        return t is DeferredToolRequests or any(
            has(a) for a in (t if isinstance(t, list | tuple) else typing.get_args(t)))

    return has(getattr(ctx.agent, "output_type", None))


def _text(response: ModelResponse) -> str | None:
    texts = [p.content for p in response.parts if isinstance(p, TextPart)]
    return "\n".join(texts) if texts else None


def _last_text(ctx: RunContext[Any], output: Any) -> str | None:
    if isinstance(output, str):
        return output
    return last_text(ctx.messages, lambda m: isinstance(m, ModelResponse), _text)
