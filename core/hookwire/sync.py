"""A blocking facade over :class:`~hookwire.Session` for synchronous runtimes.

The session lives on an event loop in a helper thread (an anyio blocking portal); each method
blocks until its seam has answered. :meth:`SyncSession.turn` keeps the turn origin in the
calling thread, so ``prompt_submit`` still fires exactly once per user turn.
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from anyio.from_thread import BlockingPortal, start_blocking_portal

from hookwire.session import Session, TurnOrigin, current_origin
from hookwire.verdicts import Verdict

if TYPE_CHECKING:
    from hookwire.kernel import Kernel


class SyncSession:
    """Use as ``with kernel.sync_session(cwd=...) as session:``; methods mirror
    :class:`~hookwire.Session` and return the same verdicts."""

    def __init__(self, kernel: Kernel, backend: str = "asyncio", **kwargs: Any) -> None:
        self._portal_cm: contextlib.AbstractContextManager[BlockingPortal] | None = (
            start_blocking_portal(backend=backend))
        self._portal = self._portal_cm.__enter__()
        try:
            self.session: Session = kernel.session(**kwargs)
            # enter and exit the session's task group inside one task of the portal
            self._session_cm = self._portal.wrap_async_context_manager(self.session)
            self._session_cm.__enter__()
        except BaseException:
            self._portal_cm.__exit__(None, None, None)
            raise

    def close(self) -> None:
        """End the session's background hooks and stop the helper thread."""
        if self._portal_cm is None:
            return
        try:
            self._session_cm.__exit__(None, None, None)
        finally:
            cm, self._portal_cm = self._portal_cm, None
            cm.__exit__(None, None, None)

    def __enter__(self) -> SyncSession:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def info(self) -> Any:
        return self.session.info

    @property
    def halted(self) -> Any:
        return self.session.halted

    @property
    def problems(self) -> tuple[Any, ...]:
        """Why configured hooks cannot run here (see :attr:`Session.problems`)."""
        return self.session.problems

    def declare_tools(self, names: Iterable[str]) -> tuple[Any, ...]:
        """The runtime's tool names (see :meth:`Session.declare_tools`)."""
        names = tuple(names)
        return self._portal.call(lambda: self.session.declare_tools(names))

    def _call(self, name: str, *args: Any, **kwargs: Any) -> Verdict:
        method = getattr(self.session, name)
        result: Verdict = self._portal.call(functools.partial(method, *args, **kwargs))
        return result

    @contextlib.contextmanager
    def turn(self, prompt_id: str | None = None) -> Iterator[TurnOrigin]:
        """Mark a user turn's ingress in the calling thread."""
        with self.session.turn(prompt_id) as origin:
            yield origin

    def prompt_submit(self, prompt: str, **fields: Any) -> Verdict:
        fields.setdefault("origin", current_origin())
        return self._call("prompt_submit", prompt, **fields)

    def user_prompt(self, prompt: str, **fields: Any) -> Verdict:
        with self.turn():
            return self.prompt_submit(prompt, **fields)

    def session_start(self, source: str = "startup", **fields: Any) -> Verdict:
        return self._call("session_start", source, **fields)

    def tool_pre(self, tool_name: str, tool_input: Mapping[str, Any],
                 tool_use_id: str | None = None, **fields: Any) -> Verdict:
        return self._call("tool_pre", tool_name, tool_input, tool_use_id, **fields)

    def tool_post(self, tool_name: str, tool_input: Mapping[str, Any], tool_response: Any,
                  tool_use_id: str = "", **fields: Any) -> Verdict:
        return self._call("tool_post", tool_name, tool_input, tool_response, tool_use_id,
                          **fields)

    def tool_failure(self, tool_name: str, tool_input: Mapping[str, Any], error: str,
                     tool_use_id: str = "", **fields: Any) -> Verdict:
        return self._call("tool_failure", tool_name, tool_input, error, tool_use_id, **fields)

    def tool_batch(self, tool_calls: Sequence[Mapping[str, Any]], **fields: Any) -> Verdict:
        return self._call("tool_batch", tool_calls, **fields)

    def stop_failure(self, error: str, error_details: str | None = None,
                     last_assistant_message: str | None = None, **fields: Any) -> Verdict:
        return self._call("stop_failure", error, error_details, last_assistant_message,
                          **fields)

    def approve(self, tool_name: str, tool_input: Mapping[str, Any], tool_use_id: str = "",
                **fields: Any) -> Verdict:
        return self._call("approve", tool_name, tool_input, tool_use_id, **fields)

    def stop(self, last_assistant_message: str | None = None, **fields: Any) -> Verdict:
        return self._call("stop", last_assistant_message, **fields)

    def subagent_start(self, agent_id: str, agent_type: str, **fields: Any) -> Verdict:
        return self._call("subagent_start", agent_id, agent_type, **fields)

    def subagent_stop(self, agent_id: str, agent_type: str,
                      last_assistant_message: str | None = None, **fields: Any) -> Verdict:
        return self._call("subagent_stop", agent_id, agent_type, last_assistant_message,
                          **fields)

    def pre_compact(self, trigger: str = "manual", custom_instructions: str | None = None,
                    **fields: Any) -> Verdict:
        return self._call("pre_compact", trigger, custom_instructions, **fields)

    def post_compact(self, trigger: str = "manual", compact_summary: str | None = None,
                     **fields: Any) -> Verdict:
        return self._call("post_compact", trigger, compact_summary, **fields)

    def notification(self, message: str, notification_type: str | None = None,
                     **fields: Any) -> Verdict:
        return self._call("notification", message, notification_type, **fields)

    def session_end(self, reason: str = "other", **fields: Any) -> Verdict:
        return self._call("session_end", reason, **fields)
