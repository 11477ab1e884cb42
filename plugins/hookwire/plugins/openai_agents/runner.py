"""The OpenAI Agents SDK runner: hookwire's hooks at every seam the SDK has (``RunHooks``, each
``FunctionTool``'s ``needs_approval`` and ``on_invoke_tool``, the runner's result), applied the
way the SDK applies them. The protocol is :class:`hookwire.driver.HostDriver`'s; this module
translates. The seam-by-seam table is in docs/hosts/openai-agents.md.

An input item has no field for its source: a hook's item is never a ``user`` one except where
the harness sends one, and then its text says it is a hook's. Hook calls run on the session's
own thread (:class:`~hookwire.driver.BlockingDriver`), so ``run``, ``run_sync`` and
``run_streamed`` share one session.
"""

from __future__ import annotations

import copy
import json
import threading
from typing import Any

import openai
from agents import Agent, FunctionTool, RunConfig, RunHooks, Runner, RunResult, RunResultStreaming
from agents.items import ItemHelpers
from agents.run_state import RunState

from hookwire.driver import Action, HostAdapter, HostRun, field, output_text, prompt_text
from hookwire.kernel import Kernel
from hookwire.plugins._mcp import McpSessions, running_loop
from hookwire.plugins._schema import schema_error
from hookwire.plugins.openai_agents.model import OpenAIAgentsModel
from hookwire.plugins.openai_agents.profile import PROFILE
from hookwire.render import ModelText

#: Set on the ``ToolContext`` when the SDK's default failure message replaced a tool's result.
_SDK_FAILURE_ATTR = "_function_tool_default_failure_handled"


class Hookwire(HostAdapter):
    """Runs hookwire's hooks and plugins at an OpenAI Agents SDK agent's seams.

    ``hooks = Hookwire(kernel, cwd=project)``, then ``await hooks.run(agent, prompt)`` (or
    ``run_sync`` / ``run_streamed``) in place of ``Runner.run(agent, prompt)``, with the same
    keyword arguments. The session starts before the first model request and ends with
    :meth:`close` (or the ``with`` / ``async with`` block). ``approval``: ``"interrupt"`` (an
    ``ask`` pauses the run with the SDK's own approval interruption, resumed with
    ``RunState.approve`` / ``reject``) or ``"kernel"`` (the kernel's ``approve`` seam decides,
    no answer denies)."""

    def __init__(self, kernel: Kernel, *, max_stop_blocks: int | None = 8,
                 approval: str = "interrupt", neutral: bool = False,
                 **session_fields: Any) -> None:
        if approval not in ("interrupt", "kernel"):
            raise ValueError(f"approval must be 'interrupt' or 'kernel', not {approval!r}")
        super().__init__(kernel, host=PROFILE, max_stop_blocks=max_stop_blocks, neutral=neutral,
                         **session_fields)
        self.approval = approval
        self._lock = threading.RLock()
        self._wrapped: dict[int, tuple[Agent[Any], Agent[Any]]] = {}

    # -- entry points: one user turn each ------------------------------------------------------

    def _begin(self, agent: Agent[Any], input: Any) -> tuple[Agent[Any], HostRun]:
        hooked = self.instrument(agent)  # its tools are declared before the session opens
        # prompt and agent hooks ask its model, mcp_tool hooks call its MCP servers, on the
        # caller's loop (hooks run on the driver's thread)
        loop = running_loop()
        self.driver.lend(model=OpenAIAgentsModel(agent.model, loop=loop), mcp=McpSessions(
            lambda: {s.name: s for s in agent.mcp_servers}, loop=loop))
        resumed = isinstance(input, RunState)
        run = self.driver.begin(None if resumed else input, resumed=resumed,
                                agent_type=agent.name or "agent")
        return hooked, run

    async def run(self, agent: Agent[Any], input: Any, **kwargs: Any) -> RunResult:
        """``Runner.run`` with hooks: one user turn (stop continuations included)."""
        hooked, run = self._begin(agent, input)
        return await self.turn(run, lambda i: Runner.run(hooked, i, **self._kwargs(run, kwargs)),
                               input, **_turn(run))

    def run_sync(self, agent: Agent[Any], input: Any, **kwargs: Any) -> RunResult:
        """``Runner.run_sync`` with hooks."""
        hooked, run = self._begin(agent, input)
        result: RunResult = self.turn_sync(
            run, lambda i: Runner.run_sync(hooked, i, **self._kwargs(run, kwargs)), input,
            **_turn(run))
        return result

    def run_streamed(self, agent: Agent[Any], input: Any, **kwargs: Any) -> RunResultStreaming:
        """``Runner.run_streamed`` with hooks. A stop hook fires but cannot continue this run
        (its stream has ended); a failed model request does not fire ``stop_failure``."""
        hooked, run = self._begin(agent, input)
        self.call(run.open)
        with self.running(run):  # the run's task, created here, keeps it
            return Runner.run_streamed(hooked, input,
                                       **self._kwargs(run, kwargs, streamed=True))

    def _kwargs(self, run: HostRun, kwargs: dict[str, Any], *,
                streamed: bool = False) -> dict[str, Any]:
        kwargs = dict(kwargs)
        kwargs["hooks"] = _RunHooks(self, run, kwargs.get("hooks"), streamed)
        config = kwargs.get("run_config")
        if isinstance(config, dict):
            kwargs["run_config"] = RunConfig(**config)
        return kwargs

    # -- tools ---------------------------------------------------------------------------------

    def instrument(self, agent: Agent[Any]) -> Agent[Any]:
        """A copy of ``agent`` whose function tools (and MCP tools) run the tool hooks, and
        whose handoff agents are instrumented too. Cached per agent."""
        with self._lock:
            cached = self._wrapped.get(id(agent))
            if cached is not None and cached[0] is agent:
                return cached[1]
            tools = [self._wrap(t) if isinstance(t, FunctionTool) else t for t in agent.tools]
            for tool in agent.tools:  # an agent.as_tool(): its agent's tools are guarded too
                sub = _sub_agent(tool)
                if sub is not None:
                    sub.tools[:] = [self._wrap(t) if isinstance(t, FunctionTool)
                                    and not getattr(t, "_hookwire", False) else t
                                    for t in sub.tools]
            clone = agent.clone(tools=tools)
            self._wrapped[id(agent)] = (agent, clone)  # before handoffs: cycles end here
            self.driver.declare_tools([t.name for t in agent.tools
                                       if isinstance(t, FunctionTool)])
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
        binding = getattr(tool, "_mcp_tool_binding", None)  # (server, its tool's name)
        mcp = {tool.name: (str(binding[0]), str(binding[1]))} if binding is not None else None
        self.driver.declare_tools([tool.name], mcp=mcp)
        return self._wrap(tool)

    def _wrap(self, tool: FunctionTool) -> FunctionTool:
        inner = tool.on_invoke_tool
        policy = tool.needs_approval
        wrapped = copy.copy(tool)
        hw = self

        async def needs_approval(ctx: Any, params: dict[str, Any], call_id: str) -> bool:
            run = hw.current()
            if run is None:  # instrumented agent run without hookwire
                return await _policy(policy, ctx, params, call_id)
            # yes: the SDK's approval interruption (kernel mode answered an ask already)
            needed = await hw.acall(run.needs_approval, tool.name, params, call_id,
                                    surface=hw.approval == "interrupt")
            return await _policy(policy, ctx, params, call_id) if needed is None else needed

        async def on_invoke_tool(ctx: Any, args_json: str) -> Any:
            run, call_id = hw.current(), ctx.tool_call_id
            if run is None:
                return await inner(ctx, args_json)
            # the SDK invokes an asked call only once its approval surface approved it
            go = await hw.acall(run.admit, tool.name, _parse(args_json), call_id,
                                surface=hw.approval == "interrupt",
                                check=lambda i: schema_error(tool.params_json_schema, i))
            if go.action is not Action.RUN:
                return go.text
            if go.rewritten:
                args_json = json.dumps(go.input)
            sub = _sub_agent(tool)
            _, sent = await hw.run_tool(
                run, tool.name, go.input, call_id,
                lambda: inner(ctx, args_json) if sub is None else
                hw._as_tool(sub, inner, ctx, args_json),
                # the SDK's own message replaced an error
                failed=lambda r: str(r) if getattr(ctx, _SDK_FAILURE_ATTR, False) else None)
            return sent

        wrapped.on_invoke_tool = on_invoke_tool
        wrapped.needs_approval = needs_approval
        wrapped._hookwire = True  # type: ignore[attr-defined]
        return wrapped

    async def _as_tool(self, agent: Agent[Any], inner: Any, ctx: Any, args_json: str) -> Any:
        """An ``agent.as_tool()`` call: the SDK runs the agent itself; its tools (guarded in
        place by :meth:`instrument`) report to a nested run with the sub-agent seams."""

        async def invoke(sub: HostRun) -> Any:
            with self.running(sub):
                return await inner(ctx, args_json)

        return await self.nested(invoke, _parse(args_json).get("input"),
                                 agent_type=agent.name or "agent")


def _sub_agent(tool: Any) -> Agent[Any] | None:
    """The agent an ``agent.as_tool()`` tool runs (the SDK marks such tools)."""
    agent = getattr(tool, "_agent_instance", None) if getattr(tool, "_is_agent_tool", False) \
        else None
    return agent if isinstance(agent, Agent) else None


def _turn(run: HostRun) -> dict[str, Any]:
    """How :meth:`HostAdapter.turn` reads a ``Runner`` call's result."""
    return {"answer": lambda r: output_text(r.final_output),
            "paused": lambda r: bool(r.interruptions),  # paused for approval
            "again": lambda r, texts: [*run.anchored.apply(list(r.to_input_list())),
                                       *(_item(t) for t in texts)],
            "failures": (openai.APIError,)}


class _RunHooks(RunHooks[Any]):
    """The SDK's run hooks for one run: model-boundary seams, chaining the caller's hooks."""

    def __init__(self, hw: Hookwire, run: HostRun, user: Any, streamed: bool) -> None:
        self.hw, self.run, self.user, self.streamed = hw, run, user, streamed
        for name in ("on_agent_start", "on_handoff", "on_tool_start", "on_tool_end"):
            if user is not None:  # the caller's own hooks, where hookwire has none
                setattr(self, name, getattr(user, name))

    async def on_llm_start(self, context: Any, agent: Any, system_prompt: Any,
                           input_items: list[Any]) -> None:
        await self.hw.before_request(self.run, input_items, _item, _is_prompt,
                                     prompt_text(input_items))
        if self.user is not None:
            await self.user.on_llm_start(context, agent, system_prompt, input_items)

    async def on_llm_end(self, context: Any, agent: Any, response: Any) -> None:
        texts = [t for i in response.output if field(i, "type") == "message"
                 if (t := ItemHelpers.extract_last_text(i))]
        calls = [str(field(i, "call_id")) for i in response.output
                 if field(i, "type") == "function_call"]
        self.run.model_answered("\n".join(texts) if texts else None, calls)
        if self.user is not None:
            await self.user.on_llm_end(context, agent, response)

    async def on_agent_end(self, context: Any, agent: Any, output: Any) -> None:
        if self.streamed and not self.run.nested:
            await self.hw.acall(self.run.stop, output_text(output),
                                cannot="run_streamed() cannot: use run() or run_sync()")
        if self.user is not None:
            await self.user.on_agent_end(context, agent, output)


# -- helpers -------------------------------------------------------------------------------------

async def _policy(policy: Any, ctx: Any, params: dict[str, Any], call_id: str) -> bool:
    """The tool's own ``needs_approval``."""
    if callable(policy):
        answer = policy(ctx, params, call_id)
        if hasattr(answer, "__await__"):
            answer = await answer
        return bool(answer)
    return bool(policy)


def _parse(args_json: str) -> dict[str, Any]:
    try:
        parsed = json.loads(args_json or "{}")
    except ValueError:
        return {"_raw": args_json}
    return parsed if isinstance(parsed, dict) else {"_raw": args_json}


def _item(text: ModelText) -> dict[str, Any]:
    """A hook text as an input item: ``user`` only where the harness sends a user message
    (its text says it is a hook's), ``developer`` where it sends one (Codex), else ``system``."""
    role = text.role if text.role in ("user", "developer") else "system"
    return {"role": role, "content": text.text}


def _is_prompt(item: Any) -> bool:
    return isinstance(item, str) or field(item, "role") == "user"


__all__ = ["Hookwire"]
