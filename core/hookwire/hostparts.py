"""What a host lends hookwire: its model and its MCP client sessions.

Some hooks are not processes. Claude Code's ``prompt`` and ``agent`` hooks ask a model to judge
an event; its ``mcp_tool`` hooks call a tool of a connected MCP server. hookwire holds neither,
but the agent runtime hosting it holds both. A host adapter lends them once, as a
:class:`HostModel` and a :class:`HostMcp`; a program may also give them to the kernel directly
(``kernel.parts = HostParts(model=..., mcp=...)``), and what the kernel was given wins over the
adapter's own.

A dialect runs such a hook in process: its :class:`~hookwire.dialect.Prepared` has a ``run``
that receives the session's :class:`HostParts` and returns an :class:`~hookwire.Outcome`, as a
process would (stdout is the hook's answer). :func:`run` bounds it by the hook's timeout. A
hook that needs a part the host did not lend fails to start, naming what is missing (logged as
a warning, reported by ``hookwire check``): it is never skipped in silence. What such a hook
reads from outside (an HTTP response body) stops at the kernel's output cap,
:func:`output_cap` while it runs.
"""

from __future__ import annotations

import contextlib
import contextvars
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

import attrs

from hookwire.errors import HostPartMissing as Missing

if TYPE_CHECKING:  # the kernel imports this module: the runner only when a hook runs
    from hookwire.runner import Outcome


@attrs.frozen(kw_only=True)
class Message:
    """One message of a conversation the model reads: ``role`` is ``user`` or ``assistant``."""

    role: str
    text: str


@attrs.frozen(kw_only=True)
class HookTool:
    """A tool a hook's sub-agent may call: ``parameters`` is its JSON schema, ``call`` gets the
    arguments and returns the text the model reads (it raises nothing the model should not see:
    an error is a text too)."""

    name: str
    description: str
    parameters: Mapping[str, Any]
    call: Callable[[dict[str, Any]], Awaitable[str]]


@attrs.frozen(kw_only=True)
class ModelAsk:
    """One question for the host's model.

    ``system`` and ``messages`` are what it reads; its answer must be a JSON object matching
    ``schema``. Without ``output_tool`` it is one request with no tools, answered in that
    shape (structured output). With ``output_tool`` it is a short agent: the model may call
    ``tools`` for at most ``max_turns`` requests and answers only by calling a tool of that
    name whose arguments are the answer (a plain text answer is no answer). ``model`` is the
    model the hook asked for by name (``None``: any), resolved by :meth:`HostParts.model_for`.
    """

    system: str
    messages: tuple[Message, ...]
    schema: Mapping[str, Any]
    output_tool: str | None = None
    tools: tuple[HookTool, ...] = ()
    max_turns: int = 1
    model: str | None = None

    async def call_tool(self, name: str, arguments: Mapping[str, Any] | None) -> str:
        """What the model reads from its call of the tool ``name`` (an unknown name: an
        error text)."""
        tool = next((t for t in self.tools if t.name == name), None)
        if tool is None:
            return f"Error: there is no tool {name!r}"
        return await tool.call(dict(arguments or {}))


@attrs.frozen(kw_only=True)
class ModelReply:
    """The model's answer: ``output`` is the structured answer (``None``: it gave none that
    matches the schema), ``text`` any plain text it wrote, ``model`` the model that answered."""

    output: Mapping[str, Any] | None = None
    text: str | None = None
    model: str | None = None


@runtime_checkable
class HostModel(Protocol):
    """A model lent by the host. ``name`` is what ``hookwire check`` and reports show."""

    @property
    def name(self) -> str: ...

    async def ask(self, ask: ModelAsk) -> ModelReply:
        """Answer ``ask`` (see :class:`ModelAsk`). Raise for an API failure."""
        ...


@attrs.frozen(kw_only=True)
class McpResult:
    """What an MCP tool returned: its text content joined, ``is_error`` as the server said,
    and its ``structured`` content if it sent one."""

    text: str
    is_error: bool = False
    structured: Any = None


@runtime_checkable
class HostMcp(Protocol):
    """The host's connected MCP servers, by the names its configuration gives them."""

    def servers(self) -> Sequence[str]:
        """The names of the servers connected now."""
        ...

    async def call_tool(self, server: str, tool: str,
                        arguments: Mapping[str, Any]) -> McpResult:
        """Call ``tool`` on ``server``. Raise :class:`~hookwire.errors.HostPartMissing`
        when it is not connected."""
        ...


@attrs.frozen(kw_only=True)
class HostParts:
    """What one session may use: the default ``model``, ``models`` by the names hooks ask for
    (Claude Code's ``"model": "claude-haiku-4-5"``) and the ``mcp`` client."""

    model: HostModel | None = None
    models: Mapping[str, HostModel] = attrs.field(factory=dict)
    mcp: HostMcp | None = None

    def over(self, other: HostParts) -> HostParts:
        """These parts, with ``other``'s where these have none."""
        return HostParts(model=self.model or other.model, models={**other.models, **self.models},
                         mcp=self.mcp or other.mcp)

    def model_for(self, name: str | None) -> tuple[HostModel, str | None]:
        """The model for a hook that asks for ``name``, and a note when it is another one
        (the host knows no model by that name: its default answers). Raises
        :class:`~hookwire.errors.HostPartMissing` when there is none."""
        if name and name in self.models:
            return self.models[name], None
        if self.model is None:
            if self.models:
                first = next(iter(self.models.values()))
                return first, f"model {name!r} is not lent by the host: {first.name} answered"
            raise Missing("no model: the host lends hookwire none, so a hook that asks a "
                          "model cannot run (use an adapter that lends its model, or set "
                          "kernel.parts = HostParts(model=...))")
        note = (f"model {name!r} is not lent by the host: {self.model.name} answered"
                if name else None)
        return self.model, note


NONE = HostParts()


def answered(stdout: str, note: str | None = None) -> Outcome:
    """The outcome of an in-process hook that answered ``stdout`` (``note``: on stderr)."""
    from hookwire.runner import Outcome, OutcomeKind

    return Outcome(kind=OutcomeKind.EXITED, exit_code=0, stdout=stdout.encode("utf-8"),
                   stderr=(note or "").encode("utf-8"))


def failed(why: str) -> Outcome:
    """The outcome of an in-process hook that failed (exit 1, ``why`` on stderr): a
    non-blocking error, as a command hook's exit 1."""
    from hookwire.runner import Outcome, OutcomeKind

    return Outcome(kind=OutcomeKind.EXITED, exit_code=1, stderr=why.encode("utf-8"))


_CAP: contextvars.ContextVar[int | None] = contextvars.ContextVar("hookwire_output_cap",
                                                                default=None)


def output_cap() -> int:
    """The byte cap of the in-process hook running now (the kernel's ``output_cap``; 1 MiB
    outside a run): what it reads from outside stops there, as a process's output does."""
    from hookwire.runner import DEFAULT_OUTPUT_CAP

    cap = _CAP.get()
    return DEFAULT_OUTPUT_CAP if cap is None else cap


async def run(fn: Callable[[HostParts], Awaitable[Outcome]], parts: HostParts,
              timeout: float | None, *, output_cap: int | None = None) -> Outcome:
    """Run an in-process hook: ``fn(parts)`` within ``timeout`` seconds, with
    :func:`output_cap` giving ``output_cap`` (default 1 MiB). Never raises for a failing
    hook: a timeout is ``TIMED_OUT``, a missing part ``FAILED_TO_START`` (naming it), any
    other exception an exit 1 with the error on stderr. Cancellation propagates."""
    import anyio

    from hookwire.runner import Outcome, OutcomeKind

    started = time.perf_counter()
    scope = anyio.fail_after(timeout) if timeout else contextlib.nullcontext()
    token = _CAP.set(output_cap)
    try:
        with scope:
            outcome = await fn(parts)
    except TimeoutError:
        outcome = Outcome(kind=OutcomeKind.TIMED_OUT)
    except Missing as exc:
        outcome = Outcome(kind=OutcomeKind.FAILED_TO_START, start_error=str(exc))
    except Exception as exc:  # a provider's error must not crash the host
        outcome = failed(f"{type(exc).__name__}: {exc}")
    finally:
        _CAP.reset(token)
    return attrs.evolve(outcome, duration_ms=(time.perf_counter() - started) * 1000)


__all__ = ["NONE", "HookTool", "HostMcp", "HostModel", "HostParts", "McpResult", "Message",
           "ModelAsk", "ModelReply", "answered", "failed", "output_cap", "run"]
