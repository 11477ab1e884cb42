"""The LangChain v1 middleware: every seam ``create_agent`` has, applied LangChain's way.

=====================  ==========================================================================
hookwire seam          LangChain seam (how the verdict is applied)
=====================  ==========================================================================
session_start / end    the middleware's session (``with middleware:`` or :meth:`close`)
prompt_submit          ``before_agent``: runs once per ``invoke``/``stream`` (retries, tool
                       follow-ups and stop continuations never pass it; a resume with
                       ``Command(resume=...)`` does not either; an agent invoked from inside a
                       tool is nested and fires nothing); blocked → :class:`PromptBlocked`;
                       contexts → ``SystemMessage``s after the prompt (before it where the
                       harness puts them there: Codex's SessionStart context)
tool_pre               ``wrap_tool_call``: deny → an error ``ToolMessage`` carrying the text;
                       ask → a LangGraph ``interrupt`` (the human-in-the-loop path) when the
                       agent has a checkpointer, else the kernel ``approve`` seam, else deny;
                       rewritten input → the tool validates it again (invalid → an error
                       ``ToolMessage``)
tool_post / failure    ``wrap_tool_call`` after the handler (a returned error ``ToolMessage`` or
                       a raised exception is a failure): a replaced result is the
                       ``ToolMessage``'s content; feedback and contexts → ``SystemMessage``s
                       right after it
tool_batch             ``before_model`` once every tool call of the last ``AIMessage`` has its
                       ``ToolMessage`` (once per response): contexts → ``SystemMessage``s
                       before the request; blocked → the reason as a ``SystemMessage`` and
                       ``jump_to: "end"`` (the model is not called again; no stop hook fires)
stop                   ``after_agent`` with ``jump_to: "model"`` and the feedback messages (a
                       ``HumanMessage`` where the harness sends a user message, a
                       ``SystemMessage`` where it sends a system one)
stop_failure           ``wrap_model_call``: the handler raised (after the retries of any
                       middleware listed after this one, and the chat model's own); fired, then
                       the exception propagates unchanged
halt                   :class:`RunHalted` raised at the next seam (``continue: false`` on
                       ``tool_pre`` lets the tool call be handled as decided first, as Claude Code)
=====================  ==========================================================================

Every text is the one :func:`hookwire.render.render` gives: each dialect's harness wording
(a Claude Code hook's deny reads ``PreToolUse:Bash hook error: …``), or hookwire's neutral
labelled form with ``HookwireMiddleware(kernel, neutral=True)``. Each message a hook adds
carries its hook in ``additional_kwargs["hookwire_source"]`` (a hook's text is never the
user's); a Codex developer message is a ``SystemMessage`` with
``additional_kwargs["__openai_role__"] = "developer"``.

Hook calls are blocking (a :class:`~hookwire.sync.SyncSession` on its own thread); the async
hooks run them in a worker thread, so ``invoke``, ``stream``, ``ainvoke`` and ``astream`` share
one session.
"""

from __future__ import annotations

import threading
import uuid
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

import anyio.to_thread
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

from hookwire.kernel import Kernel
from hookwire.plugins._adapters import (
    PromptBlocked,
    Renderer,
    RunHalted,
    enclosing_tool_session,
    first_text,
    label,
    prompt_text,
    render_feedback,
    running_tool,
    source_label,
    status_error_kind,
    texts_at,
    texts_but,
    tool_result,
)
from hookwire.plugins.langchain.profile import PROFILE
from hookwire.render import ModelText, Placement, no_approval_surface
from hookwire.sync import SyncSession
from hookwire.verdicts import Decision, Verdict

#: Marks the message a blocking tool-batch hook ended the loop with.
_BLOCKED = "hookwire_tool_batch_blocked"
#: Raised through the model call but not a failed model request.
_NOT_A_MODEL_FAILURE = (GraphBubbleUp, PromptBlocked, RunHalted)
#: Raised through a tool call (an interrupt, a nested run that was stopped) but not its failure.
_NOT_A_TOOL_FAILURE = _NOT_A_MODEL_FAILURE


class HookwireMiddleware(AgentMiddleware[Any, Any, Any]):
    """Runs hookwire's hooks and plugins at a LangChain agent's seams.

    ``create_agent(model, tools, middleware=[HookwireMiddleware(kernel, cwd=project)])``. The
    session opens on first use (``session_start``) and ends with :meth:`close` or the ``with``
    block (``session_end``). ``approval``: ``"auto"`` interrupts for ``ask`` when the agent
    has a checkpointer, ``"interrupt"`` always does, ``"kernel"`` never does.

    The session is opened for the ``langchain`` host profile, and the tools each model call is
    given are declared to it; :attr:`problems` lists every reason a configured hook cannot run
    here (each is also logged once as a warning on the ``hookwire`` logger).

    Hook text reaches the model in its harness's wording and place (:mod:`hookwire.render`);
    ``neutral=True`` gives hookwire's neutral labelled form instead.
    """

    def __init__(self, kernel: Kernel, *, max_stop_blocks: int | None = 8,
                 approval: str = "auto", neutral: bool = False,
                 **session_fields: Any) -> None:
        self.kernel = kernel
        self.max_stop_blocks = max_stop_blocks
        self.approval = approval
        self.neutral = neutral
        self._render = Renderer(kernel, neutral=neutral)
        self.session_fields = session_fields
        self.tools = []
        self._session: SyncSession | None = None
        self._lock = threading.Lock()
        self._start_texts: list[ModelText] = []  # session_start's, rendered
        # keyed by (graph run, tool_call_id): agents nested in a tool may reuse call ids
        self._pre: dict[tuple[Any, str], Verdict] = {}
        self._ran: dict[tuple[Any, str], dict[str, Any]] = {}  # → the input that ran
        self._batched: set[Any] = set()  # the AIMessages whose tool batch has fired
        self._problems: tuple[Any, ...] = ()

    # -- session -------------------------------------------------------------------------------

    @property
    def problems(self) -> tuple[Any, ...]:
        """Why configured hooks cannot run with this agent (``hookwire.problems.Problem``s:
        ``kind``, ``message``): config problems, events LangChain never emits, tool matchers
        that match none of the agent's tools. Each is also logged once as a warning on the
        ``hookwire`` logger."""
        if self._session is not None:
            self._problems = tuple(self._session.session.problems)
        return self._problems

    def _declare_tools(self, tools: Any) -> None:
        """Tell the session the tools a model call is given (``BaseTool``s or dicts)."""
        names = [n for n in (_tool_name(t) for t in tools or ()) if n]
        session = self.session
        if names and tuple(names) != session.session.tool_names:
            # SyncSession has no declare_tools (yet): the Session's is synchronous and only
            # reads the kernel's configured hooks, so it is called from this thread
            declare = getattr(session, "declare_tools", session.session.declare_tools)
            self._problems = tuple(declare(names))

    @property
    def session(self) -> SyncSession:
        with self._lock:
            if self._session is None:
                fields = {"host": PROFILE, **self.session_fields}
                session = SyncSession(self.kernel, max_stop_blocks=self.max_stop_blocks,
                                      **fields)
                verdict = session.session_start("startup")
                self._problems = tuple(session.session.problems)
                self._start_texts.extend(self._render(verdict))
                self._session = session
                if verdict.halt is not None:
                    raise RunHalted(verdict.halt)
            return self._session

    def close(self, reason: str = "other") -> None:
        """Fire ``session_end`` and stop the session's helper thread."""
        with self._lock:
            session, self._session = self._session, None
        if session is not None:
            try:
                session.session_end(reason)
            finally:
                session.close()

    def __enter__(self) -> HookwireMiddleware:
        _ = self.session
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _check_halt(self) -> None:
        if self._session is not None and self._session.halted is not None:
            raise RunHalted(self._session.halted)

    # -- prompt --------------------------------------------------------------------------------

    def _nested(self) -> bool:
        """True in an agent invoked from inside one of this middleware's tool calls: part of
        that tool call, so no UserPromptSubmit and no Stop of its own."""
        return enclosing_tool_session(self) is not None

    def before_agent(self, state: Any, runtime: Any) -> dict[str, Any] | None:
        if self._nested():
            return None
        session = self.session
        self._check_halt()
        prompt = _last_human(state["messages"])
        with session.turn():
            verdict = session.prompt_submit(prompt)
        if verdict.halt is not None:
            raise RunHalted(verdict.halt)
        rendered = self._render(verdict, prompt=prompt)
        if verdict.denied:
            raise PromptBlocked(verdict.reason, verdict, first_text(rendered, Placement.RESULT))
        texts, self._start_texts = [*self._start_texts, *rendered], []
        after = _messages(texts_but(texts, Placement.BEFORE_PROMPT, Placement.RESULT))
        before = _messages(texts_at(texts, Placement.BEFORE_PROMPT))
        last = state["messages"][-1] if state["messages"] else None
        if before and isinstance(last, HumanMessage) and last.id:
            # before the prompt (Codex's SessionStart context): the prompt moves after them
            moved = last.model_copy(update={"id": str(uuid.uuid4())})
            return {"messages": [RemoveMessage(id=last.id), *before, moved, *after]}
        messages = [*before, *after]
        return {"messages": messages} if messages else None

    async def abefore_agent(self, state: Any, runtime: Any) -> dict[str, Any] | None:
        return await anyio.to_thread.run_sync(self.before_agent, state, runtime)

    # -- tool batch, model failures ------------------------------------------------------------

    @hook_config(can_jump_to=["end"])
    def before_model(self, state: Any, runtime: Any) -> dict[str, Any] | None:
        self._check_halt()
        batch = self._pending_batch(state["messages"])
        return self._tool_batch(*batch) if batch is not None else None

    @hook_config(can_jump_to=["end"])
    async def abefore_model(self, state: Any, runtime: Any) -> dict[str, Any] | None:
        self._check_halt()
        batch = self._pending_batch(state["messages"])
        if batch is None:
            return None
        return await anyio.to_thread.run_sync(self._tool_batch, *batch)

    def _pending_batch(self, messages: list[BaseMessage]
                       ) -> tuple[Any, list[dict[str, Any]]] | None:
        """The last ``AIMessage``'s tool calls, once each has its ``ToolMessage`` and their
        batch has not fired yet: ``(key, rows)``."""
        for i in range(len(messages) - 1, -1, -1):
            if isinstance(messages[i], HumanMessage) and not _from_hook(messages[i]):
                return None
            if isinstance(messages[i], AIMessage):
                break
        else:
            return None
        ai = messages[i]
        assert isinstance(ai, AIMessage)
        calls = [(str(c["id"]), c) for c in ai.tool_calls if c.get("id")]
        key = ai.id or tuple(call_id for call_id, _ in calls)
        graph = _graph_run()
        if not calls or key in self._batched:
            return None
        answers = {m.tool_call_id: m for m in messages[i + 1:] if isinstance(m, ToolMessage)}
        if any(call_id not in answers for call_id, _ in calls):
            return None  # not every call answered (a return_direct tool ended the run)
        rows: list[dict[str, Any]] = [
            {"tool_name": c["name"],
             "tool_input": self._ran.pop((graph, call_id), dict(c["args"])),  # what ran
             "tool_use_id": call_id,
             "tool_response": answers[call_id].content} for call_id, c in calls]
        return key, rows

    def _tool_batch(self, key: Any, rows: list[dict[str, Any]]) -> dict[str, Any] | None:
        self._batched.add(key)
        verdict = self.session.tool_batch(rows)
        if verdict.halt is not None:
            raise RunHalted(verdict.halt)
        texts = self._render(verdict)
        messages = _messages(texts_but(texts, Placement.RESULT))
        if verdict.denied:  # the harness's run result; the neutral form labels it
            text = first_text(texts, Placement.RESULT) or render_feedback("PostToolBatch block",
                                                                          verdict)
            stop = SystemMessage(text, additional_kwargs={_BLOCKED: True,
                                                          "hookwire_source": label(verdict)})
            return {"messages": [*messages, stop], "jump_to": "end"}
        return {"messages": messages} if messages else None

    def wrap_model_call(self, request: Any, handler: Callable[[Any], Any]) -> Any:
        self._declare_tools(request.tools)
        try:
            return handler(request)
        except _NOT_A_MODEL_FAILURE:
            raise
        except Exception as exc:
            self._model_failed(request, exc)
            raise

    async def awrap_model_call(self, request: Any,
                               handler: Callable[[Any], Awaitable[Any]]) -> Any:
        await anyio.to_thread.run_sync(self._declare_tools, request.tools)
        try:
            return await handler(request)
        except _NOT_A_MODEL_FAILURE:
            raise
        except Exception as exc:
            await anyio.to_thread.run_sync(self._model_failed, request, exc)
            raise

    def _model_failed(self, request: Any, exc: Exception) -> None:
        self.session.stop_failure(_error_kind(exc), error_details=str(exc) or repr(exc),
                                  last_assistant_message=_turn_ai(request.messages))

    # -- stop ----------------------------------------------------------------------------------

    @hook_config(can_jump_to=["model"])
    def after_agent(self, state: Any, runtime: Any) -> dict[str, Any] | None:
        if self._nested() or self._session is None:
            return None
        last = state["messages"][-1] if state["messages"] else None
        if isinstance(last, SystemMessage) and last.additional_kwargs.get(_BLOCKED):
            return None  # a tool-batch hook ended the loop: no stop
        self._check_halt()
        verdict = self.session.stop(last_assistant_message=_last_ai(state["messages"]))
        if verdict.halt is not None:
            raise RunHalted(verdict.halt)
        messages = _messages(self._render(verdict))  # contexts, then the feedback
        if not verdict.continue_turn:
            return {"messages": messages} if messages else None
        return {"messages": messages, "jump_to": "model"}

    @hook_config(can_jump_to=["model"])
    async def aafter_agent(self, state: Any, runtime: Any) -> dict[str, Any] | None:
        return await anyio.to_thread.run_sync(self.after_agent, state, runtime)

    # -- tools ---------------------------------------------------------------------------------

    def wrap_tool_call(self, request: Any, handler: Callable[[Any], Any]) -> Any:
        refused, request, verdict = self._before_tool(request)
        if refused is not None:
            return refused
        try:
            with running_tool(self, self._session):  # an agent invoked inside it is nested
                result = handler(request)
        except _NOT_A_TOOL_FAILURE:
            raise
        except Exception as exc:
            self._failed(request, verdict, str(exc) or repr(exc))
            raise
        return self._after_tool(request, verdict, result)

    async def awrap_tool_call(self, request: Any,
                              handler: Callable[[Any], Awaitable[Any]]) -> Any:
        refused, request, verdict = await anyio.to_thread.run_sync(self._before_tool, request)
        if refused is not None:
            return refused
        try:
            with running_tool(self, self._session):
                result = await handler(request)
        except _NOT_A_TOOL_FAILURE:
            raise
        except Exception as exc:
            await anyio.to_thread.run_sync(self._failed, request, verdict, str(exc) or repr(exc))
            raise
        return await anyio.to_thread.run_sync(self._after_tool, request, verdict, result)

    def _before_tool(self, request: Any) -> tuple[Any, Any, Verdict]:
        call = request.tool_call
        name, args, call_id = call["name"], dict(call["args"]), call.get("id") or ""
        session = self.session
        # No halt check here: a halt stops the run at the next seam after the tool calls of
        # this response (before_model / after_agent), so every call of it is handled.
        # LangGraph re-runs the tools node when an interrupt is resumed: answer from the cache
        key = (_graph_run(), call_id)
        verdict = self._pre.get(key) or session.tool_pre(name, args, call_id or None)
        self._pre[key] = verdict
        # ``continue: false`` on PreToolUse lets the tool run (Claude Code); the sticky halt
        # raises RunHalted at the next seam
        effective = dict(verdict.effective_input or args)
        refusal: str | None = None
        if verdict.decision in (Decision.ASK, Decision.DEFER):
            allowed, effective, refusal = self._resolve_ask(name, effective, call_id, verdict)
            if not allowed:
                refusal = refusal or verdict.reason or "denied: approval required"
        elif verdict.denied:
            refusal = verdict.reason or "denied by a hook"
        if refusal is not None:
            self._pre.pop(key, None)
            texts = self._render(verdict, tool_name=name, tool_input=args)
            if verdict.denied:  # the hook's refusal, as its harness words it
                refusal = first_text(texts, Placement.TOOL_RESULT) or refusal
            message = ToolMessage(content=refusal, tool_call_id=call_id, name=name,
                                  status="error")
            return (_with(message, _messages(texts_but(texts, Placement.TOOL_RESULT))),
                    request, verdict)
        if effective != args:
            request = request.override(tool_call={**call, "args": effective})
        if call_id:
            self._ran[key] = effective
        return None, request, verdict

    def _resolve_ask(self, name: str, tool_input: dict[str, Any], call_id: str,
                     verdict: Verdict) -> tuple[bool, dict[str, Any], str | None]:
        if self.approval == "interrupt" or (self.approval == "auto" and _has_checkpointer()):
            answer = interrupt({"hookwire": verdict.decision.value, "action_requests": [
                {"name": name, "args": tool_input, "description": verdict.reason or ""}]})
            return _decision(answer, tool_input)
        approval = self.session.approve(name, tool_input, call_id, reason=verdict.reason)
        if approval.decision is Decision.ALLOW:
            return True, dict(approval.effective_input or tool_input), None
        if approval.decision is Decision.DENY:
            return False, tool_input, approval.reason or "denied by the approval hook"
        return False, tool_input, no_approval_surface(verdict.reason)

    def _failed(self, request: Any, pre: Verdict, error: str) -> list[BaseMessage]:
        call = request.tool_call
        self._pre.pop((_graph_run(), call.get("id") or ""), None)
        failure = self.session.tool_failure(call["name"], call["args"], error,
                                            call.get("id") or "")
        texts = self._render(failure, tool_name=call["name"], tool_input=call["args"])
        return [*self._pre_messages(request, pre),
                *_messages(texts_but(texts, Placement.TOOL_RESULT))]

    def _pre_messages(self, request: Any, pre: Verdict) -> list[BaseMessage]:
        """What ``tool_pre`` added beside a call that went ahead (its contexts)."""
        call = request.tool_call
        texts = self._render(pre, tool_name=call["name"], tool_input=call["args"])
        return _messages(texts_but(texts, Placement.TOOL_RESULT))

    def _after_tool(self, request: Any, pre: Verdict, result: Any) -> Any:
        if not isinstance(result, ToolMessage):
            self._pre.pop((_graph_run(), request.tool_call.get("id") or ""), None)
            return result  # a Command from the tool: nothing to observe
        if result.status == "error":  # the ToolNode turned an exception into a message
            return _with(result, self._failed(request, pre, str(result.content)))
        call = request.tool_call
        self._pre.pop((_graph_run(), call.get("id") or ""), None)
        post = self.session.tool_post(call["name"], call["args"], result.content,
                                      call.get("id") or "")
        texts = self._render(post, tool_name=call["name"], tool_input=call["args"])
        content = tool_result(texts, post, result.content)
        if content is not result.content:
            result = result.model_copy(update={"content": _content(content)})
        extra = [*self._pre_messages(request, pre),
                 *_messages(texts_but(texts, Placement.TOOL_RESULT))]
        return _with(result, extra)


def _tool_name(tool: Any) -> str | None:
    """The name the model calls a tool by: a ``BaseTool``'s, or a provider tool dict's."""
    if isinstance(tool, Mapping):
        function = tool.get("function")
        name = function.get("name") if isinstance(function, Mapping) else tool.get("name")
        return str(name) if name else None
    name = getattr(tool, "name", None)
    return str(name) if name else None


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


def _from_hook(message: BaseMessage) -> bool:
    """A message a hook added (a Stop continuation's user message): not the user's."""
    return bool(message.additional_kwargs.get("hookwire_source"))


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


def _last_human(messages: list[BaseMessage]) -> str:
    for message in reversed(messages):
        if isinstance(message, HumanMessage) and not _from_hook(message):
            return prompt_text(message.content)
    return ""


def _turn_ai(messages: list[BaseMessage]) -> str | None:
    """The text of the last ``AIMessage`` of the current user turn, if any."""
    for message in reversed(messages):
        if isinstance(message, HumanMessage) and not _from_hook(message):
            return None
        if isinstance(message, AIMessage):
            return message.text if isinstance(message.text, str) else str(message.content)
    return None


def _error_kind(exc: BaseException) -> str:
    """Claude Code's short error kind for a failed model call: from the HTTP status the
    provider SDKs put on their errors (``status_code``, or ``response.status_code``)."""
    status = getattr(exc, "status_code", None)
    if not isinstance(status, int):
        status = getattr(getattr(exc, "response", None), "status_code", None)
    return status_error_kind(status) if isinstance(status, int) else "unknown"


def _last_ai(messages: list[BaseMessage]) -> str | None:
    for message in reversed(messages):
        if isinstance(message, AIMessage):
            return message.text if isinstance(message.text, str) else str(message.content)
    return None
