"""The process a Claude Code hook runs as: argv or shell text, environment and cwd.

Environment (observed on 2.1.332): the host's own environment unchanged, then the session's
``env``, then ``CLAUDE_PROJECT_DIR``, ``CLAUDECODE=1``, ``CLAUDE_CODE_SESSION_ID``,
``CLAUDE_CODE_CHILD_SESSION=1``, ``CLAUDE_CODE_ENTRYPOINT``, ``AI_AGENT``, ``CLAUDE_PID``,
``COREPACK_ENABLE_AUTO_PIN=0``, ``NoDefaultCurrentDirectoryInExePath=1``, ``PWD``;
``CLAUDE_EFFORT`` on tool and stop events when the host gives an effort; ``CLAUDE_ENV_FILE``
on SessionStart only; ``CLAUDE_PLUGIN_ROOT``/``CLAUDE_PLUGIN_DATA`` for plugin hooks.

The spawn plan (:func:`plan`, kept in a :class:`~hookwire.runner.PlanCache`) holds every
Command field but stdin: substituted text or argv, environment, cwd with its fallbacks, and
timeout, built and encoded once per (entry, session, event, effort), and again when the
session's cwd changes (``Session.set_cwd``); the host's own environment is read then.
SessionStart builds its own each time (it creates the ``CLAUDE_ENV_FILE``).
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Mapping
from typing import Any

from hookwire import __version__
from hookwire.dialect import HookEntry
from hookwire.dialects.claude.events import DEFAULT_TIMEOUT, EVENT_TIMEOUTS
from hookwire.dialects.claude.handler import handler_of
from hookwire.events import SeamEvent, SessionInfo
from hookwire.runner import Environment, PlanCache

ENTRYPOINT = "hookwire"
AI_AGENT = f"hookwire_{__version__.replace('.', '-')}_claude-dialect"
_EFFORT_EVENTS = frozenset({
    "PreToolUse", "PostToolUse", "PostToolUseFailure", "PostToolBatch", "PermissionRequest",
    "Stop", "SubagentStop",
})
_PLACEHOLDERS = ("CLAUDE_PROJECT_DIR", "CLAUDE_PLUGIN_ROOT", "CLAUDE_PLUGIN_DATA")


def placeholders(entry: HookEntry, session: SessionInfo) -> dict[str, str]:
    """The ``${NAME}`` values substituted into the command text and each ``args`` element."""
    values = {"CLAUDE_PROJECT_DIR": session.project_dir}
    plugin = handler_of(entry).plugin
    for name in ("CLAUDE_PLUGIN_ROOT", "CLAUDE_PLUGIN_DATA"):
        if name in plugin:
            values[name] = plugin[name]
    return values


def substitute(text: str, values: Mapping[str, str]) -> str:
    """Replace ``${CLAUDE_PROJECT_DIR}``-style placeholders textually (no other expansion)."""
    for name in _PLACEHOLDERS:
        if name in values:
            text = text.replace("${" + name + "}", values[name])
    return text


_PLANS = PlanCache()


def environment(entry: HookEntry, event: SeamEvent, native: str,
                session: SessionInfo) -> Environment:
    """The complete environment of the hook process (from the plan of its entry in the
    session)."""
    env: Environment = plan(entry, event, native, session)["env"]
    return env


def plan(entry: HookEntry, event: SeamEvent, native: str, session: SessionInfo
         ) -> dict[str, Any]:
    """The spawn plan of ``entry``: every :class:`~hookwire.runner.Command` field but stdin
    (argv or substituted shell text, environment, cwd, timeout), built once per (entry,
    session, event, effort) and shared by the calls that follow. A cwd removed since falls
    back as Claude Code's does (the project root, ``$HOME``, the temp dir): the runner tries
    them in turn when the hook's ``chdir`` finds no directory (``cwd_fallbacks``), so no call
    pays a ``stat`` first."""
    effort = event.extra.get("effort") if event.extra else None
    level = effort.get("level") if isinstance(effort, Mapping) else None
    if native not in _EFFORT_EVENTS or not isinstance(level, str):
        level = None
    if native == "SessionStart":  # creates the CLAUDE_ENV_FILE: built each time
        return _plan(entry, native, session, level)
    return _PLANS.get(entry, session, (native, level),
                      lambda: _plan(entry, native, session, level))


def _plan(entry: HookEntry, native: str, session: SessionInfo, level: str | None
          ) -> dict[str, Any]:
    values = placeholders(entry, session)
    timeout = entry.timeout if entry.timeout is not None else EVENT_TIMEOUTS.get(
        native, DEFAULT_TIMEOUT)
    fallbacks = tuple(dict.fromkeys(
        c for c in _fallbacks(session) if c and c != session.cwd))
    fields: dict[str, Any] = {
        "env": Environment(_environment(entry, native, session, level, session.cwd)),
        "cwd": session.cwd, "cwd_fallbacks": fallbacks, "timeout": timeout,
    }
    if isinstance(entry.command, str) and handler_of(entry).shell == "powershell":
        from hookwire.dialects.claude._powershell import argv

        fields["argv"] = argv(entry.command)
    elif isinstance(entry.command, str):
        fields["shell"] = substitute(entry.command, values)
    else:
        fields["argv"] = tuple(substitute(a, values) for a in entry.command)
    return fields


def _environment(entry: HookEntry, native: str, session: SessionInfo,
                 level: str | None, pwd: str) -> dict[str, str]:
    env = dict(os.environ)
    env.update(session.env)
    env.update({
        "CLAUDE_PROJECT_DIR": session.project_dir,
        "CLAUDECODE": "1",
        "CLAUDE_CODE_ENTRYPOINT": ENTRYPOINT,
        "CLAUDE_CODE_SESSION_ID": session.session_id,
        "AI_AGENT": AI_AGENT,
        "CLAUDE_CODE_CHILD_SESSION": "1",
        "CLAUDE_PID": str(os.getpid()),
        "COREPACK_ENABLE_AUTO_PIN": "0",
        "NoDefaultCurrentDirectoryInExePath": "1",
        "PWD": pwd,
    })
    if level is not None:
        env["CLAUDE_EFFORT"] = level
    else:
        env.pop("CLAUDE_EFFORT", None)
    if native == "SessionStart":
        env["CLAUDE_ENV_FILE"] = env_file(session)
    else:
        env.pop("CLAUDE_ENV_FILE", None)
    plugin = handler_of(entry).plugin
    for name in ("CLAUDE_PLUGIN_ROOT", "CLAUDE_PLUGIN_DATA"):
        if name in plugin:
            env[name] = plugin[name]
    if "CLAUDE_PLUGIN_DATA" in plugin:
        os.makedirs(plugin["CLAUDE_PLUGIN_DATA"], exist_ok=True)
    return env


def env_file(session: SessionInfo) -> str:
    """The session's ``CLAUDE_ENV_FILE``: the host's (``SessionInfo.env_file``) or one made
    under the temp dir, created empty so ``>>`` and ``source`` both work."""
    path: Any = getattr(session, "env_file", None)
    if not path:
        safe = "".join(c if c.isalnum() or c in "-_." else "_" for c in session.session_id)
        folder = os.path.join(tempfile.gettempdir(), f"hookwire-{os.getuid()}", "session-env",
                              safe)
        os.makedirs(folder, mode=0o700, exist_ok=True)
        path = os.path.join(folder, "sessionstart-hook.sh")
    if not os.path.exists(path):
        os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
        open(path, "a").close()
    return str(path)


def working_dir(session: SessionInfo) -> str:
    """The session's cwd; if it is gone, Claude Code's fallbacks: the project root, ``$HOME``,
    the temp dir."""
    if os.path.isdir(session.cwd):  # the usual case: one stat
        return session.cwd
    for candidate in _fallbacks(session):
        if candidate and os.path.isdir(candidate):
            return candidate
    return session.cwd


def _fallbacks(session: SessionInfo) -> tuple[str, ...]:
    """Where Claude Code runs a hook whose cwd is gone, in order."""
    return (session.project_dir, os.path.expanduser("~"), tempfile.gettempdir())
