"""The portable six-event hooks profile: observe-only handlers declared once in a plugin's
``hooks.json`` (MCP-style commands, ``${PLUGIN_ROOT}``/``${PLUGIN_DATA}``), run in
declaration order, with an opt-in context-result mode. Profile: ``docs/dialects/portable.md``.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from hookwire import events as ev
from hookwire.dialect import ConfigResult, Dialect, Export, HookEntry, Provenance
from hookwire.dialects.portable import _paths, config, outcome, payload
from hookwire.dialects.portable import events as pe
from hookwire.dialects.portable import handler as _handler
from hookwire.dialects.portable.pairing import DeniedAttempts
from hookwire.errors import EventDataError, UnknownEventError
from hookwire.events import SeamEvent, SessionInfo
from hookwire.plugin import declare
from hookwire.runner import Command, Environment, Outcome, PlanCache
from hookwire.verdicts import Answer

__all__ = ["PortableDialect", "plugin"]


class PortableDialect(Dialect):
    """The portable profile. ``data_home`` roots every plugin's ``PLUGIN_DATA`` (default
    ``$XDG_DATA_HOME/hookwire/plugin-data``); ``context_limit`` is this client's bound on a
    context result, in UTF-8 bytes; ``environ`` is the client environment handlers inherit
    from (filtered; default ``os.environ``)."""

    name = "portable"
    harness = f"portable hooks profile {config.SCHEMA_VERSION}"
    events = pe.EVENTS
    parallel = False  # declaration order, one handler at a time
    handler_type = _handler.PortableHandler

    def __init__(self, *, data_home: str | None = None,
                 context_limit: int = outcome.DEFAULT_CONTEXT_LIMIT,
                 environ: Mapping[str, str] | None = None) -> None:
        self.data_home = data_home
        self.context_limit = context_limit
        self.environ = environ
        self._pairing: DeniedAttempts | None = None
        #: Spawn plans: paths, executable and environment once per (entry, session).
        self._plans = PlanCache()

    def companions(self) -> list[object]:
        """The observer that closes refused tool attempts with a post-tool-use."""
        if self._pairing is None:
            self._pairing = DeniedAttempts()
        return [self._pairing]

    def read_config(self, path: Path, *, provenance: Provenance = Provenance.PLUGIN
                    ) -> ConfigResult:
        return config.read_config(path, provenance=provenance, dialect=self.name)

    def handler_from_options(self, options: Mapping[str, Any]) -> _handler.PortableHandler:
        return _handler.from_options(options)

    def export(self, entry: HookEntry) -> Export:
        return _handler.export(entry)

    def native_event(self, event: SeamEvent) -> str | None:
        return pe.BY_SEAM.get(event.seam)

    def select(self, entries: Sequence[HookEntry], event: SeamEvent, native: str,
               session: SessionInfo) -> list[HookEntry]:
        if event.agent_id is not None:
            return []  # the profile fires for the top-level agent only
        return list(entries)

    def command(self, entry: HookEntry, event: SeamEvent, native: str,
                session: SessionInfo) -> Command:
        plan = self._plans.get(entry, session, native, lambda: self._plan(entry, native,
                                                                          session))
        return Command(stdin=payload.encode(payload.build(event, native, session)), **plan)

    def _plan(self, entry: HookEntry, native: str, session: SessionInfo) -> dict[str, Any]:
        """Everything but stdin, once per (entry, session): paths resolved and contained,
        the executable found, the environment encoded."""
        h = _handler.handler_of(entry)
        # An entry of hookwire's own file is a bare argv: its plugin root is the project
        # (named like a plugin directory) and its arguments are the rest of the argv.
        argv = (entry.command,) if isinstance(entry.command, str) else tuple(entry.command)
        root = os.path.realpath(h.root or session.project_dir or session.cwd)
        owner = h.plugin or config.plugin_name(Path(root))
        args = h.args if h.args is not None else argv[1:]
        data = os.path.realpath(payload.data_dir(owner, self.data_home))
        environ = os.environ if self.environ is None else self.environ
        exe = _paths.resolve_command(argv[0], root, environ.get("PATH"))
        env = payload.base_env(environ)
        env.update(_paths.expand_env(h.env, root, data))
        env["PLUGIN_ROOT"], env["PLUGIN_DATA"] = root, data
        name = pe.public_name(native)
        timeout = entry.timeout or pe.EVENT_TIMEOUTS.get(name, pe.DEFAULT_TIMEOUT)
        return {"argv": (exe, *(_paths.expand(a, root, data) for a in args)),
                "env": Environment(env), "cwd": _paths.resolve_cwd(h.cwd, root, data),
                "timeout": timeout}

    def interpret(self, entry: HookEntry, event: SeamEvent, native: str,
                  outcome_: Outcome) -> Answer:
        return outcome.interpret(entry, event, native, outcome_, dialect=self.name,
                                 context_limit=self.context_limit)

    def event_from_wire(self, native: str, data: Mapping[str, Any]) -> SeamEvent:
        return event_from_wire(self.name, native, data)


def event_from_wire(dialect: str, native: str, data: Mapping[str, Any]) -> SeamEvent:
    """The seam event for ``native`` from envelope-spelled fields (``hookwire fire``)."""
    if native not in pe.PORTABLE_EVENTS:
        raise UnknownEventError(dialect, native, list(pe.PORTABLE_EVENTS))
    common: dict[str, Any] = {"prompt_id": _opt_str(data, "turn_id")}
    if native == pe.SESSION_START:
        return ev.SessionStart(source=_opt_str(data, "source") or "startup", **common)
    if native == pe.TURN_START:
        prompt = data.get("prompt")
        if not isinstance(prompt, str):
            raise EventDataError("turn-start needs a prompt string", path="$.prompt")
        return ev.PromptSubmit(prompt=prompt, **common)
    if native == pe.TURN_END:
        return ev.Stop(last_assistant_message=_opt_str(data, "last_assistant_message"),
                       **common)
    if native == pe.SESSION_END:
        return ev.SessionEnd(reason=_opt_str(data, "reason") or "other", **common)
    tool = data.get("tool")
    if not isinstance(tool, Mapping) or not isinstance(tool.get("name"), str):
        raise EventDataError("a tool event needs tool.name", path="$.tool.name")
    tool_input = tool.get("input", {})
    if not isinstance(tool_input, Mapping):
        raise EventDataError("tool.input must be an object", path="$.tool.input")
    fields = {"tool_name": tool["name"], "tool_input": dict(tool_input),
              "tool_use_id": str(tool.get("use_id") or ""), **common}
    if native == pe.PRE_TOOL_USE:
        return ev.ToolPre(**fields)
    result = data.get("result", {})
    if not isinstance(result, Mapping):
        raise EventDataError("result must be an object", path="$.result")
    status = result.get("status", "succeeded")
    if status not in pe.STATUSES:
        raise EventDataError(f"result.status must be one of {', '.join(pe.STATUSES)}",
                             path="$.result.status")
    if status == "succeeded":
        return ev.ToolPost(tool_response=result.get("output"), **fields)
    return ev.ToolFailure(error=str(result.get("error") or status),
                          is_interrupt=status == "cancelled", extra={"status": status},
                          **fields)


def _opt_str(data: Mapping[str, Any], key: str) -> str | None:
    value = data.get(key)
    return value if isinstance(value, str) else None


def _register_dialects() -> list[Dialect]:
    return [PortableDialect()]


#: The entry-point object: registers the dialect (which brings its pairing observer along as a
#: companion once portable hooks are configured).
plugin = declare(register_dialects=_register_dialects)
