"""The reference host: a small agent loop that emits every seam it has.

It is what ``hookwire demo`` runs, and the model for adapters: it shows where each seam fires
and how each verdict is applied. Public entry points: :meth:`Agent.run`,
:meth:`Agent.run_stream` and :meth:`Agent.run_sync`; they nest (``run`` drives
``run_stream``), and ``prompt_submit`` still fires exactly once per user turn.
"""

from __future__ import annotations

import contextlib
import json
import tempfile
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import anyio
import attrs

import hookwire.reference._placing as place
from hookwire.audit import Invocation
from hookwire.events import Seam
from hookwire.hookspecs import hookimpl
from hookwire.reference._waking import Waking
from hookwire.reference.model import (
    Message,
    ModelTurn,
    ScriptedModel,
    ToolCall,
    TransientModelError,
)
from hookwire.reference.tools import Tool, ToolContext, ToolError, default_tools
from hookwire.render import ModelText, Placement, Subject, no_approval_surface, render
from hookwire.timeline import status_message
from hookwire.verdicts import Decision, Halt, Verdict

if TYPE_CHECKING:
    from hookwire.kernel import Kernel
    from hookwire.session import Session

Approver = Callable[[ToolCall, str | None], Awaitable[bool] | bool]


@attrs.frozen(kw_only=True)
class ToolRun:
    """One tool call as the loop handled it."""

    call: ToolCall
    ran: bool
    effective_input: Mapping[str, Any]
    result: Any = None
    error: str | None = None


@attrs.frozen(kw_only=True)
class RunResult:
    """The end of one user turn. ``terminal_reason`` is ``completed``, ``prompt_blocked``,
    ``hook_stopped`` (a halt, or a tool-batch hook that ended the loop), ``tool_deferred``,
    ``model_error`` (the model failed after its retries) or ``max_turns``."""

    text: str | None
    terminal_reason: str
    halt: Halt | None = None
    blocked_reason: str | None = None
    model_requests: int = 0
    tool_runs: tuple[ToolRun, ...] = ()


class Agent:
    """A scripted-model agent whose tools run for real, wired to a hookwire session.

    Use ``async with Agent(kernel, model, cwd=...) as agent`` (fires ``session_start`` on
    entry, ``session_end`` on exit). ``approver`` is the host's own approval path for ``ask``;
    without one the kernel's ``approve`` seam decides, else the call is denied. Hook text
    reaches the model as each dialect's harness words and places it (:mod:`hookwire.render`);
    ``neutral=True`` uses hookwire's neutral labelled form instead. A background hook may wake
    the agent (:mod:`hookwire.wake`, :mod:`._waking`): the turns it starts end in ``woken``.
    """

    def __init__(self, kernel: Kernel, model: ScriptedModel, /, *,
                 tools: Mapping[str, Tool] | None = None, max_turns: int = 20,
                 max_retries: int = 2, approver: Approver | None = None,
                 max_stop_blocks: int | None = 8,
                 on_status: Callable[[str], None] | None = None, neutral: bool = False,
                 **session_fields: Any) -> None:
        self.kernel = kernel
        #: Called with a hook's ``statusMessage`` when the hook starts (a slow hook then
        #: says what it is doing instead of looking like a hang).
        self.on_status = on_status
        self.model = model
        self.tools = dict(tools or default_tools())
        self.max_turns = max_turns
        self.max_retries = max_retries
        self.approver = approver
        self.max_stop_blocks = max_stop_blocks
        self.session_fields = session_fields
        self.neutral = neutral
        self.messages: list[Message] = []
        self._start_texts: list[ModelText] = []
        self._session: Session | None = None
        self._stack: contextlib.AsyncExitStack | None = None
        self._tool_ctx: ToolContext | None = None
        self.waking = Waking(neutral)
        self.woken: list[RunResult] = self.waking.results  #: turns a hook's wake started

    @property
    def session(self) -> Session:
        if self._session is None:
            raise RuntimeError("use the agent as `async with Agent(...) as agent`")
        return self._session

    async def __aenter__(self) -> Agent:
        stack = contextlib.AsyncExitStack()
        fields = dict(self.session_fields)
        if "env_file" not in fields:
            tmp = stack.enter_context(tempfile.TemporaryDirectory(prefix="hookwire-session-"))
            fields["env_file"] = str(Path(tmp) / "env.sh")
        fields.setdefault("on_wake", lambda w: self.waking.woken(w, self._woken_turn))
        session = self.kernel.session(max_stop_blocks=self.max_stop_blocks, **fields)
        if self.on_status is not None:
            relay = _StatusRelay(self.on_status, session)
            self.kernel.register(relay)
            stack.callback(self.kernel.unregister, relay)
        await stack.enter_async_context(session)
        self._session, self._stack = session, stack
        self._tool_ctx = ToolContext(cwd=session.info.cwd, env_file=session.info.env_file)
        verdict = await session.session_start("startup")
        self._start_texts = self._render(verdict)  # placed with the first prompt
        return self

    async def __aexit__(self, *exc: object) -> None:
        try:
            if self._session is not None:
                await self._session.session_end("other")
        finally:
            stack, self._stack, self._session = self._stack, None, None
            if stack is not None:
                await stack.aclose()

    # -- public entry points ---------------------------------------------------------------

    async def run(self, prompt: str) -> RunResult:
        """Run one user turn to its end."""
        with self.session.turn():
            result: RunResult | None = None
            async for item in self.run_stream(prompt):
                if isinstance(item, RunResult):
                    result = item
            assert result is not None
            return result

    async def run_stream(self, prompt: str) -> AsyncIterator[Message | RunResult]:
        """Run one user turn, yielding each message as it is added, then the result."""
        with self.session.turn(), self.waking.busy():
            async for item in self._loop(prompt):
                yield item

    async def _woken_turn(self) -> RunResult | None:  # no user started it: no prompt_submit
        result = None
        with self.waking.busy():
            async for item in self._loop(None):
                result = item if isinstance(item, RunResult) else result
        return result

    def run_sync(self, prompt: str) -> RunResult:
        """Run one user turn in a session of its own, from synchronous code."""
        async def main() -> RunResult:
            async with self:
                return await self.run(prompt)

        return anyio.run(main)

    # -- the loop ------------------------------------------------------------------------------

    async def _loop(self, prompt: str | None) -> AsyncIterator[Message | RunResult]:
        session = self.session
        if session.halted is not None:  # a session-wide halt: no turn reaches the model again
            yield RunResult(text=None, terminal_reason="hook_stopped", halt=session.halted)
            return
        verdict = await session.prompt_submit(prompt) if prompt is not None else \
            Verdict(seam=Seam.PROMPT_SUBMIT)  # woken by a hook: no user prompt
        texts = self._render(verdict, prompt=prompt)
        result = place.first_text(texts, Placement.RESULT, None)  # the user's, not the model's
        if verdict.halt is not None:
            yield RunResult(text=result, terminal_reason="hook_stopped", halt=verdict.halt)
            return
        if verdict.denied:
            yield RunResult(text=result, terminal_reason="prompt_blocked",
                            blocked_reason=verdict.reason)
            return
        texts, self._start_texts = [*self._start_texts, *texts], []
        said = [] if prompt is None else [Message(role="user", content=prompt)]
        for msg in [*place.at(texts, Placement.BEFORE_PROMPT), *said,
                    *place.joined(place.at(texts, Placement.AFTER_PROMPT))]:
            yield self._add(msg)
        requests = 0
        runs: list[ToolRun] = []
        text: str | None = None
        while True:
            if requests >= self.max_turns:
                yield RunResult(text=text, terminal_reason="max_turns",
                                model_requests=requests, tool_runs=tuple(runs))
                return
            for msg in self.waking.take():  # a background hook's wake, read now
                yield self._add(msg)
            try:
                turn = await self._request(prompt)
            except TransientModelError as exc:
                await session.stop_failure("server_error", error_details=str(exc),
                                           last_assistant_message=text)
                yield RunResult(text=text, terminal_reason="model_error",
                                model_requests=requests + self.max_retries + 1,
                                tool_runs=tuple(runs))
                return
            requests += 1
            text = turn.text
            yield self._add(Message(role="assistant", content=_render_turn(turn)))
            if turn.tool_calls:
                batch = await self._run_tools(turn.tool_calls)
                runs.extend(b[0] for b in batch)
                for _run, messages, _verdicts in batch:
                    for msg in messages:
                        yield self._add(msg)
                deferred = any(v.decision is Decision.DEFER for _, _, vs in batch for v in vs)
                if deferred:
                    yield RunResult(text=text, terminal_reason="tool_deferred",
                                    model_requests=requests, tool_runs=tuple(runs))
                    return
                after = await session.tool_batch([_batch_row(run, msgs)
                                                  for run, msgs, _ in batch])
                for msg in place.at(self._render(after), Placement.SYSTEM):
                    yield self._add(msg)
                if after.denied and session.halted is None:
                    yield self._add(Message(role="system", content=after.reason or "",
                                            source=_label(after)))
                    yield RunResult(text=text, terminal_reason="hook_stopped",
                                    blocked_reason=after.reason, model_requests=requests,
                                    tool_runs=tuple(runs))
                    return
                halted = session.halted or session.turn_halt
                if halted is not None:
                    yield RunResult(text=text, terminal_reason="hook_stopped",
                                    halt=halted, model_requests=requests,
                                    tool_runs=tuple(runs))
                    return
                continue
            stop = await session.stop(last_assistant_message=text)
            if stop.halt is not None:
                yield RunResult(text=text, terminal_reason="hook_stopped", halt=stop.halt,
                                model_requests=requests, tool_runs=tuple(runs))
                return
            texts = self._render(stop)
            for msg in place.at(texts, Placement.NEXT_USER_MESSAGE, Placement.SYSTEM):
                yield self._add(msg)
            if stop.continue_turn:
                continue
            yield RunResult(text=text, terminal_reason="completed", model_requests=requests,
                            tool_runs=tuple(runs))
            return

    async def _request(self, prompt: str | None) -> ModelTurn:
        """One model request. Every request passes the model-submission boundary, where
        ``prompt_submit`` is called: only the first of a user turn fires (the turn-origin token
        is consumed there); follow-ups, retries, stop continuations are internal turns; a wake's
        turn (``prompt`` ``None``) passes no boundary."""
        attempt = 0
        while True:
            if prompt is not None:
                await self.session.prompt_submit(prompt)
            try:
                return await self.model.respond(tuple(self.messages))
            except TransientModelError:
                attempt += 1
                if attempt > self.max_retries:
                    raise

    async def _run_tools(self, calls: Sequence[ToolCall]
                         ) -> list[tuple[ToolRun, list[Message], list[Verdict]]]:
        results: list[Any] = [None] * len(calls)

        async def one(i: int, call: ToolCall) -> None:
            results[i] = await self._run_tool(call)

        async with anyio.create_task_group() as tg:
            for i, call in enumerate(calls):
                tg.start_soon(one, i, call)
        return results

    async def _run_tool(self, call: ToolCall) -> tuple[ToolRun, list[Message], list[Verdict]]:
        session = self.session
        verdicts: list[Verdict] = []
        pre = await session.tool_pre(call.name, call.input, call.id)
        verdicts.append(pre)
        messages: list[Message] = []
        effective = dict(pre.effective_input or call.input)
        refusal: str | None = None
        if pre.decision is Decision.DEFER:
            return ToolRun(call=call, ran=False, effective_input=effective), messages, verdicts
        if pre.decision is Decision.ASK:
            allowed, effective, refusal = await self._resolve_ask(call, pre, effective)
            if not allowed:
                refusal = refusal or pre.reason or "denied: approval required"
        elif pre.denied:
            refusal = pre.reason or "denied by a hook"
        tool = self.tools.get(call.name)
        if refusal is None and tool is None:
            refusal = f"no such tool: {call.name}"
        if refusal is None and tool is not None:
            refusal = tool.validate(effective)  # re-validate the (possibly rewritten) input
        texts = self._render(pre, tool_name=call.name, tool_input=call.input)
        if refusal is not None:
            if pre.denied:  # the hook's refusal, as its harness words it
                refusal = place.first_text(texts, Placement.TOOL_RESULT, refusal) or refusal
            messages += place.around(texts, Message(role="tool", content=refusal, is_error=True,
                                                    tool_use_id=call.id, source=_label(pre)))
            return (ToolRun(call=call, ran=False, effective_input=effective, error=refusal),
                    messages, verdicts)
        assert tool is not None and self._tool_ctx is not None
        self._tool_ctx.cwd = session.info.cwd
        started = time.monotonic()
        try:
            result = await tool.call(effective, self._tool_ctx)
        except ToolError as exc:
            # a command that exited non-zero says so (exit_code): Codex runs PostToolUse there
            failure = await session.tool_failure(
                call.name, effective, str(exc), call.id, duration_ms=_ms(started),
                exit_code=exc.exit_code, tool_response=exc.output)
            verdicts.append(failure)
            texts += self._render(failure, tool_name=call.name, tool_input=effective)
            shown = place.first_text(texts, Placement.TOOL_RESULT, str(exc)) or str(exc)
            messages += place.around(texts, Message(role="tool", content=shown,
                                                    tool_use_id=call.id, is_error=True))
            return (ToolRun(call=call, ran=True, effective_input=effective, error=str(exc)),
                    messages, verdicts)
        post = await session.tool_post(call.name, effective, result, call.id,
                                       duration_ms=_ms(started))
        verdicts.append(post)
        texts += self._render(post, tool_name=call.name, tool_input=effective)
        shown = place.first_text(texts, Placement.TOOL_RESULT, None) or _render_result(result)
        messages += place.around(texts, Message(role="tool", content=shown, tool_use_id=call.id))
        return (ToolRun(call=call, ran=True, effective_input=effective, result=result),
                messages, verdicts)

    async def _resolve_ask(self, call: ToolCall, pre: Verdict, effective: dict[str, Any]
                           ) -> tuple[bool, dict[str, Any], str | None]:
        if self.approver is not None:
            answer = self.approver(call, pre.reason)
            if not isinstance(answer, bool):
                answer = await answer
            return answer, effective, None if answer else "denied by the user"
        verdict = await self.session.approve(call.name, effective, call.id, reason=pre.reason)
        if verdict.decision is Decision.ALLOW:
            return True, dict(verdict.effective_input or effective), None
        if verdict.decision is Decision.DENY:
            return False, effective, verdict.reason or "denied by the approval hook"
        return False, effective, no_approval_surface(pre.reason)

    # -- messages ------------------------------------------------------------------------------

    def _add(self, message: Message) -> Message:
        self.messages.append(message)
        return message

    def _render(self, verdict: Verdict, **subject: Any) -> list[ModelText]:
        return render(verdict, self.kernel.dialect, Subject(**subject),
                      neutral_form=self.neutral)


class _StatusRelay:
    """Hands the ``statusMessage`` of each hook of one session to the host when it starts."""

    hookwire_name = "reference-status"

    def __init__(self, on_status: Callable[[str], None], session: Session) -> None:
        self.on_status = on_status
        self.session = session

    @hookimpl
    def hook_invoked(self, invocation: Invocation) -> None:
        message = status_message(invocation)
        if message and invocation.session_id == self.session.info.session_id:
            self.on_status(message)


def _label(verdict: Verdict) -> str | None:
    for reason in verdict.reasons:
        return reason.source.label()
    return None


def _ms(started: float) -> int:
    return int((time.monotonic() - started) * 1000)


def _batch_row(run: ToolRun, messages: list[Message]) -> dict[str, Any]:
    sent = next((m.content for m in messages if m.role == "tool"), "")
    return {"tool_name": run.call.name, "tool_input": dict(run.effective_input),
            "tool_use_id": run.call.id, "tool_response": sent}


def _render_turn(turn: ModelTurn) -> str:
    parts = [turn.text] if turn.text else []
    parts += [f"[tool {c.name} {json.dumps(dict(c.input))}]" for c in turn.tool_calls]
    return "\n".join(parts)


def _render_result(result: Any) -> str:
    if isinstance(result, Mapping) and "stdout" in result:
        # both streams, as Claude Code and Codex show a shell command's output (git's
        # ``fatal: ...`` goes to stderr even when the command exits 0)
        streams = (str(result["stdout"]), str(result.get("stderr") or ""))
        return "\n".join(part for part in streams if part)
    if isinstance(result, Mapping) and "file" in result:
        return str(result["file"].get("content", ""))
    return str(result)
