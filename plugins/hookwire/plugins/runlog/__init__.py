"""The run log: every seam of every session, as JSON lines, and ``hookwire log`` to read it.

Off by default, and then it costs nothing: the entry point's plugin implements no audit
hookspec, so the kernel never emits the audit plane for it. Turn it on with
``HOOKWIRE_RUN_LOG=DIR`` (``1`` for the default directory, ``$XDG_STATE_HOME/hookwire/runs``)
or in code with ``Kernel(plugins=[RunLog(DIR)])``. One file per session,
``DIR/<session id>.jsonl``; each line is one record:

* ``session``: the session id, when it started, its cwd, project dir and host;
* ``seam_started``: a seam is about to run;
* ``invoked``: a hook is about to run (dialect, event, matcher, command, the SHA-256 and size
  of its stdin, the names of its environment variables, never their values, cwd, timeout,
  ``statusMessage``), or a native plugin to be called;
* ``result``: its outcome (exit code, signal, timed out, duration), decision, reason,
  rewritten input and diagnostics, or the error a plugin raised;
* ``seam``: the folded verdict with the original and effective input
  (:func:`hookwire.timeline.seam_record`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hookwire.hookspecs import hookimpl
from hookwire.plugins.runlog.switch import ENV, default_dir, log_dir

if TYPE_CHECKING:
    from hookwire.plugins.runlog.recorder import RunLog

__all__ = ["ENV", "RunLog", "default_dir", "log_dir", "plugin"]


def __getattr__(name: str) -> Any:
    if name == "RunLog":  # the recorder is imported only when something records
        from hookwire.plugins.runlog.recorder import RunLog

        return RunLog
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


class plugin:  # named as the entry point; a class, so that each Kernel() reads ENV anew
    """The ``hookwire.plugins`` entry point ``runlog``: ``hookwire log`` always; the recorder's
    audit hooks only when ``HOOKWIRE_RUN_LOG`` is set (a bound method carries its
    ``@hookimpl`` mark, so pluggy registers the recorder's methods as this object's)."""

    hookwire_name = "runlog"

    def __init__(self) -> None:
        directory = log_dir()
        self.recorder = None
        if directory is not None:
            from hookwire.plugins.runlog.recorder import AUDIT, RunLog

            self.recorder = RunLog(directory)
            for name in AUDIT:
                setattr(self, name, getattr(self.recorder, name))

    @hookimpl
    def register_commands(self, subparsers: Any) -> None:
        from hookwire.plugins.runlog.commands import add_parser

        add_parser(subparsers)
