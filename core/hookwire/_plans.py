"""Spawn plans: what a hook's process needs that does not change from call to call.

A dialect builds the environment (an :class:`~hookwire.runner.Environment`, encoded once),
cwd, argv or shell text and timeout of an entry once per session and keeps them in a
:class:`PlanCache`; per call only stdin is built. The cache is keyed by the entry and the
:class:`~hookwire.events.SessionInfo` object, which :meth:`Session.set_cwd` replaces: a new
cwd is a new plan. The environment of the host process is read when the plan is made.

Shell elision (opt-in, :func:`elide`): shell text that is a plain word list the exact
splitter accepts, whose first word is no shell builtin or reserved word, is exec'd directly.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Hashable
from typing import Any, TypeVar

from hookwire._command import Command, Direct

T = TypeVar("T")

#: Plans kept per dialect before all are dropped (sessions x entries of a busy host).
_MAX_PLANS = 1024

#: Words the shell itself gives a meaning as a command name: reserved words and the
#: builtins of dash and bash. ``true``/``false`` alone are elided (the files do the same).
SHELL_WORDS = frozenset({
    "!", "[[", "]]", "{", "}", "case", "do", "done", "elif", "else", "esac", "fi", "for",
    "function", "if", "in", "select", "then", "time", "until", "while", ".", ":", "[", "alias",
    "bg", "bind", "break", "builtin", "caller", "cd", "chdir", "command", "compgen",
    "complete", "compopt", "continue", "declare", "dirs", "disown", "echo", "enable", "eval",
    "exec", "exit", "export", "false", "fc", "fg", "getopts", "hash", "help", "history",
    "jobs", "kill", "let", "local", "logout", "mapfile", "popd", "printf", "pushd", "pwd",
    "read", "readarray", "readonly", "return", "set", "shift", "shopt", "source", "suspend",
    "test", "times", "trap", "true", "type", "typeset", "ulimit", "umask", "unalias", "unset",
    "wait",
})


class PlanCache:
    """A dialect's plans: :meth:`get` returns the one of (entry, session, key), building it
    with ``build()`` the first time."""

    def __init__(self) -> None:
        self._plans: dict[tuple[int, int, Hashable], tuple[object, object, Any]] = {}

    def get(self, entry: object, session: object, key: Hashable, build: Callable[[], T]) -> T:
        slot = (id(entry), id(session), key)
        hit = self._plans.get(slot)
        # the entry and session are kept alive by the cache, so their ids are not reused
        if hit is not None and hit[0] is entry and hit[1] is session:
            plan: T = hit[2]
            return plan
        plan = build()
        if len(self._plans) >= _MAX_PLANS:
            self._plans.clear()
        self._plans[slot] = (entry, session, plan)
        return plan


_directs: dict[tuple[str, str | None, str | None], Direct | None] = {}


def elide(command: Command) -> Command:
    """``command`` with :attr:`~hookwire.runner.Command.direct` set when its shell text can
    run without the shell; otherwise ``command`` itself."""
    text = command.shell
    if text is None:
        return command
    env = os.environ if command.env is None else command.env
    slot = (text, env.get("PATH"), command.cwd)
    direct = _directs[slot] if slot in _directs else _direct(text, slot[1], command.cwd)
    if len(_directs) >= _MAX_PLANS:
        _directs.clear()
    _directs[slot] = direct
    if direct is None:
        return command
    # built field by field: attrs.evolve costs twice as much, on every hooked call
    return Command(shell=text, shell_argv=command.shell_argv, stdin=command.stdin,
                   env=command.env, cwd=command.cwd, cwd_fallbacks=command.cwd_fallbacks,
                   timeout=command.timeout,
                   output_cap=command.output_cap, grace=command.grace, drain=command.drain,
                   direct=direct)


def _direct(text: str, path: str | None, cwd: str | None) -> Direct | None:
    import shutil

    from hookwire.config._shellwords import Unsafe, split

    try:
        argv = split(text)
    except Unsafe:
        return None
    if not argv or (argv[0] in SHELL_WORDS and argv not in (["true"], ["false"])):
        return None
    name = argv[0]
    executable = None
    if "/" not in name:
        # the shell's own search of PATH (relative entries are relative to the hook's cwd)
        search = os.pathsep.join(os.path.join(cwd or "", d or ".")
                                 for d in (path if path is not None else os.defpath).split(":"))
        executable = shutil.which(name, path=search)
    return Direct(text=text, argv=tuple(argv), executable=executable)
