"""The OpenAI Agents SDK runner: every seam the SDK has, applied the way the SDK applies it.

=====================  ==========================================================================
hookwire seam          Agents SDK seam (how the verdict is applied)
=====================  ==========================================================================
session_start / end    the runner's lifetime (``with`` / ``async with`` / :meth:`Hookwire.close`);
                       started before the first model request
turn origin            :meth:`Hookwire.run` / :meth:`~Hookwire.run_sync` /
                       :meth:`~Hookwire.run_streamed` (a run from inside a tool reuses the turn;
                       a run resuming a ``RunState`` is not a user turn)
prompt_submit          ``RunHooks.on_llm_start`` of the turn's first model request; blocked →
                       :class:`PromptBlocked`; contexts → ``system`` (Codex: ``developer``)
                       input items after the prompt (before it where the harness puts them
                       there: Codex's SessionStart context)
tool_pre               each ``FunctionTool`` (the agent's and its MCP servers') is a copy whose
                       ``needs_approval`` fires the hooks and whose ``on_invoke_tool`` applies the
                       verdict: deny → the text is the tool's output; ask (and defer) → the
                       SDK's approval interruption (``approval="kernel"``: the ``approve`` seam);
                       rewritten input → validated against the tool's JSON schema, then the tool
                       runs with it
tool_post / failure    the same ``on_invoke_tool`` after the tool (an exception, or the SDK's
                       failure message in its place, is a failure): a replaced result is the
                       tool's output; feedback and contexts → input items of the next request,
                       right after the tool outputs
tool_batch             ``on_llm_start`` of the request after a response with function calls
stop                   after ``Runner.run`` returned a final output: continue → another run with
                       the history and the feedback (a ``user`` item where the harness sends a
                       user message, a ``system`` one where it sends a system message;
                       ``run_streamed``: ``on_agent_end``, observe only)
stop_failure           an ``openai.APIError`` raised out of ``Runner.run`` (after the SDK's
                       retries)
halt                   :class:`RunHalted` at the next seam (a tool that was allowed still runs)
=====================  ==========================================================================

Every text is the one :func:`hookwire.render.render` gives: each dialect's harness wording
(a Claude Code hook's deny reads ``PreToolUse:Bash hook error: …``), or hookwire's neutral
labelled form with ``Hookwire(kernel, neutral=True)``. An input item has no field for its
source: a hook's item is never a ``user`` one except where the harness sends one, and then
its text says it is a hook's (``<system-reminder>``, ``<hook_prompt>``).

Hook calls block (a :class:`~hookwire.sync.SyncSession` on its own thread); the async seams
run them in a worker thread, so ``run``, ``run_sync`` and ``run_streamed`` share one session.
"""

from __future__ import annotations

import contextvars
import copy
import json
import logging
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import anyio.to_thread
import jsonschema  # type: ignore[import-untyped]  # via mcp, a dependency of the SDK
import openai
from agents import Agent, FunctionTool, RunConfig, RunHooks, Runner, RunResult, RunResultStreaming
from agents.items import ItemHelpers
from agents.run_state import RunState

from hookwire.kernel import Kernel
from hookwire.plugins._adapters import (
    PromptBlocked,
    Renderer,
    RunHalted,
    first_text,
    prompt_text,
    status_error_kind,
    texts_but,
    tool_result,
)
from hookwire.plugins.openai_agents.profile import PROFILE
from hookwire.render import ModelText, Placement, no_approval_surface
from hookwire.session import TurnOrigin
from hookwire.sync import SyncSession
from hookwire.verdicts import KERNEL, Decision, Halt, Verdict

log = logging.getLogger("hookwire.openai_agents")

#: Set on the ``ToolContext`` when the SDK's default failure message replaced a tool's result.
_SDK_FAILURE_ATTR = "_function_tool_default_failure_handled"


class ToolBatchBlocked(RunHalted):
    """A ``tool_batch`` hook blocked: the run ended after the tool calls, before the next model
    request. ``reason`` says why; the session is not halted."""

    def __init__(self, verdict: Verdict) -> None:
        source = verdict.reasons[0].source if verdict.reasons else KERNEL
        super().__init__(Halt(reason=verdict.reason, source=source))
        self.verdict = verdict


@dataclass
class _Run:
    """One ``Runner`` call (a stop continuation is another)."""

    origin: TurnOrigin
    nested: bool  # inside a tool of an outer run: the outer run owns prompt and stop
    streamed: bool = False
    resumed: bool = False  # input was a RunState: not a user prompt
    pending: list[ModelText] = field(default_factory=list)  # for the next model request
    injected: list[tuple[int, dict[str, Any]]] = field(default_factory=list)
    calls: list[tuple[str, str, str]] = field(default_factory=list)  # (call_id, name, args)
    ran: dict[str, dict[str, Any]] = field(default_factory=dict)  # call_id → input that ran
    last_text: str | None = None


_RUN: contextvars.ContextVar[_Run | None] = contextvars.ContextVar("hookwire_openai_run",
                                                                  default=None)


class Hookwire:
    """Runs hookwire's hooks and plugins at an OpenAI Agents SDK agent's seams.

    ``hooks = Hookwire(kernel, cwd=project)``, then ``await hooks.run(agent, prompt)`` (or
    ``run_sync`` / ``run_streamed``) in place of ``Runner.run(agent, prompt)``, with the same
    keyword arguments. The session starts before the first model request and ends with
    :meth:`close` (or the ``with`` / ``async with`` block). ``approval``: ``"interrupt"`` (an
    ``ask`` pauses the run with the SDK's own approval interruption, resumed with
    ``RunState.approve`` / ``reject``) or ``"kernel"`` (the kernel's ``approve`` seam decides,
    no answer denies). ``problems``: why configured hooks cannot run here (also logged).
    Hook text reaches the model in its harness's wording and place (:mod:`hookwire.render`);
    ``neutral=True`` gives hookwire's neutral labelled form instead.
    """

    def __init__(self, kernel: Kernel, *, max_stop_blocks: int | None = 8,
                 approval: str = "interrupt", neutral: bool = False,
                 **session_fields: Any) -> None:
        if approval not in ("interrupt", "kernel"):
            raise ValueError(f"approval must be 'interrupt' or 'kernel', not {approval!r}")
        self.kernel = kernel
        self.max_stop_blocks = max_stop_blocks
        self.approval = approval
        self.neutral = neutral
        self._render = Renderer(kernel, neutral=neutral)
        self.session_fields = session_fields
        self._session: SyncSession | None = None
        self._started = False
        self._lock = threading.RLock()
        self._carry: list[ModelText] = []  # texts for the next user turn's first request
        self._pre: dict[str, Verdict] = {}  # call_id → tool_pre verdict, across runs
        self._tools: set[str] = set()
        self._mapped: set[str] = set()
        self._wrapped: dict[int, tuple[Agent[Any], Agent[Any]]] = {}

    # -- session -------------------------------------------------------------------------------

    @property
    def session(self) -> SyncSession:
        """The session (opened on first use; hooks run on its helper thread)."""
        with self._lock:
            if self._session is None:
                fields = dict(self.session_fields)
                fields.setdefault("host", PROFILE)
                if self._tools:  # unknown until an agent is instrumented
                    fields.setdefault("tools", sorted(self._tools))
                if not _accepts_host(self.kernel):
                    fields.pop("host", None), fields.pop("tools", None)
                self._session = SyncSession(self.kernel, max_stop_blocks=self.max_stop_blocks,
                                            **fields)
            return self._session

    @property
    def problems(self) -> tuple[Any, ...]:
        """Why configured hooks cannot run in this session (each also logged as a warning on
        the ``hookwire`` logger): config problems, hooks on events this host never emits, tool
        matchers that match none of the agent's tools."""
        if self._session is None:
            return ()
        return tuple(getattr(self._session.session, "problems", ()))

    def _start(self) -> None:
        """Fire ``session_start`` once (blocking)."""
        session = self.session
        with self._lock:
            if self._started:
                return
            self._started = True
            verdict = session.session_start("startup")
            self._carry.extend(self._render(verdict))
        if verdict.halt is not None:
            raise RunHalted(verdict.halt)

    def close(self, reason: str = "other") -> None:
        """Fire ``session_end`` (if the session started) and stop the helper thread."""
        with self._lock:
            session, self._session = self._session, None
            started, self._started = self._started, False
        if session is not None:
            try:
                if started:
                    session.session_end(reason)
            finally:
                session.close()

    def __enter__(self) -> Hookwire:
        self._start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    async def __aenter__(self) -> Hookwire:
        await anyio.to_thread.run_sync(self._start)
        return self

    async def __aexit__(self, *exc: object) -> None:
        await anyio.to_thread.run_sync(self.close)

    def _declare(self, names: Sequence[str]) -> None:
        new = [n for n in names if n not in self._tools]
        if not new:
            return
        self._tools.update(new)
        if self._session is not None and hasattr(self._session.session, "declare_tools"):
            self._session.session.declare_tools(new)

    # -- entry points: one user turn each ------------------------------------------------------

    def _begin(self, agent: Agent[Any], input: Any, origin: TurnOrigin,
               streamed: bool) -> tuple[Agent[Any], _Run]:
        # a run from inside a tool of an outer run finds the outer turn already submitted
        return self.instrument(agent), _Run(origin=origin, nested=origin.consumed,
                                            streamed=streamed,
                                            resumed=isinstance(input, RunState))

    async def run(self, agent: Agent[Any], input: Any, **kwargs: Any) -> RunResult:
        """``Runner.run`` with hooks: one user turn (stop continuations included)."""
        self.instrument(agent)  # its tools are declared before the session opens
        with self.session.turn() as origin:
            hooked, run = self._begin(agent, input, origin, streamed=False)
            while True:
                result = await self._one(hooked, input, run, kwargs)
                input = await anyio.to_thread.run_sync(self._stopped, result, run)
                if input is None:
                    return result
                run = _Run(origin=run.origin, nested=False)

    async def _one(self, agent: Agent[Any], input: Any, run: _Run,
                   kwargs: dict[str, Any]) -> RunResult:
        token = _RUN.set(run)
        try:
            return await Runner.run(agent, input, **self._kwargs(run, kwargs))
        except openai.APIError as exc:
            await anyio.to_thread.run_sync(self._model_failed, exc, run)
            raise
        finally:
            _RUN.reset(token)

    def run_sync(self, agent: Agent[Any], input: Any, **kwargs: Any) -> RunResult:
        """``Runner.run_sync`` with hooks."""
        self.instrument(agent)
        with self.session.turn() as origin:
            hooked, run = self._begin(agent, input, origin, streamed=False)
            while True:
                token = _RUN.set(run)
                try:
                    result = Runner.run_sync(hooked, input, **self._kwargs(run, kwargs))
                except openai.APIError as exc:
                    self._model_failed(exc, run)
                    raise
                finally:
                    _RUN.reset(token)
                input = self._stopped(result, run)
                if input is None:
                    return result
                run = _Run(origin=run.origin, nested=False)

    def run_streamed(self, agent: Agent[Any], input: Any, **kwargs: Any) -> RunResultStreaming:
        """``Runner.run_streamed`` with hooks. A stop hook fires but cannot continue this run
        (its stream has ended); a failed model request does not fire ``stop_failure``."""
        self.instrument(agent)
        with self.session.turn() as origin:  # the run's task, created here, keeps both
            hooked, run = self._begin(agent, input, origin, streamed=True)
            token = _RUN.set(run)
            try:
                return Runner.run_streamed(hooked, input, **self._kwargs(run, kwargs))
            finally:
                _RUN.reset(token)

    def _kwargs(self, run: _Run, kwargs: dict[str, Any]) -> dict[str, Any]:
        kwargs = dict(kwargs)
        kwargs["hooks"] = _RunHooks(self, run, kwargs.get("hooks"))
        config = kwargs.get("run_config")
        if isinstance(config, dict):
            kwargs["run_config"] = RunConfig(**config)
        return kwargs

    # -- prompt, batch, stop, failure (blocking; called on a worker thread) ---------------------

    def _before_request(self, run: _Run, input_items: list[Any]) -> None:
        self._start()
        session = self.session
        if session.halted is not None:
            raise RunHalted(session.halted)
        if not run.nested and not run.resumed and not run.origin.consumed:
            prompt = _last_user_text(input_items)
            verdict = session.prompt_submit(prompt, origin=run.origin)
            if verdict.halt is not None:
                raise RunHalted(verdict.halt)
            texts = self._render(verdict, prompt=prompt)
            if verdict.denied:
                raise PromptBlocked(verdict.reason, verdict, first_text(texts, Placement.RESULT))
            with self._lock:
                carried, self._carry = self._carry, []
            run.pending[:0] = [*carried, *texts_but(texts, Placement.RESULT)]
        if run.calls:
            self._tool_batch(run, input_items)

    def _tool_batch(self, run: _Run, input_items: list[Any]) -> None:
        outputs = {_get(i, "call_id"): _get(i, "output") for i in input_items
                   if _get(i, "type") == "function_call_output"}
        rows = [{"tool_name": name,
                 "tool_input": run.ran.pop(call_id, None) or _parse(args),
                 "tool_use_id": call_id,
                 "tool_response": _response_text(outputs[call_id])}
                for call_id, name, args in run.calls if call_id in outputs]
        run.calls = []
        if not rows:
            return
        verdict = self.session.tool_batch(rows)
        if verdict.halt is not None:
            raise RunHalted(verdict.halt)
        if verdict.denied:
            raise ToolBatchBlocked(verdict)
        run.pending.extend(texts_but(self._render(verdict), Placement.RESULT))

    def _stopped(self, result: RunResult, run: _Run) -> Any:
        """After a run: the input of a continuation run, or ``None``."""
        session = self.session
        if session.halted is not None:
            raise RunHalted(session.halted)
        if result.interruptions or run.nested:
            return None  # paused for approval; or an inner run: the outer turn stops
        verdict = session.stop(last_assistant_message=_output_text(result.final_output))
        if verdict.halt is not None:
            raise RunHalted(verdict.halt)
        texts = self._render(verdict)  # contexts, then the continuation's feedback
        if not verdict.continue_turn:
            self._carry.extend(texts)
            return None
        history = _reinject(list(result.to_input_list()), run.injected)
        return [*history, *(_item(t) for t in texts)]

    def _stop_streamed(self, run: _Run, output: Any) -> None:
        if run.nested:
            return
        verdict = self.session.stop(last_assistant_message=_output_text(output))
        if verdict.halt is not None:
            raise RunHalted(verdict.halt)
        if verdict.continue_turn:
            log.warning("a stop hook asked to continue, but run_streamed() cannot: use run() "
                        "or run_sync()")
            verdict = _evolve(verdict, decision=Decision.NONE, reason=None, reasons=())
        self._carry.extend(self._render(verdict))  # its contexts, for the next turn

    def _model_failed(self, exc: openai.APIError, run: _Run) -> None:
        if self._session is None:
            return
        status = getattr(exc, "status_code", None)
        kind = status_error_kind(status) if isinstance(status, int) else "unknown"
        self.session.stop_failure(kind, error_details=str(exc) or repr(exc),
                                  last_assistant_message=run.last_text)

    # -- tools ---------------------------------------------------------------------------------

    def instrument(self, agent: Agent[Any]) -> Agent[Any]:
        """A copy of ``agent`` whose function tools (and MCP tools) run the tool hooks, and
        whose handoff agents are instrumented too. Cached per agent."""
        with self._lock:
            cached = self._wrapped.get(id(agent))
            if cached is not None and cached[0] is agent:
                return cached[1]
            tools = [self._wrap(t) if isinstance(t, FunctionTool) else t for t in agent.tools]
            clone = agent.clone(tools=tools)
            self._wrapped[id(agent)] = (agent, clone)  # before handoffs: cycles end here
            self._declare([t.name for t in agent.tools if isinstance(t, FunctionTool)])
            clone.handoffs = [self.instrument(h) if isinstance(h, Agent) else h
                              for h in agent.handoffs]
            if agent.mcp_servers:
                fetch = clone.get_mcp_tools

                async def get_mcp_tools(run_context: Any) -> list[Any]:
                    return [self._wrap_mcp(t) for t in await fetch(run_context)]

                object.__setattr__(clone, "get_mcp_tools", get_mcp_tools)
            return clone

    def _wrap_mcp(self, tool: Any) -> Any:
        if not isinstance(tool, FunctionTool):
            return tool
        binding = getattr(tool, "_mcp_tool_binding", None)
        if binding is not None and tool.name not in self._mapped:
            self._mapped.add(tool.name)
            self._map_mcp(tool.name, str(binding[0]), str(binding[1]))
        self._declare([tool.name])
        return self._wrap(tool)

    def _map_mcp(self, runtime: str, server: str, name: str) -> None:
        """Hooks see an MCP tool as ``mcp__server__tool`` (Claude Code's and Codex's name)."""
        if not hasattr(self.kernel, "map_tool"):
            return
        from hookwire.tools import mcp_name

        try:
            self.kernel.map_tool(runtime, mcp_name(server, name))
        except Exception as exc:  # a mapping the user gave first, or a name no dialect takes
            log.debug("MCP tool %s not mapped: %s", runtime, exc)

    def _wrap(self, tool: FunctionTool) -> FunctionTool:
        inner = tool.on_invoke_tool
        policy = tool.needs_approval
        wrapped = copy.copy(tool)
        hw = self

        async def needs_approval(ctx: Any, params: dict[str, Any], call_id: str) -> bool:
            if _RUN.get() is None:  # instrumented agent run without hookwire
                return await _policy(policy, ctx, params, call_id)
            verdict = await anyio.to_thread.run_sync(hw._pre_verdict, tool.name, params,
                                                     call_id)
            if verdict.denied:
                return False  # refused when invoked: the model sees the reason
            if verdict.decision in (Decision.ASK, Decision.DEFER):
                return True  # the SDK's approval interruption (kernel mode answered already)
            if verdict.decision is Decision.ALLOW:
                return False  # a hook allowed it: no permission prompt (as Claude Code)
            return await _policy(policy, ctx, params, call_id)

        async def on_invoke_tool(ctx: Any, args_json: str) -> Any:
            run = _RUN.get()
            if run is None:
                return await inner(ctx, args_json)
            call_id = ctx.tool_call_id
            args = _parse(args_json)
            verdict = hw._pre.pop(call_id, None)
            approved = verdict is not None  # the SDK only invokes an asked call once approved
            if verdict is None:
                verdict = await anyio.to_thread.run_sync(hw._pre_verdict, tool.name, args,
                                                         call_id)
            texts = hw._render(verdict, tool_name=tool.name, tool_input=args)
            run.pending.extend(texts_but(texts, Placement.TOOL_RESULT))
            if verdict.decision in (Decision.ASK, Decision.DEFER) and not approved:
                return no_approval_surface(verdict.reason)
            if verdict.denied:  # the hook's refusal, as its harness words it
                return (first_text(texts, Placement.TOOL_RESULT) or verdict.reason
                        or "denied by a hook")
            effective = args
            if verdict.input_rewritten and verdict.effective_input is not None:
                effective = dict(verdict.effective_input)
                error = _invalid(tool.params_json_schema, effective)
                if error is not None:
                    return f"A hook rewrote the input of {tool.name} into an invalid one: {error}"
                args_json = json.dumps(effective)
            run.ran[call_id] = effective
            try:
                result = await inner(ctx, args_json)
            except Exception as exc:
                failure = await anyio.to_thread.run_sync(
                    hw._tool_failure, tool.name, effective, str(exc) or repr(exc), call_id)
                run.pending.extend(texts_but(hw._render(failure, tool_name=tool.name,
                                                        tool_input=effective),
                                             Placement.TOOL_RESULT))
                raise
            if getattr(ctx, _SDK_FAILURE_ATTR, False):  # the SDK's message replaced an error
                failure = await anyio.to_thread.run_sync(
                    hw._tool_failure, tool.name, effective, str(result), call_id)
                run.pending.extend(texts_but(hw._render(failure, tool_name=tool.name,
                                                        tool_input=effective),
                                             Placement.TOOL_RESULT))
                return result
            post = await anyio.to_thread.run_sync(hw._tool_post, tool.name, effective, result,
                                                  call_id)
            texts = hw._render(post, tool_name=tool.name, tool_input=effective)
            run.pending.extend(texts_but(texts, Placement.TOOL_RESULT))
            return tool_result(texts, post, result)

        wrapped.on_invoke_tool = on_invoke_tool
        wrapped.needs_approval = needs_approval
        return wrapped

    def _pre_verdict(self, name: str, args: Mapping[str, Any], call_id: str) -> Verdict:
        """Fire ``tool_pre`` once per call (kept for the invocation, across runs)."""
        with self._lock:
            cached = self._pre.get(call_id)
        if cached is not None:
            return cached
        verdict = self.session.tool_pre(name, args, call_id)
        if verdict.decision is Decision.ASK and self.approval == "kernel":
            verdict = self._approve(name, verdict, call_id)
        with self._lock:
            self._pre[call_id] = verdict
        return verdict

    def _approve(self, name: str, pre: Verdict, call_id: str) -> Verdict:
        tool_input = dict(pre.effective_input or pre.original_input or {})
        answer = self.session.approve(name, tool_input, call_id, reason=pre.reason)
        if answer.decision is Decision.ALLOW:
            return answer if answer.effective_input is not None else _evolve(
                answer, effective_input=tool_input)
        if answer.decision is Decision.DENY:
            return answer
        return _evolve(answer, decision=Decision.DENY, reason=(
            no_approval_surface(pre.reason)))

    def _tool_post(self, name: str, args: dict[str, Any], result: Any,
                   call_id: str) -> Verdict:
        return self.session.tool_post(name, args, result, call_id)

    def _tool_failure(self, name: str, args: dict[str, Any], error: str,
                      call_id: str) -> Verdict:
        return self.session.tool_failure(name, args, error, call_id)


class _RunHooks(RunHooks[Any]):
    """The SDK's run hooks for one run: model-boundary seams, chaining the caller's hooks."""

    def __init__(self, hw: Hookwire, run: _Run, user: Any) -> None:
        self.hw, self.run, self.user = hw, run, user

    async def on_llm_start(self, context: Any, agent: Any, system_prompt: Any,
                           input_items: list[Any]) -> None:
        run = self.run
        await anyio.to_thread.run_sync(self.hw._before_request, run, input_items)
        for text in run.pending:  # anchored where they arose, sent with every later request
            at = len(input_items)
            if text.placement is Placement.BEFORE_PROMPT:  # Codex's SessionStart context
                at = _last_user_index(input_items, at)
            run.injected.append((at, _item(text)))
        run.pending.clear()
        input_items[:] = _reinject(input_items, run.injected)
        if self.user is not None:
            await self.user.on_llm_start(context, agent, system_prompt, input_items)

    async def on_llm_end(self, context: Any, agent: Any, response: Any) -> None:
        calls = [(_get(i, "call_id"), _get(i, "name"), _get(i, "arguments") or "")
                 for i in response.output if _get(i, "type") == "function_call"]
        self.run.calls = calls
        texts = [t for i in response.output if _get(i, "type") == "message"
                 if (t := ItemHelpers.extract_last_text(i))]
        if texts:
            self.run.last_text = "\n".join(texts)
        if self.user is not None:
            await self.user.on_llm_end(context, agent, response)

    async def on_agent_end(self, context: Any, agent: Any, output: Any) -> None:
        if self.run.streamed:
            await anyio.to_thread.run_sync(self.hw._stop_streamed, self.run, output)
        if self.user is not None:
            await self.user.on_agent_end(context, agent, output)

    async def on_agent_start(self, context: Any, agent: Any) -> None:
        if self.user is not None:
            await self.user.on_agent_start(context, agent)

    async def on_handoff(self, context: Any, from_agent: Any, to_agent: Any) -> None:
        if self.user is not None:
            await self.user.on_handoff(context, from_agent, to_agent)

    async def on_tool_start(self, context: Any, agent: Any, tool: Any) -> None:
        if self.user is not None:
            await self.user.on_tool_start(context, agent, tool)

    async def on_tool_end(self, context: Any, agent: Any, tool: Any, result: Any) -> None:
        if self.user is not None:
            await self.user.on_tool_end(context, agent, tool, result)


# -- helpers -------------------------------------------------------------------------------------

def _accepts_host(kernel: Kernel) -> bool:
    """Whether this hookwire's sessions take ``host=`` / ``tools=`` (the tool vocabulary)."""
    return hasattr(kernel, "map_tool")


async def _policy(policy: Any, ctx: Any, params: dict[str, Any], call_id: str) -> bool:
    """The tool's own ``needs_approval``."""
    if callable(policy):
        answer = policy(ctx, params, call_id)
        if hasattr(answer, "__await__"):
            answer = await answer
        return bool(answer)
    return bool(policy)


def _evolve(verdict: Verdict, **changes: Any) -> Verdict:
    import attrs

    return attrs.evolve(verdict, **changes)


def _invalid(schema: Mapping[str, Any], value: Any) -> str | None:
    """Why ``value`` does not satisfy the tool's JSON schema, or ``None``."""
    try:
        jsonschema.validate(value, dict(schema))
    except jsonschema.ValidationError as exc:
        return str(exc.message)
    return None


def _parse(args_json: str) -> dict[str, Any]:
    try:
        parsed = json.loads(args_json or "{}")
    except ValueError:
        return {"_raw": args_json}
    return parsed if isinstance(parsed, dict) else {"_raw": args_json}


def _get(item: Any, key: str) -> Any:
    return item.get(key) if isinstance(item, Mapping) else getattr(item, key, None)


def _item(text: ModelText) -> dict[str, Any]:
    """A hook text as an input item: ``user`` only where the harness sends a user message
    (its text says it is a hook's), ``developer`` where it sends one (Codex), else ``system``."""
    role = text.role if text.role in ("user", "developer") else "system"
    return {"role": role, "content": text.text}


def _last_user_index(items: Sequence[Any], default: int) -> int:
    """Where the user's prompt is in ``items`` (``default``: there is none)."""
    for i in range(len(items) - 1, -1, -1):
        if isinstance(items[i], str) or _get(items[i], "role") == "user":
            return i
    return default


def _reinject(items: list[Any], injected: list[tuple[int, dict[str, Any]]]) -> list[Any]:
    """``items`` (the history as the SDK rebuilt it) with this run's hook messages at their
    places again; items the SDK already carries are not doubled."""
    out = [i for i in items if not any(i is msg for _, msg in injected)]
    for offset, (at, msg) in enumerate(sorted(injected, key=lambda x: x[0])):
        out.insert(min(at + offset, len(out)), msg)
    return out


def _last_user_text(items: Sequence[Any]) -> str:
    for item in reversed(items):
        if isinstance(item, str):
            return item
        if _get(item, "role") == "user":
            return prompt_text(_get(item, "content"))
    return ""


def _response_text(output: Any) -> Any:
    if isinstance(output, str | int | float | bool) or output is None:
        return output
    return prompt_text(output) if isinstance(output, list) else str(output)


def _output_text(output: Any) -> str | None:
    if output is None:
        return None
    if isinstance(output, str):
        return output
    try:
        return json.dumps(output, default=lambda o: getattr(o, "model_dump", lambda: str(o))())
    except (TypeError, ValueError):
        return str(output)


__all__ = ["Hookwire", "PromptBlocked", "RunHalted", "ToolBatchBlocked"]
