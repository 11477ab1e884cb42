"""The LangChain v1 middleware: hookwire's hooks at every seam ``create_agent`` has
(``before_agent``, ``before_model``, ``wrap_model_call``, ``wrap_tool_call``, ``after_agent``),
applied LangChain's way. The protocol is :class:`hookwire.driver.HostDriver`'s; this module
translates. The seam-by-seam table is in docs/hosts/langchain.md.

Each message a hook adds carries its hook in ``additional_kwargs["hookwire_source"]`` (a hook's
text is never the user's); a Codex developer message is a ``SystemMessage`` with
``additional_kwargs["__openai_role__"] = "developer"``. Hook calls run on the session's own
thread (:class:`~hookwire.driver.BlockingDriver`), so ``invoke``, ``stream``, ``ainvoke`` and
``astream`` share one session.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Mapping
from typing import Any

from langchain.agents.middleware import AgentMiddleware, hook_config
from langchain_core.messages import (
    AIMessage,
    BaseMessage,
    HumanMessage,
    RemoveMessage,
    SystemMessage,
    ToolMessage,
)
from langgraph.config import get_config
from langgraph.errors import GraphBubbleUp
from langgraph.types import Command, interrupt

from hookwire.driver import (
    Action,
    HostAdapter,
    HostRun,
    PromptBlocked,
    RunHalted,
    ToolBatchBlocked,
    ToolGo,
    in_thread,
    last_text,
    tool_name,
)
from hookwire.kernel import Kernel
from hookwire.plugins.langchain.model import LangChainModel
from hookwire.plugins.langchain.profile import PROFILE
from hookwire.render import Placement, source_label, texts_at, texts_but

#: Raised through the model call but not a failed model request.
_NOT_A_MODEL_FAILURE = (GraphBubbleUp, PromptBlocked, RunHalted)
#: Raised through a tool call (an interrupt, a nested run that was stopped) but not its failure.
_NOT_A_TOOL_FAILURE = _NOT_A_MODEL_FAILURE


class HookwireMiddleware(HostAdapter, AgentMiddleware[Any, Any, Any]):
    """Runs hookwire's hooks and plugins at a LangChain agent's seams:
    ``create_agent(model, tools, middleware=[HookwireMiddleware(kernel, cwd=project)])``. The
    session opens on first use (``session_start``) and ends with :meth:`close` or the ``with``
    block (``session_end``); the tools each model call is given are declared to it.
    ``approval``: ``"auto"`` interrupts for ``ask`` when the agent has a checkpointer,
    ``"interrupt"`` always does, ``"kernel"`` never does."""

    def __init__(self, kernel: Kernel, *, max_stop_blocks: int | None = 8,
                 approval: str = "auto", neutral: bool = False,
                 **session_fields: Any) -> None:
        super().__init__(kernel, host=PROFILE, max_stop_blocks=max_stop_blocks, neutral=neutral,
                         **session_fields)
        self.approval = approval
        self.tools = []
        # keyed by (graph run, tool_call_id): agents nested in a tool may reuse call ids
        self._go: dict[tuple[Any, str], ToolGo] = {}

    # -- prompt --------------------------------------------------------------------------------

    def before_agent(self, state: Any, runtime: Any) -> dict[str, Any] | None:
        run = self.driver.begin(last_text(state["messages"], _is_prompt, lambda m: m.content))
        self.runs[_graph_run()] = run
        self.call(run.open)
        texts = self.call(run.before_model)  # the prompt (nested: sub-agent start)
        after = _messages(texts_but(texts, Placement.BEFORE_PROMPT, Placement.RESULT))
        before = _messages(texts_at(texts, Placement.BEFORE_PROMPT))
        last = state["messages"][-1] if state["messages"] else None
        if before and isinstance(last, HumanMessage) and last.id:
            # before the prompt (Codex's SessionStart context): the prompt moves after them
            moved = last.model_copy(update={"id": str(uuid.uuid4())})
            return {"messages": [RemoveMessage(id=last.id), *before, moved, *after]}
        messages = [*before, *after]
        return {"messages": messages} if messages else None

    abefore_agent = in_thread(before_agent)

    # -- tool batch, model failures ------------------------------------------------------------

    @hook_config(can_jump_to=["end"])
    def before_model(self, state: Any, runtime: Any) -> dict[str, Any] | None:
        run = self.runs.get(_graph_run())
        if run is None:
            return None
        try:
            texts = self.call(run.before_model)
        except ToolBatchBlocked as blocked:  # the harness's run result; neutral: labelled
            stop = SystemMessage(blocked.text,
                                 additional_kwargs={"hookwire_source": blocked.source.label()})
            return {"messages": [*_messages(blocked.texts), stop], "jump_to": "end"}
        messages = _messages(texts)
        return {"messages": messages} if messages else None

    abefore_model = in_thread(before_model)

    def wrap_model_call(self, request: Any, handler: Callable[[Any], Any]) -> Any:
        run = self._model_request(request)
        if run is None:
            return handler(request)
        response = self.model_call_sync(run, lambda: handler(request),
                                        passthrough=_NOT_A_MODEL_FAILURE)
        return self._answered(run, response)

    awrap_model_call = in_thread(wrap_model_call, around=True)

    def _model_request(self, request: Any) -> HostRun | None:
        """Tell the session the tools a model call is given (``BaseTool``s or dicts); lend
        its model (prompt and agent hooks ask it). The run it is of, with its last answer
        so far (for ``stop_failure``)."""
        self.driver.declare_tools([n for n in map(tool_name, request.tools or ()) if n])
        self.driver.lend(model=LangChainModel(request.model))
        run = self.runs.get(_graph_run())
        if run is not None:
            run.model_answered(_last_ai(request.messages, turn=True))
        return run

    @staticmethod
    def _answered(run: HostRun, response: Any) -> Any:
        """The model's tool calls, in its order (for ``tool_batch``)."""
        for message in getattr(response, "result", None) or [response]:
            if isinstance(message, AIMessage):
                run.model_answered(None, [str(c["id"]) for c in message.tool_calls if c.get("id")])
        return response

    # -- stop ----------------------------------------------------------------------------------

    @hook_config(can_jump_to=["model"])
    def after_agent(self, state: Any, runtime: Any) -> dict[str, Any] | None:
        key = _graph_run()
        run = self.runs.pop(key, None)
        if run is None:
            return None
        texts = self.call(run.stop, _last_ai(state["messages"]))
        if texts is None:
            return None
        self.runs[key] = run  # the turn goes on
        return {"messages": _messages(texts), "jump_to": "model"}

    aafter_agent = in_thread(after_agent)

    # -- tools ---------------------------------------------------------------------------------

    def wrap_tool_call(self, request: Any, handler: Callable[[Any], Any]) -> Any:
        refused, request, run = self._before_tool(request)
        if refused is not None or run is None:
            return refused if refused is not None else handler(request)
        result = self.tool_call_sync(run, *_call(request), lambda: handler(request),
                                     passthrough=_NOT_A_TOOL_FAILURE)
        return self._after_tool(run, request, result)

    awrap_tool_call = in_thread(wrap_tool_call, around=True)

    def _before_tool(self, request: Any) -> tuple[Any, Any, HostRun | None]:
        # No halt check here: a halt stops the run at the next seam after the tool calls of
        # this response (before_model / after_agent), so every call of it is handled.
        graph = _graph_run()
        run = self.guarded_sync(graph)  # runs keyed by graph run
        name, args, call_id = _call(request)
        # LangGraph re-runs the tools node when an interrupt is resumed: answer from the cache
        key = (graph, call_id)
        go = self._go.get(key) or self.call(run.tool_pre, name, args, call_id)
        self._go[key] = go
        if go.action in (Action.ASK, Action.DEFER):
            go = self._resolve_ask(run, name, go, call_id)
        if go.action is Action.REFUSE:
            self._go.pop(key, None)
            message = ToolMessage(content=go.text or "denied by a hook", tool_call_id=call_id,
                                  name=name, status="error")
            return _with(message, _messages(run.take())), request, run
        if go.input != args:
            request = request.override(tool_call={**request.tool_call, "args": go.input})
        return None, request, run

    def _resolve_ask(self, run: HostRun, name: str, go: ToolGo, call_id: str) -> ToolGo:
        if self.approval == "interrupt" or (self.approval == "auto" and _has_checkpointer()):
            answer = interrupt({"hookwire": go.verdict.decision.value, "action_requests": [
                {"name": name, "args": go.input, "description": go.reason or ""}]})
            return run.answered(go, call_id, *_decision(answer, go.input))
        return self.call(run.approve, name, go, call_id)

    def _after_tool(self, run: HostRun, request: Any, result: Any) -> Any:
        name, args, call_id = _call(request)
        self._go.pop((_graph_run(), call_id), None)
        if not isinstance(result, ToolMessage):
            return result  # a Command from the tool: nothing to observe
        if result.status == "error":  # the ToolNode turned an exception into a message
            self.call(run.tool_failed, name, args, call_id, str(result.content))
            return _with(result, _messages(run.take()))
        content = self.call(run.tool_done, name, args, call_id, result.content)
        if content is not result.content:
            result = result.model_copy(update={"content": _content(content)})
        return _with(result, _messages(run.take()))


def _call(request: Any) -> tuple[str, dict[str, Any], str]:
    call = request.tool_call
    return call["name"], dict(call["args"]), call.get("id") or ""


def _with(message: ToolMessage, extra: list[BaseMessage]) -> Any:
    return Command(update={"messages": [message, *extra]}) if extra else message


def _messages(texts: Any) -> list[BaseMessage]:
    """Hook texts as messages, each labelled with its hook: a ``HumanMessage`` where the
    harness sends a user message (its text says it is a hook's), else a ``SystemMessage``."""
    out: list[BaseMessage] = []
    for text in texts:
        kwargs: dict[str, Any] = {"hookwire_source": source_label(text)}
        if text.role == "user":
            out.append(HumanMessage(text.text, additional_kwargs=kwargs))
            continue
        if text.role == "developer":  # langchain-openai sends it with the developer role
            kwargs["__openai_role__"] = "developer"
        out.append(SystemMessage(text.text, additional_kwargs=kwargs))
    return out


def _content(value: Any) -> Any:
    return value if isinstance(value, str | list) else str(value)


def _decision(answer: Any, tool_input: dict[str, Any]) -> tuple[bool, dict[str, Any], str | None]:
    """Read a human-in-the-loop answer: ``{"type": "approve" | "edit" | "reject"}`` (alone or
    as ``{"decisions": [...]}``, the shape HumanInTheLoopMiddleware resumes with) or a bool."""
    if isinstance(answer, bool):
        return answer, tool_input, None if answer else "denied by the user"
    if isinstance(answer, Mapping) and "decisions" in answer:
        answer = answer["decisions"][0]
    kind = answer.get("type") if isinstance(answer, Mapping) else None
    if kind == "approve":
        return True, tool_input, None
    if kind == "edit":
        return True, dict(answer["edited_action"]["args"]), None
    message = answer.get("message") if isinstance(answer, Mapping) else None
    return False, tool_input, message or "denied by the user"


def _graph_run() -> tuple[str, str]:
    """The graph run a node belongs to: its thread and its parent checkpoint namespace (the
    same for the model and tools nodes of one agent run, and when an interrupt is resumed;
    different for an agent invoked inside a tool)."""
    try:
        configurable = get_config().get("configurable", {})
    except RuntimeError:
        return "", ""
    namespace = str(configurable.get("checkpoint_ns", ""))
    return str(configurable.get("thread_id", "")), namespace.rpartition("|")[0]


def _has_checkpointer() -> bool:
    try:
        config = get_config()
    except RuntimeError:
        return False
    return config.get("configurable", {}).get("__pregel_checkpointer") is not None


def _is_prompt(message: BaseMessage) -> bool:
    """A message of the user (not one a hook added, such as a Stop continuation's)."""
    return isinstance(message, HumanMessage) and not message.additional_kwargs.get(
        "hookwire_source")


def _last_ai(messages: list[BaseMessage], *, turn: bool = False) -> str | None:
    """The text of the last ``AIMessage`` (``turn``: of the current user turn), if any."""
    return last_text(messages, lambda m: isinstance(m, AIMessage),
                     lambda m: m.text if isinstance(m.text, str) else str(m.content),
                     until=_is_prompt if turn else None)
