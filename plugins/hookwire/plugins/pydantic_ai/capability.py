"""The pydantic-ai capability: every seam pydantic-ai has, applied the way pydantic-ai applies it.

=====================  ==========================================================================
hookwire seam          pydantic-ai seam (how the verdict is applied)
=====================  ==========================================================================
session_start / end    ``wrap_run`` (a session per run) or ``async with capability`` (one session)
turn origin            ``wrap_run``: one agent run is one user turn; a run without a prompt
                       (resuming deferred tools) is an internal turn
prompt_submit          ``before_model_request`` (only the first request of a turn fires);
                       blocked → :class:`PromptBlocked`; contexts → system prompt parts of that
                       request, after the user prompt (before it where the harness puts them
                       there: Codex's SessionStart context)
tool_pre               ``wrap_tool_validate`` after pydantic-ai validated the model's arguments:
                       deny → ``ToolFailed(text)`` (the model sees it as the tool result);
                       ask → ``ApprovalRequired`` (pydantic-ai's deferred-tool approval path);
                       defer → ``CallDeferred``; rewritten input → validated again by the tool's
                       own validator (invalid → deny carrying the error)
approve                ``handle_deferred_tool_calls``, when nothing else resolved the approval and
                       the agent's output type does not take ``DeferredToolRequests``
tool_post / failure    ``wrap_tool_execute`` (success / exception, ``ModelRetry``, ``ToolFailed``):
                       a replaced tool result is the tool's return value; feedback and contexts
                       → system prompt parts right after the tool result
tool_batch             ``after_node_run`` when a ``CallToolsNode`` leads to the next
                       ``ModelRequestNode``: one row per function-tool call of the response, with
                       the result as sent to the model; contexts → system prompt parts of that
                       request; blocked → :class:`ToolBatchBlocked` before the request is made
stop                   ``after_node_run`` on ``End``: continue → ``ctx.enqueue`` of the feedback
                       (a user prompt part where the harness sends a user message, a system
                       prompt part where it sends a system one), which pydantic-ai turns into
                       another model request
stop_failure           ``wrap_run``, when a model-request error (``ModelAPIError``, an output
                       token limit, a fallback group of them) ends the run after pydantic-ai's
                       own retries; fired, then the error propagates unchanged
halt                   :class:`RunHalted` raised at the next seam (``continue: false`` on
                       ``tool_pre`` lets the tool be handled as decided first, as Claude Code)
nested runs            an agent run started inside one of this capability's tools reuses that
                       run's session and turn: no session, prompt, stop or stop-failure seams
=====================  ==========================================================================

Every text is the one :func:`hookwire.render.render` gives: each dialect's harness wording
(a Claude Code hook's deny reads ``PreToolUse:bash hook error: …``), or hookwire's neutral
labelled form with ``Hookwire(kernel, neutral=True)``. System prompt parts carry their hook in
``metadata["hookwire"]["source"]``: a hook's text is never the user's.
"""

from __future__ import annotations

import contextlib
import copy
import logging
import typing
import uuid
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import attrs
from pydantic import ValidationError
from pydantic_ai import CallToolsNode, ModelRequestNode
from pydantic_ai.capabilities import AbstractCapability, HandleDeferredToolCalls
from pydantic_ai.capabilities.abstract import CapabilityOrdering
from pydantic_ai.exceptions import (
    ApprovalRequired,
    CallDeferred,
    FallbackExceptionGroup,
    ModelAPIError,
    ModelAuthenticationError,
    ModelOverloadedError,
    ModelRateLimitError,
    ModelRequestRejectedError,
    ModelRetry,
    ModelServerError,
    OutputTokenLimitExceeded,
    SkipToolExecution,
    ToolFailed,
)
from pydantic_ai.messages import (
    ModelRequest,
    ModelResponse,
    SystemPromptPart,
    TextPart,
    ToolReturnPart,
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

from hookwire.dialect import ProblemKind
from hookwire.errors import ConfigError
from hookwire.kernel import Kernel
from hookwire.plugins._adapters import (
    PromptBlocked,
    Renderer,
    RunHalted,
    enclosing_tool_session,
    first_text,
    prompt_text,
    running_tool,
    source_label,
    status_error_kind,
    texts_at,
    texts_but,
    tool_result,
)
from hookwire.plugins.pydantic_ai.profile import PROFILE
from hookwire.problems import Problem
from hookwire.render import ModelText, Placement, no_approval_surface
from hookwire.session import Session, current_origin
from hookwire.tools import mcp_name
from hookwire.verdicts import KERNEL, Decision, Halt, Verdict

log = logging.getLogger("hookwire.pydantic_ai")

_CONTROL_FLOW = (SkipToolExecution, CallDeferred, ApprovalRequired, RunHalted, PromptBlocked)
#: What a failed model request raises once pydantic-ai's own retries (and fallbacks) gave up.
_MODEL_FAILURES = (ModelAPIError, OutputTokenLimitExceeded, FallbackExceptionGroup)


class ToolBatchBlocked(RunHalted):
    """A ``tool_batch`` hook blocked: the run ended after the tool calls, before the next model
    request (pydantic-ai cannot end a run without an output of its type). ``reason`` says why;
    the session is not halted, the next run goes on as usual."""

    def __init__(self, verdict: Verdict) -> None:
        source = verdict.reasons[0].source if verdict.reasons else KERNEL
        super().__init__(Halt(reason=verdict.reason, source=source))
        self.verdict = verdict


@dataclass
class _Shared:
    """State shared by every run of one capability (the per-run copies point at it)."""

    session_id: str
    runs: int = 0
    session: Session | None = None
    start_texts: list[ModelText] = field(default_factory=list)  # session_start's, rendered
    problems: tuple[Any, ...] = ()  # the problems of the latest session
    mcp_mapped: set[str] = field(default_factory=set)  # runtime tool names mapped as MCP tools
    extra_problems: list[Any] = field(default_factory=list)  # the adapter's own (MCP) problems


@dataclass
class _Run:
    """State of one agent run."""

    session: Session | None = None
    nested: bool = False  # an agent run started from inside one of this capability's tools
    pre: dict[str, Verdict] = field(default_factory=dict)
    ran: dict[str, dict[str, Any]] = field(default_factory=dict)  # tool_call_id → input that ran
    tool_error: BaseException | None = None  # the last exception a tool raised
    last_text: str | None = None  # the text of the latest model response of this run


class Hookwire(AbstractCapability[Any]):
    """Runs hookwire's hooks and plugins at a pydantic-ai agent's seams.

    ``Agent(model, capabilities=[Hookwire(kernel, cwd=project)])``. Each run opens a hookwire
    session of its own (``session_start`` … ``session_end``, one ``session_id`` across runs,
    ``source="resume"`` after the first); inside ``async with capability:`` every run shares
    one session instead. ``max_stop_blocks`` caps stop continuations per turn (Claude Code: 8).
    Hook text reaches the model in its harness's wording and place (:mod:`hookwire.render`);
    ``neutral=True`` gives hookwire's neutral labelled form instead.

    The session is opened for the ``pydantic-ai`` host profile; each run declares the agent's
    tools to it (MCP tools are first mapped to their ``mcp__server__tool`` names), and
    :attr:`problems` lists every reason a configured hook cannot run here (each is also logged
    once as a warning on the ``hookwire`` logger).
    """

    def __init__(self, kernel: Kernel, *, max_stop_blocks: int | None = 8,
                 neutral: bool = False, **session_fields: Any) -> None:
        self.kernel = kernel
        self.max_stop_blocks = max_stop_blocks
        self.neutral = neutral
        self._render = Renderer(kernel, neutral=neutral)
        self.session_fields = session_fields
        self._shared: _Shared = _Shared(session_id=session_fields.pop("session_id", None)
                               or str(uuid.uuid4()))
        self._run: _Run | None = None
        self._stack: contextlib.AsyncExitStack | None = None

    def get_ordering(self) -> CapabilityOrdering:
        # Approval handlers answer an ``ask`` before the kernel's approval seam does.
        return CapabilityOrdering(wrapped_by=[HandleDeferredToolCalls])

    @classmethod
    def get_serialization_name(cls) -> str | None:
        return None  # holds a live kernel: not constructible from an agent spec

    # -- sessions ------------------------------------------------------------------------------

    @property
    def problems(self) -> tuple[Any, ...]:
        """Why configured hooks cannot run with this agent (``hookwire.problems.Problem``s:
        ``kind``, ``message``): config problems, events pydantic-ai never emits, tool matchers
        that match none of the agent's tools, MCP tools whose server has no name. Each is also
        logged once as a warning on the ``hookwire`` logger."""
        session = self._run.session if self._run is not None else None
        session = session or self._shared.session
        if session is not None:
            self._shared.problems = tuple(session.problems)
        return (*self._shared.problems, *self._shared.extra_problems)

    def _open(self) -> Session:
        fields = {"host": PROFILE, **self.session_fields}
        return self.kernel.session(max_stop_blocks=self.max_stop_blocks,
                                   session_id=self._shared.session_id, **fields)

    async def _start(self, session: Session) -> None:
        source = "startup" if self._shared.runs == 0 else "resume"
        verdict = await session.session_start(source)
        self._shared.problems = tuple(session.problems)
        self._shared.start_texts.extend(self._render(verdict))
        if verdict.halt is not None:
            raise RunHalted(verdict.halt)

    async def __aenter__(self) -> Hookwire:
        """Share one session across the runs inside this block."""
        stack = contextlib.AsyncExitStack()
        session = await stack.enter_async_context(self._open())
        stack.push_async_callback(session.session_end, "other")
        try:
            await self._start(session)
        except BaseException:
            await stack.aclose()
            raise
        self._shared.session, self._stack = session, stack
        self._shared.runs += 1
        return self

    async def __aexit__(self, *exc: object) -> None:
        stack, self._stack, self._shared.session = self._stack, None, None
        if stack is not None:
            await stack.aclose()

    def _session(self) -> Session:
        if self._run is None or self._run.session is None:
            raise RuntimeError("hookwire capability used outside an agent run")
        return self._run.session

    # -- run -----------------------------------------------------------------------------------

    async def for_run(self, ctx: RunContext[Any]) -> Hookwire:
        run = copy.copy(self)  # per-run state; the shared state stays shared
        run._run, run._stack = _Run(), None
        return run

    async def wrap_run(self, ctx: RunContext[Any], *, handler: Callable[[], Awaitable[Any]]
                       ) -> Any:
        assert self._run is not None
        outer = enclosing_tool_session(self._shared)
        if isinstance(outer, Session):
            # An agent run from inside one of our tools is part of that tool call: same
            # session and turn, so no SessionStart, UserPromptSubmit, Stop or StopFailure.
            self._run.session, self._run.nested = outer, True
            return await handler()
        async with contextlib.AsyncExitStack() as stack:
            session = self._shared.session
            if session is None:
                session = await stack.enter_async_context(self._open())
                stack.push_async_callback(session.session_end, "other")
                await self._start(session)
                self._shared.runs += 1
            self._run.session = session
            try:
                if ctx.prompt is None:  # resuming deferred tools: not a user turn
                    return await handler()
                with session.turn():
                    return await handler()
            except _MODEL_FAILURES as exc:
                if exc is not self._run.tool_error:  # not an inner agent's, raised by a tool
                    await session.stop_failure(_error_kind(exc),
                                               error_details=str(exc) or repr(exc),
                                               last_assistant_message=self._run.last_text)
                raise

    async def before_model_request(self, ctx: RunContext[Any], request_context: Any) -> Any:
        session = self._session()
        if session.halted is not None:
            raise RunHalted(session.halted)
        self._declare_tools(ctx, session)
        origin = current_origin()
        texts = list(self._shared.start_texts)
        self._shared.start_texts.clear()
        # Only the first request of a turn submits; a run resuming deferred tools opened no
        # turn, and a later request of this turn (a retry, a follow-up) has consumed it.
        if origin is not None and origin.session is session and not origin.consumed:
            prompt = prompt_text(ctx.prompt)
            verdict = await session.prompt_submit(prompt)
            if verdict.halt is not None:
                raise RunHalted(verdict.halt)
            rendered = self._render(verdict, prompt=prompt)
            if verdict.denied:
                raise PromptBlocked(verdict.reason, verdict,
                                    first_text(rendered, Placement.RESULT))
            texts += rendered
        before = texts_at(texts, Placement.BEFORE_PROMPT)
        if before and not _before_prompt(request_context, before):
            self._place(ctx, before)  # no user prompt in this request: after it, then
        # from here, pydantic-ai adds it to this very request
        self._place(ctx, texts_but(texts, Placement.BEFORE_PROMPT, Placement.RESULT))
        return request_context

    # -- tools ---------------------------------------------------------------------------------

    def _declare_tools(self, ctx: RunContext[Any], session: Session) -> None:
        """Tell the session the tools this request offers (function tools; output tools are
        pydantic-ai's own), MCP tools mapped to ``mcp__server__tool`` first."""
        tools = getattr(ctx.tool_manager, "tools", None) or {}
        names: list[str] = []
        for name, tool in tools.items():
            if getattr(tool.tool_def, "kind", "function") == "output":
                continue
            names.append(name)
            if name not in self._shared.mcp_mapped and self.kernel.tools.get(name) is None:
                origin = _mcp_origin(name, tool)
                if origin is not None:
                    server, original = origin
                    if server:
                        try:
                            self.kernel.map_tool(name, mcp_name(server, original))
                        except ConfigError as exc:  # a server id no harness name can carry
                            self._shared.extra_problems.append(Problem(
                                kind=ProblemKind.CONFIG, message=f"pydantic-ai MCP tool "
                                f"{name!r} keeps its own name: {exc}"))
                            log.warning("%s", self._shared.extra_problems[-1])
                    else:
                        self._shared.extra_problems.append(Problem(
                            kind=ProblemKind.CONFIG,
                            message=f"pydantic-ai tool {name!r} comes from an MCP server "
                                    f"without an `id`: hooks see it as {name!r}, not as "
                                    f"mcp__<server>__{original}; give the MCPToolset an id= "
                                    f"or map it with kernel.map_tool({name!r}, "
                                    f"mcp_name(<server>, {original!r}))"))
                        log.warning("%s", self._shared.extra_problems[-1])
                    self._shared.mcp_mapped.add(name)
        if names and tuple(names) != session.tool_names:
            session.declare_tools(names)
        self._shared.problems = tuple(session.problems)

    async def wrap_tool_validate(self, ctx: RunContext[Any], *, call: Any, tool_def: Any,
                                 args: Any, handler: Callable[[Any], Awaitable[dict[str, Any]]]
                                 ) -> dict[str, Any]:
        assert self._run is not None
        validated = await handler(args)
        session = self._session()
        verdict = self._run.pre.get(call.tool_call_id) if ctx.tool_call_approved else None
        if verdict is None:
            verdict = await session.tool_pre(call.tool_name, validated, call.tool_call_id)
            self._run.pre[call.tool_call_id] = verdict
        # A halt (``continue: false``) does not stop this tool: as in Claude Code the tool is
        # handled as decided, and the run stops at the next seam (the session's halt is sticky).
        if verdict.decision is Decision.DEFER:
            raise CallDeferred(metadata=_metadata(verdict))
        effective = validated
        if verdict.input_rewritten and verdict.effective_input is not None:
            try:  # the rewritten input goes through the tool's own validator again
                effective = await handler(dict(verdict.effective_input))
            except (ValidationError, ModelRetry) as exc:
                raise ToolFailed(f"A hook rewrote the input of {call.tool_name} into an invalid "
                                 f"one: {exc}") from None
        if verdict.decision is Decision.ASK and not ctx.tool_call_approved:
            raise ApprovalRequired(metadata=_metadata(verdict))
        if verdict.denied:  # the refusal, as the hook's harness words it
            texts = self._render(verdict, tool_name=call.tool_name, tool_input=validated)
            self._place(ctx, texts_but(texts, Placement.TOOL_RESULT))
            raise ToolFailed(first_text(texts, Placement.TOOL_RESULT) or verdict.reason
                             or "denied by a hook")
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
        session = self._session()
        results = DeferredToolResults()
        for call in ours:
            meta = requests.metadata[call.tool_call_id]["hookwire"]
            tool_input = meta["effective_input"]
            verdict = await session.approve(call.tool_name, tool_input, call.tool_call_id,
                                            reason=meta["reason"])
            if verdict.decision is Decision.ALLOW:
                approved = dict(verdict.effective_input or tool_input)
                results.approvals[call.tool_call_id] = ToolApproved(override_args=approved)
            elif verdict.decision is Decision.DENY:
                results.approvals[call.tool_call_id] = ToolDenied(
                    verdict.reason or "denied by the approval hook")
            else:
                results.approvals[call.tool_call_id] = ToolDenied(
                    no_approval_surface(meta["reason"]))
        return results

    async def wrap_tool_execute(self, ctx: RunContext[Any], *, call: Any, tool_def: Any,
                                args: dict[str, Any], handler: Callable[[Any], Awaitable[Any]]
                                ) -> Any:
        assert self._run is not None
        session = self._session()
        pre = self._run.pre.get(call.tool_call_id)
        pre_texts = texts_but(self._render(pre, tool_name=call.tool_name, tool_input=args),
                              Placement.TOOL_RESULT) if pre else []
        self._run.ran[call.tool_call_id] = dict(args)
        try:
            with running_tool(self._shared, session):  # an agent run inside it is nested
                result = await handler(args)
        except _CONTROL_FLOW:
            raise
        except Exception as exc:  # a crash, ModelRetry or ToolFailed: the tool did not succeed
            self._run.tool_error = exc
            failure = await session.tool_failure(call.tool_name, args, str(exc) or repr(exc),
                                                 call.tool_call_id)
            texts = self._render(failure, tool_name=call.tool_name, tool_input=args)
            self._place(ctx, [*pre_texts, *texts_but(texts, Placement.TOOL_RESULT)])
            raise
        post = await session.tool_post(call.tool_name, args, result, call.tool_call_id)
        texts = self._render(post, tool_name=call.tool_name, tool_input=args)
        self._place(ctx, [*pre_texts, *texts_but(texts, Placement.TOOL_RESULT)])
        return tool_result(texts, post, result)

    # -- stop ----------------------------------------------------------------------------------

    async def after_node_run(self, ctx: RunContext[Any], *, node: Any, result: Any) -> Any:
        if self._run is None or self._run.session is None:
            return result
        if isinstance(node, ModelRequestNode) and isinstance(result, CallToolsNode):
            self._run.last_text = _text(result.model_response)
            return result
        if isinstance(node, CallToolsNode) and isinstance(result, ModelRequestNode):
            await self._tool_batch(ctx, node, result)
            return result
        if not isinstance(result, End):
            return result
        output = getattr(result.data, "output", None)
        if isinstance(output, DeferredToolRequests):
            return result  # paused for approval, not a stop
        session = self._run.session
        if self._run.nested:  # the run inside a tool ended: the outer turn goes on
            if session.halted is not None:
                raise RunHalted(session.halted)
            return result
        if session.halted is not None:
            raise RunHalted(session.halted)
        verdict = await session.stop(last_assistant_message=_last_text(ctx, output))
        if verdict.halt is not None:
            raise RunHalted(verdict.halt)
        if verdict.continue_turn and type(node).__name__ == "SetFinalResult":
            # run_stream hands the first final output to the caller mid-stream: there is
            # no later model request to redirect to. iter() and run() can continue.
            log.warning("a stop hook asked to continue, but run_stream() cannot: use "
                        "run(), iter() or run_stream_events()")
            verdict = attrs.evolve(verdict, decision=Decision.NONE, reason=None, reasons=())
        self._place(ctx, self._render(verdict))  # contexts, then the continuation's feedback
        return result

    async def _tool_batch(self, ctx: RunContext[Any], node: Any, result: Any) -> None:
        """The tool calls of ``node``'s response have all been answered in ``result.request``,
        the next model request: fire ``tool_batch`` before it is sent."""
        assert self._run is not None and self._run.session is not None
        returns = {p.tool_call_id: p for p in result.request.parts
                   if isinstance(p, ToolReturnPart)}
        rows = []
        for call in node.model_response.tool_calls:
            part = returns.get(call.tool_call_id)
            if part is None or _is_output_tool(ctx, call.tool_name):
                continue
            rows.append({"tool_name": call.tool_name,
                         "tool_input": self._input_of(call),
                         "tool_use_id": call.tool_call_id,
                         "tool_response": part.model_response_str()})
        if not rows:
            return  # a retry prompt after text output: no tool batch
        session = self._run.session
        if session.halted is not None:
            raise RunHalted(session.halted)
        verdict = await session.tool_batch(rows)
        if verdict.halt is not None:
            raise RunHalted(verdict.halt)
        if verdict.denied:
            raise ToolBatchBlocked(verdict)
        # drained into the very next request
        self._place(ctx, texts_but(self._render(verdict), Placement.RESULT))

    def _input_of(self, call: Any) -> dict[str, Any]:
        assert self._run is not None
        ran = self._run.ran.pop(call.tool_call_id, None)
        if ran is not None:
            return ran
        pre = self._run.pre.get(call.tool_call_id)
        if pre is not None and pre.effective_input is not None:
            return dict(pre.effective_input)
        try:
            return dict(call.args_as_dict())
        except ValueError:  # arguments the model sent as invalid JSON
            return {"_raw": call.args}

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
        if _is_mcp(toolset):
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


def _is_mcp(toolset: Any) -> bool:
    """An MCP toolset of pydantic-ai (``pydantic_ai.mcp`` needs the ``mcp`` extra: not
    imported here, recognised by its class)."""
    return any(c.__name__ == "MCPToolset" and c.__module__.startswith("pydantic_ai.mcp")
               for c in type(toolset).__mro__)


def _part(text: ModelText) -> str | SystemPromptPart:
    if text.role == "user":  # a user message of the harness (Stop feedback): its text says
        return text.text     # it is a hook's (a <system-reminder>, a <hook_prompt>)
    return SystemPromptPart(text.text, metadata={"hookwire": {"source": source_label(text)}})


def _before_prompt(request_context: Any, texts: list[ModelText]) -> bool:
    """Put ``texts`` just before the user prompt of the request being prepared (where Codex
    puts SessionStart context); ``False`` when that request has no user prompt."""
    messages = getattr(request_context, "messages", None) or []
    request = messages[-1] if messages else None
    if not isinstance(request, ModelRequest):
        return False
    parts = list(request.parts)
    at = next((i for i, p in enumerate(parts) if isinstance(p, UserPromptPart)), None)
    if at is None:
        return False
    parts[at:at] = [_part(t) for t in texts]  # type: ignore[misc]
    request.parts = parts
    return True


def _metadata(verdict: Verdict) -> dict[str, Any]:
    return {"hookwire": {
        "decision": verdict.decision.value,
        "reason": verdict.reason,
        "original_input": dict(verdict.original_input or {}),
        "effective_input": dict(verdict.effective_input or verdict.original_input or {}),
    }}


def _returns_deferred(ctx: RunContext[Any]) -> bool:
    output_type = getattr(ctx.agent, "output_type", None)
    stack = [output_type]
    while stack:
        item = stack.pop()
        if item is DeferredToolRequests:
            return True
        if isinstance(item, list | tuple):
            stack.extend(item)
        else:
            stack.extend(typing.get_args(item))
    return False


def _is_output_tool(ctx: RunContext[Any], name: str) -> bool:
    """Output tools (``final_result``…) are pydantic-ai's own: no tool hook sees them."""
    try:
        tool_def = ctx.tool_manager.get_tool_def(name) if ctx.tool_manager else None
    except ValueError:  # the tool manager is between run steps
        return False
    return tool_def is not None and tool_def.kind == "output"


def _text(response: ModelResponse) -> str | None:
    texts = [p.content for p in response.parts if isinstance(p, TextPart)]
    return "\n".join(texts) if texts else None


def _error_kind(exc: BaseException) -> str:
    """Claude Code's short error kind for a failed model request."""
    if isinstance(exc, FallbackExceptionGroup) and exc.exceptions:
        return _error_kind(exc.exceptions[-1])  # the last model tried
    status = getattr(exc, "status_code", None)
    if isinstance(status, int):
        return status_error_kind(status)
    kinds: tuple[tuple[type[BaseException], str], ...] = (
        (ModelRateLimitError, "rate_limit"), (ModelOverloadedError, "overloaded"),
        (ModelServerError, "server_error"), (ModelAuthenticationError, "authentication_failed"),
        (ModelRequestRejectedError, "invalid_request"), (OutputTokenLimitExceeded,
                                                         "max_output_tokens"))
    for cls, kind in kinds:
        if isinstance(exc, cls):
            return kind
    return "unknown"


def _last_text(ctx: RunContext[Any], output: Any) -> str | None:
    if isinstance(output, str):
        return output
    for message in reversed(ctx.messages):
        if isinstance(message, ModelResponse):
            texts = [p.content for p in message.parts if isinstance(p, TextPart)]
            return "\n".join(texts) if texts else None
    return None
