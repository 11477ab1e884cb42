"""The host driver: the protocol every runtime adapter shares, written once, runtime-neutral.

An adapter turns its runtime's callbacks into driver calls and the driver's answers back into
the runtime's idiom::

    driver = HostDriver(kernel, host=PROFILE, cwd=project)
    run = driver.begin(prompt)            # in the runtime's context: a nested run is seen here
    await run.open()                      # session start (first run), sub-agent start (nested)
    texts = await run.before_model()      # prompt_submit once per turn, tool_batch, queued texts
    go = await run.tool_pre(name, args, call_id)
    if go.action is Action.RUN:
        with run.tool_running():          # an agent run started by the tool is nested
            result = tool(**go.input)
        result = await run.tool_done(name, go.input, call_id, result)
    feedback = await run.stop(last_text)  # None: the turn ends; else send it, call the model
    await run.close()

The driver owns: the session (one per driver, or one per top-level run), ``session_start``
gating the first prompt, one turn and one ``prompt_submit`` per user turn, halts at the next
seam, the Stop continuation loop (the cap is the session's), ``ask`` answered by the kernel's
``approve`` seam or refused, nested runs (the same session and turn, with the sub-agent
seams), ``tool_batch`` over the calls since the last model request, and every text the model
reads (:mod:`hookwire.render`: each dialect's wording, or the neutral form). Runtimes whose
callbacks are blocking, or hop event loops, drive it through :class:`BlockingDriver`. An
adapter class subclasses :class:`HostAdapter` for the rest: its driver, ``problems``, the
session's ``with`` blocks, a tool call run between its hooks (:meth:`HostAdapter.run_tool`),
a user turn it drives itself, Stop continuations included (:meth:`HostAdapter.turn`), and a
sub-agent the runtime runs inside a tool (:meth:`HostAdapter.nested`).
"""

from __future__ import annotations

from hookwire._adapter import BlockingDriver, HostAdapter, in_thread
from hookwire._hostdriver import HostDriver
from hookwire._hostrun import HostRun, current_run
from hookwire._hosttypes import (
    Action,
    Anchored,
    PromptBlocked,
    Renderer,
    RunHalted,
    ToolBatchBlocked,
    ToolGo,
    error_kind,
    field,
    hookwire_error,
    invalid_rewrite,
    last_text,
    output_text,
    place,
    prompt_text,
    raise_own,
    status_error_kind,
    tool_name,
)

__all__ = ["Action", "Anchored", "BlockingDriver", "HostAdapter", "HostDriver", "HostRun",
           "PromptBlocked", "Renderer", "RunHalted", "ToolBatchBlocked", "ToolGo", "current_run",
           "error_kind", "field", "hookwire_error", "in_thread", "invalid_rewrite", "last_text",
           "output_text", "place", "prompt_text", "raise_own", "status_error_kind", "tool_name"]
