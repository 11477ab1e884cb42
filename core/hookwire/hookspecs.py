"""The kernel's hookspecs: one per seam, plus dialect registration, approval and audit.

Seam implementations take ``event`` (the seam's event type, with the running input on
``tool_pre``) and ``session`` (the :class:`~hookwire.Session`), may be plain or ``async``
functions, and return an :class:`~hookwire.Answer` or ``None``. The kernel, not pluggy, calls
them: in pluggy order (later registration first; ``tryfirst``/``trylast`` as usual), awaiting
each, passing a rewritten ``tool_input`` on to the next, and stopping at the first deny. An
implementation may accept any subset of the arguments, by name.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pluggy

if TYPE_CHECKING:
    from hookwire.audit import Invocation, InvocationResult
    from hookwire.dialect import Dialect
    from hookwire.events import (
        ApprovalRequest,
        Notification,
        PostCompact,
        PreCompact,
        PromptSubmit,
        SessionEnd,
        SessionStart,
        Stop,
        StopFailure,
        SubagentStart,
        SubagentStop,
        ToolBatch,
        ToolFailure,
        ToolPost,
        ToolPre,
    )
    from hookwire.hosts import HostProfile
    from hookwire.session import Session
    from hookwire.verdicts import Verdict

PROJECT = "hookwire"
hookspec = pluggy.HookspecMarker(PROJECT)
hookimpl = pluggy.HookimplMarker(PROJECT)

AnswerOrAwaitable = Any  # Answer | None, or an awaitable of one


@hookspec
def register_dialects() -> list[Dialect] | None:
    """Declare the dialects a plugin provides.

    Parameters: none.

    Returns: a list of :class:`~hookwire.Dialect` instances. ``None`` or an empty list
    declares nothing. Raising makes the plugin fail to load: the kernel reports it with the
    distribution's name and version and goes on without it. Two dialects with one name are an
    error naming both distributions.

    Since: 0.1.
    """


@hookspec
def register_hosts() -> list[HostProfile] | None:
    """Declare the hosts a plugin provides (a runtime adapter declares its runtime).

    Parameters: none.

    Returns: a list of :class:`~hookwire.hosts.HostProfile` (name, the seams the host emits,
    why the others are missing); ``None`` declares nothing. ``hookwire check --host NAME``
    uses it to say "event not emitted by this host" exactly. Raising is reported as a load
    error of the plugin.

    Since: 0.1.
    """


@hookspec
def register_commands(subparsers: Any) -> None:
    """Add subcommands to the ``hookwire`` command line.

    Parameters: ``subparsers`` is the :mod:`argparse` subparsers action of the ``hookwire``
    parser; call ``subparsers.add_parser(NAME, help=...)`` and give each parser a default
    ``handler`` (``parser.set_defaults(handler=fn)``), a function taking the parsed
    ``argparse.Namespace`` and returning the exit status.

    Returns: nothing; the return value is ignored. A name already taken is an error naming the
    plugin. An exception makes the plugin's commands unavailable, with a warning.

    Since: 0.1.
    """


@hookspec
def session_start(event: SessionStart, session: Session) -> AnswerOrAwaitable:
    """A session starts, resumes, is cleared or was compacted.

    Parameters: ``event.source`` says which (``startup``, ``resume``, ``clear``, ``compact``);
    ``session`` is the session.

    Returns: an :class:`~hookwire.Answer` whose ``contexts`` are added to the agent's context
    (labelled with their source), or ``None``. Decisions are ignored on this seam; a ``halt``
    stops the session. An exception is isolated: reported on the audit plane and treated as the
    plugin's failure policy says (default: no opinion).

    Since: 0.1.
    """


@hookspec
def prompt_submit(event: PromptSubmit, session: Session) -> AnswerOrAwaitable:
    """A user turn is about to reach the model; fires exactly once per user turn.

    Parameters: ``event.prompt`` is the user's text; ``event.prompt_id`` the turn's id.

    Returns: an Answer with ``decision=BLOCK`` and a ``reason`` to refuse the prompt (the
    model is not called), ``contexts`` to add beside the prompt, ``halt`` to stop the session;
    ``None`` for no opinion. Exceptions: as for ``session_start``.

    Since: 0.1.
    """


@hookspec
def tool_pre(event: ToolPre, session: Session) -> AnswerOrAwaitable:
    """A tool is about to run.

    Parameters: ``event.tool_name``, ``event.tool_input`` (the running input: already rewritten
    by the implementations and external hooks that came before), ``event.tool_use_id``.

    Returns: an Answer with ``decision`` ALLOW, ASK, DEFER or DENY (with ``reason``),
    ``updated_input`` to replace the input for the rest of the chain and the tool itself,
    ``contexts`` for the model, ``halt``; ``None`` for no opinion. A DENY stops the chain.
    Exceptions: as for ``session_start``; a plugin whose failure policy is closed denies.

    Since: 0.1.
    """


@hookspec
def tool_post(event: ToolPost, session: Session) -> AnswerOrAwaitable:
    """A tool succeeded.

    Parameters: ``event.tool_input`` is the input that ran, ``event.tool_response`` its result.

    Returns: an Answer with ``decision=BLOCK`` and ``reason`` to send feedback to the model
    (the tool has already run), ``updated_output`` to replace what the model sees,
    ``contexts``, ``halt``; ``None`` for no opinion. Native implementations run before the
    external hooks on this seam. Exceptions: as for ``session_start``.

    Since: 0.1.
    """


@hookspec
def tool_failure(event: ToolFailure, session: Session) -> AnswerOrAwaitable:
    """A tool failed.

    Parameters: ``event.error`` is the failure text, ``event.is_interrupt`` true when the user
    interrupted the tool.

    Returns: an Answer with ``contexts`` (and ``halt``); other fields are ignored by hosts.
    ``None`` for no opinion. Exceptions: as for ``session_start``.

    Since: 0.1.
    """


@hookspec
def tool_batch(event: ToolBatch, session: Session) -> AnswerOrAwaitable:
    """Every tool call of one model response has finished.

    Parameters: ``event.tool_calls`` lists each call (``tool_name``, ``tool_input``,
    ``tool_use_id``, ``tool_response`` as sent to the model).

    Returns: an Answer with ``decision=BLOCK`` and a ``reason`` to end the agent loop before
    the next model request (the reason is shown, and kept in the conversation), ``contexts``
    to add before the next request, ``halt``; ``None`` for no opinion. Exceptions: as for
    ``session_start``.

    Since: 0.1.
    """


@hookspec
def stop(event: Stop, session: Session) -> AnswerOrAwaitable:
    """The agent is about to end its turn.

    Parameters: ``event.stop_hook_active`` is true when this turn already continued because of
    a stop hook; ``event.last_assistant_message`` the model's last text.

    Returns: an Answer with ``decision=BLOCK`` and a ``reason`` to keep the agent going with the
    reason as feedback (the session's block cap applies), ``halt`` to stop for good; ``None``
    to let it stop. Exceptions: as for ``session_start``.

    Since: 0.1.
    """


@hookspec
def stop_failure(event: StopFailure, session: Session) -> AnswerOrAwaitable:
    """The turn ended because the model request failed.

    Parameters: ``event.error`` (a short kind: ``rate_limit``, ``server_error``, ...),
    ``event.error_details``, ``event.last_assistant_message``.

    Returns: ignored by hosts (observers only); return ``None``. Exceptions: as for
    ``session_start``.

    Since: 0.1.
    """


@hookspec
def subagent_start(event: SubagentStart, session: Session) -> AnswerOrAwaitable:
    """A sub-agent starts.

    Parameters: ``event.agent_id`` and ``event.agent_type`` name it.

    Returns: an Answer whose ``contexts`` go to the sub-agent; ``None`` for no opinion.
    Exceptions: as for ``session_start``.

    Since: 0.1.
    """


@hookspec
def subagent_stop(event: SubagentStop, session: Session) -> AnswerOrAwaitable:
    """A sub-agent is about to finish.

    Parameters: as for ``stop``, plus ``event.agent_id``, ``event.agent_type`` and
    ``event.agent_transcript_path``.

    Returns: an Answer with ``decision=BLOCK`` and a ``reason`` to keep the sub-agent going;
    ``None`` to let it finish. Exceptions: as for ``session_start``.

    Since: 0.1.
    """


@hookspec
def pre_compact(event: PreCompact, session: Session) -> AnswerOrAwaitable:
    """Context compaction is about to run.

    Parameters: ``event.trigger`` (``manual``/``auto``), ``event.custom_instructions``.

    Returns: an Answer with ``decision=BLOCK`` and ``reason`` to prevent the compaction,
    ``contexts`` to add to the compaction instructions; ``None`` for no opinion. Exceptions:
    as for ``session_start``.

    Since: 0.1.
    """


@hookspec
def post_compact(event: PostCompact, session: Session) -> AnswerOrAwaitable:
    """Context compaction finished.

    Parameters: ``event.compact_summary`` is the summary the model wrote.

    Returns: an Answer with ``contexts``; ``None`` for no opinion. Exceptions: as for
    ``session_start``.

    Since: 0.1.
    """


@hookspec
def notification(event: Notification, session: Session) -> AnswerOrAwaitable:
    """The agent notifies the user.

    Parameters: ``event.message``, ``event.notification_type``, ``event.title``.

    Returns: ignored by hosts except ``halt``; return ``None``. Exceptions: as for
    ``session_start``.

    Since: 0.1.
    """


@hookspec
def session_end(event: SessionEnd, session: Session) -> AnswerOrAwaitable:
    """The session ends.

    Parameters: ``event.reason`` as the host names it.

    Returns: ignored; return ``None``. Exceptions: as for ``session_start``.

    Since: 0.1.
    """


@hookspec
def approve(event: ApprovalRequest, session: Session) -> AnswerOrAwaitable:
    """A tool call was answered ``ask`` and the host has no approval path of its own.

    Parameters: ``event`` names the tool, its input and why approval is needed.

    Returns: an Answer with ``decision`` ALLOW (optionally ``updated_input``) or DENY (with a
    ``reason``); ``None`` when this implementation cannot decide. When nobody decides, the
    host denies. Exceptions: as for ``session_start``.

    Since: 0.1.
    """


@hookspec
def seam_started(event: Any, session: Session) -> None:
    """Audit plane: a seam is about to be dispatched.

    Parameters: the seam ``event`` and the ``session``. It is called in the dispatching task,
    before any hook or plugin of the seam runs, so a context variable set here is seen by the
    seam's ``hook_invoked``/``hook_result`` (parallel hooks included) and its ``seam_verdict``.

    Returns: nothing. Must not block. Exceptions: as for ``hook_invoked``.

    Since: 0.2.
    """


@hookspec
def hook_invoked(invocation: Invocation) -> None:
    """Audit plane: an external hook is about to run, or a native plugin to be called.

    Parameters: ``invocation`` (seam, source, native event, session id, the command and the
    exact stdin bytes for external hooks).

    Returns: nothing; the return value is ignored. Must not block. An exception is reported as
    a warning and otherwise ignored.

    Since: 0.1.
    """


@hookspec
def hook_result(result: InvocationResult) -> None:
    """Audit plane: an external hook finished, or a native plugin returned or raised.

    Parameters: ``result`` carries the invocation, the process outcome (external hooks), the
    answer it produced, the error a plugin raised, and the report line.

    Returns: nothing. Exceptions: as for ``hook_invoked``.

    Since: 0.1.
    """


@hookspec
def seam_verdict(event: Any, session: Session, verdict: Verdict) -> None:
    """Audit plane: a seam folded its verdict.

    Parameters: the seam ``event`` (with the original input), the ``session`` and the final
    ``verdict`` (with original and effective input on ``tool_pre``).

    Returns: nothing. Exceptions: as for ``hook_invoked``.

    Since: 0.1.
    """


SEAM_SPECS = (
    "session_start", "prompt_submit", "tool_pre", "tool_post", "tool_failure", "tool_batch",
    "stop", "stop_failure",
    "subagent_start", "subagent_stop", "pre_compact", "post_compact", "notification",
    "session_end", "approve",
)
AUDIT_SPECS = ("seam_started", "hook_invoked", "hook_result", "seam_verdict")
KERNEL_SPECS = ("register_dialects", "register_hosts", "register_commands")

