"""The Claude Code dialect: run Claude Code hooks unmodified, as Claude Code 2.1.332 does.

Registered through the ``hookwire.dialects`` entry point ``claude``. The profile (events,
fields, exit codes, divergences) is ``docs/dialects/claude.md``.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, ClassVar

import attrs

from hookwire.dialect import (
    ConfigProblem,
    ConfigResult,
    Dialect,
    EventSpec,
    Export,
    HarnessTrust,
    HookEntry,
    Location,
    Prepared,
    ProblemKind,
    Provenance,
)
from hookwire.dialects.claude import _levels
from hookwire.dialects.claude import env as _env
from hookwire.dialects.claude import matcher as _matcher
from hookwire.dialects.claude import outcome as _outcome
from hookwire.dialects.claude import payload as _payload
from hookwire.dialects.claude import rules as _rules
from hookwire.dialects.claude import tools as _tools
from hookwire.dialects.claude._levels import SCOPE_RANK
from hookwire.dialects.claude.events import (
    EVENTS,
    NARROW_MATCHER_EVENTS,
    SESSION_END_BUDGET,
    TOOL_EVENTS,
)
from hookwire.dialects.claude.handler import ClaudeHandler, handler_of
from hookwire.errors import ConfigError
from hookwire.events import SeamEvent, SessionInfo
from hookwire.plugin import declare
from hookwire.runner import Command, Outcome
from hookwire.tools import Vocabulary
from hookwire.verdicts import Answer

__all__ = ["ClaudeDialect", "plugin"]


class ClaudeDialect(Dialect):
    """Claude Code's wire contract. Hooks of one event run in parallel.

    The hook policy keys of the settings files read through :meth:`read_config` and
    :meth:`discover` (``disableAllHooks``, ``allowManagedHooksOnly``, ``allowedHttpHookUrls``,
    ``httpHookAllowedEnvVars``) resolve across them as in Claude Code (:mod:`._levels`).
    ``managed_dir``: the folder of the managed settings discovery reads (default
    ``$HOOKWIRE_CLAUDE_MANAGED_DIR``, else the system folder: :mod:`._managed`).
    """

    name: ClassVar[str] = "claude"
    harness: ClassVar[str] = "Claude Code 2.1.332"
    events: ClassVar[Mapping[str, EventSpec]] = EVENTS
    parallel: ClassVar[bool] = True
    tools: ClassVar[Vocabulary] = _tools.VOCABULARY

    handler_type: ClassVar[type | None] = ClaudeHandler
    #: Variables substituted in an argv at run time: name → how an import writes it.
    placeholders: ClassVar[Mapping[str, str]] = {"CLAUDE_PROJECT_DIR": "${CLAUDE_PROJECT_DIR}"}

    def __init__(self, *, managed_dir: str | Path | None = None) -> None:
        self.managed_dir = None if managed_dir is None else Path(managed_dir)
        self._levels = _levels.Levels()
        self._permissions: dict[str, tuple[Any, ...]] = {}  # file → its permission rules
        self._compiled: dict[int, tuple[Sequence[HookEntry], list[Any]]] = {}

    # -- config --------------------------------------------------------------------------------

    def read_config(self, path: Path, *, provenance: Provenance = Provenance.USER
                    ) -> ConfigResult:
        return self._read(Path(path), provenance=provenance)

    def write_config(self, entries: Sequence[HookEntry]) -> dict[str, Any]:
        from hookwire.dialects.claude.writer import write_config

        return write_config(entries)

    def config_paths(self, project_dir: Path, home: Path | None = None) -> list[Path]:
        """The project's shared settings, then its local (uncommitted) settings."""
        folder = Path(project_dir) / ".claude"
        return [folder / "settings.json", folder / "settings.local.json"]

    def handler_from_options(self, options: Mapping[str, Any]) -> ClaudeHandler:
        from hookwire.dialects.claude.handler import from_options

        return from_options(options)

    def export(self, entry: HookEntry) -> Export:
        from hookwire.dialects.claude.handler import export

        return export(entry)

    def _read(self, path: Path, *, provenance: Provenance, home: Path | None = None,
              plugin_root: Path | None = None) -> ConfigResult:
        """Read one file and record its hook policy keys (:mod:`._levels`)."""
        from hookwire.dialects.claude import config as _config  # cattrs: only when reading

        result = _config.read_file(path, provenance=provenance, home=home,
                                   plugin_root=plugin_root)
        keys = dict(result.settings["policy"])
        if result.settings.get("disableAllHooks") is not None:
            keys["disableAllHooks"] = result.settings["disableAllHooks"]
        self._levels.record(str(path), result.settings["scope"], keys)
        self._permissions[str(path)] = result.settings.get("permissions") or ()
        return result

    def read_settings(self, sources: Sequence[tuple[Path, Provenance]], *,
                      home: Path | None = None, strict: bool = True) -> ConfigResult:
        """Read several files (e.g. :func:`config.discover`'s list) into one result.

        ``settings`` of the result: the resolved ``disableAllHooks`` and ``enabledPlugins``
        (each file's object merged by settings precedence, a higher level overriding a lower
        one per plugin), and ``managedPlugins``: those the managed files turn on (exempt from
        ``allowManagedHooksOnly``). ``strict=False``: a file that cannot be read becomes an
        ``error`` problem (Claude Code skips such a file) instead of raising.
        """
        from hookwire.dialects.claude.config import REPO_RANKS

        entries: list[HookEntry] = []
        problems: list[Any] = []
        enabled: list[tuple[int, Mapping[str, bool]]] = []
        for path, provenance in sources:
            try:
                result = self._read(Path(path), provenance=provenance, home=home)
            except ConfigError as exc:
                if strict:
                    raise
                problems.append(ConfigProblem(
                    message=f"{exc.message}: file skipped, as Claude Code skips it",
                    location=Location(file=exc.file or str(path), line=exc.line),
                    severity="error", kind=ProblemKind.CONFIG))
                continue
            entries.extend(result.entries)
            problems.extend(result.problems)
            enabled.append((SCOPE_RANK[result.settings["scope"]],
                            result.settings.get("enabledPlugins") or {}))
        merged: dict[str, bool] = {}
        managed: dict[str, bool] = {}
        for rank, plugins in sorted(enabled, key=lambda rp: rp[0]):
            merged.update(plugins)
            if rank == SCOPE_RANK["managed"]:
                managed.update(plugins)
        # a plugin only a project's own files enable is the repository's (docs/trust.md)
        mine = {k for rank, plugins in enabled if rank not in REPO_RANKS
                for k, on in plugins.items() if on}
        return ConfigResult(entries=tuple(entries), problems=tuple(problems),
                            settings={"disableAllHooks": self.hooks_disabled(),
                                      "enabledPlugins": merged,
                                      "managedPlugins": sorted(k for k, on in managed.items()
                                                               if on and merged.get(k)),
                                      "repositoryPlugins": sorted(set(merged) - mine)})

    def discover(self, project_dir: Path, *, home: Path | None = None,
                 plugins: Sequence[str | Path] = (),
                 managed_dir: str | Path | None = None) -> ConfigResult:
        """Every hook Claude Code would load for a session launched in ``project_dir``, in its
        order: user ``settings.json`` (in ``$CLAUDE_CONFIG_DIR``, else ``<home>/.claude``),
        project ``.claude/settings.json``, local ``.claude/settings.local.json``, the managed
        settings (``managed-settings.json``, then ``managed-settings.d/*.json``, in
        ``managed_dir``, else the dialect's, else :func:`._managed.managed_dir`), then the
        plugins those files enable (``enabledPlugins``), found through the plugin registry
        and cache in the user folder, then the plugin roots in ``plugins`` (as
        ``--plugin-dir``). The hook policy keys are recorded per file and resolved at
        selection as Claude Code resolves them; ``settings`` of the result give the resolved
        ``disableAllHooks`` and the enabled plugins. Unreadable files become ``error``
        problems."""
        from hookwire.dialects.claude import _managed, _plugins
        from hookwire.dialects.claude import config as _config

        config = _config.config_dir(home)
        project = Path(project_dir)
        folder = managed_dir if managed_dir is not None else (
            self.managed_dir if self.managed_dir is not None else _managed.managed_dir())
        result = self.read_settings(_config.discover(project, home=home, config=config,
                                                     managed_dir=folder),
                                    home=home, strict=False)
        owner = str(project.resolve())
        entries = [attrs.evolve(e, project=owner) if e.provenance is Provenance.PROJECT
                   else e for e in result.entries]
        repository = set(result.settings["repositoryPlugins"])
        managed = set(result.settings["managedPlugins"])
        problems = list(result.problems)
        enabled = result.settings["enabledPlugins"]
        records, trouble = _plugins.installed_plugins(config)
        problems.extend(trouble)
        roots: list[tuple[Path, str | None]] = []
        for plugin_id, on in enabled.items():
            if not on:
                continue
            root = _plugins.plugin_root(plugin_id, config, project, records)
            if root is None:
                problems.append(ConfigProblem(
                    message=f"plugin {plugin_id!r} is enabled but not installed in "
                            f"{config / 'plugins'}: its hooks are not loaded (Claude Code "
                            "cannot load it either)", location=Location(file=str(config)),
                    severity="error"))
            else:
                roots.append((root, owner if plugin_id in repository else None))
                if plugin_id in managed:  # the organisation turns it on: allowed under
                    self._levels.exempt_roots.add(str(root))  # allowManagedHooksOnly
        roots.extend((Path(p), None) for p in plugins)
        for root, repo in roots:
            files, trouble = _plugins.plugin_hook_files(root)
            problems.extend(trouble)
            for path in files:
                try:
                    # a plugin the user enabled (or the host named) runs as Claude Code runs
                    # it; one only the project's own settings enable is the repository's
                    found = self._read(path, home=home, plugin_root=root, provenance=(
                        Provenance.USER if repo is None else Provenance.PROJECT))
                    if repo is not None:
                        found = attrs.evolve(found, entries=tuple(
                            attrs.evolve(e, project=repo) for e in found.entries))
                except ConfigError as exc:
                    problems.append(ConfigProblem(
                        message=f"{exc.message}: plugin hooks file skipped",
                        location=Location(file=exc.file or str(path), line=exc.line),
                        severity="error", kind=ProblemKind.CONFIG))
                    continue
                entries.extend(found.entries)
                problems.extend(found.problems)
        return ConfigResult(entries=tuple(entries), problems=tuple(problems),
                            settings={"disableAllHooks": self.hooks_disabled(),
                                      "enabledPlugins": dict(enabled)})

    def hooks_disabled(self, scope: str = "user") -> bool:
        """Whether ``disableAllHooks`` turns off hooks of ``scope`` (``managed`` hooks only
        yield to a managed file)."""
        return self._levels.disabled(scope)

    def hooks_blocked(self, entry: HookEntry) -> bool:
        """Whether the settings turn ``entry`` off: ``disableAllHooks``, or
        ``allowManagedHooksOnly`` for a hook that is not managed."""
        handler = handler_of(entry)
        return self._levels.active and self._levels.blocks(
            handler.scope, handler.plugin.get("CLAUDE_PLUGIN_ROOT"))

    def harness_trust(self, entry: HookEntry) -> HarnessTrust:
        """Claude Code keeps no trust records, but its settings can turn a hook off; such a
        hook is disabled (what ``hookwire check`` reports), as :meth:`select` never picks it."""
        if not self.hooks_blocked(entry):
            return HarnessTrust()
        key = ("disableAllHooks" if self._levels.disabled(handler_of(entry).scope)
               else "allowManagedHooksOnly")
        return HarnessTrust(runs=False, kind=ProblemKind.DISABLED,
                            why=f"turned off by {key} in the settings")

    # -- selection -----------------------------------------------------------------------------

    def select(self, entries: Sequence[HookEntry], event: SeamEvent, native: str,
               session: SessionInfo) -> list[HookEntry]:
        spec = EVENTS[native]
        field = spec.matcher_field
        if field is not None:
            # The matcher first, on its own: it runs on every dispatch, and usually nothing
            # matches, so the rest of the work is for the few entries that do.
            value = getattr(event, field, None)
            if value is None:
                value = event.extra.get(field)
            if value is not None and not isinstance(value, str):
                value = str(value)
            entries = [e for e, test in self._tests(entries, native) if test(value)]
            if not entries:
                return []
        chosen: dict[tuple[Any, ...], HookEntry] = {}
        order: list[tuple[Any, ...]] = []
        levels = self._levels if self._levels.active else None
        for entry in entries:
            handler = handler_of(entry)
            if levels is not None and levels.blocks(handler.scope,
                                                    handler.plugin.get("CLAUDE_PLUGIN_ROOT")):
                continue
            rule = handler.if_
            if rule is not None:
                if native not in TOOL_EVENTS:
                    continue
                if not _rules.allows(rule, getattr(event, "tool_name", ""),
                                     getattr(event, "tool_input", {}), cwd=session.cwd,
                                     project_dir=session.project_dir):
                    continue
            key = (handler.plugin.get("CLAUDE_PLUGIN_ROOT"), entry.command)
            if key in chosen:
                # The same handler again: it runs once, with the last entry's timeout.
                chosen[key] = attrs.evolve(chosen[key], timeout=entry.timeout)
            else:
                chosen[key] = entry
                order.append(key)
        selected = [chosen[k] for k in order]
        if native == "SessionEnd":
            selected = _session_end_budget(selected)
        return selected

    def matches_tool(self, entry: HookEntry, native: str, tool_name: str) -> bool:
        return _matcher_test(entry.matcher, native in NARROW_MATCHER_EVENTS)(tool_name)

    def _tests(self, entries: Sequence[HookEntry], native: str
               ) -> list[tuple[HookEntry, Callable[[str | None], bool]]]:
        """Each entry with its compiled matcher test, computed once per entry sequence (the
        kernel hands the same tuple on every dispatch; the cache keeps it alive, so its id
        cannot be reused while cached)."""
        cached = self._compiled.get(id(entries))
        if cached is not None and cached[0] is entries:
            return cached[1]
        narrow = native in NARROW_MATCHER_EVENTS
        tests = [(e, _matcher_test(e.matcher, narrow)) for e in entries]
        if len(self._compiled) > 256:
            self._compiled.clear()
        self._compiled[id(entries)] = (entries, tests)
        return tests

    def matcher_problem(self, entry: HookEntry) -> str | None:
        """Why ``entry``'s matcher never matches: an invalid JavaScript regular expression
        (events without a matcher ignore it)."""
        spec = EVENTS.get(entry.event)
        if spec is None or spec.matcher_field is None:
            return None
        return _matcher.check(entry.matcher, narrow=entry.event in NARROW_MATCHER_EVENTS)

    # -- running -------------------------------------------------------------------------------

    def runs_on(self, entry: HookEntry) -> str | None:
        """``"model"`` for a prompt or agent hook, ``"mcp"`` for an mcp_tool hook,
        ``"hookwire"`` for an http hook (an HTTP request hookwire sends itself)."""
        return {"prompt": "model", "agent": "model", "mcp_tool": "mcp", "http": "hookwire"}.get(
            handler_of(entry).type)

    def prepare(self, entry: HookEntry, event: SeamEvent, native: str,
                session: SessionInfo) -> Prepared:
        """A prompt, agent or mcp_tool hook runs in process, on what the host lends
        (:mod:`._inprocess`), an http hook in process with an HTTP client (:mod:`._http`);
        command hooks are processes."""
        handler = handler_of(entry)
        if handler.in_process:
            from hookwire.dialects.claude import _inprocess

            return _inprocess.prepare(entry, event, native, session)
        if handler.type == "http":
            from hookwire.dialects.claude import _http

            return _http.prepare(entry, event, native, session, self._levels.http())
        return super().prepare(entry, event, native, session)

    def command(self, entry: HookEntry, event: SeamEvent, native: str,
                session: SessionInfo) -> Command:
        """The process of a command hook (an http hook's: what it describes, see
        :meth:`prepare`)."""
        if handler_of(entry).type == "http":
            return self.prepare(entry, event, native, session).command
        stdin = _payload.encode(_payload.build(event, native, session))
        return Command(stdin=stdin, **_env.plan(entry, event, native, session))

    def interpret(self, entry: HookEntry, event: SeamEvent, native: str,
                  outcome: Outcome) -> Answer:
        handler = handler_of(entry)
        if handler.asyncRewake and entry.background:
            from hookwire.dialects.claude import _rewake

            return _rewake.interpret(handler, native, outcome)
        return _outcome.interpret(entry, event, native, outcome)

    def wakes(self, entry: HookEntry) -> bool:
        """An ``asyncRewake`` hook wakes the agent on exit 2 (:mod:`._rewake`)."""
        return handler_of(entry).asyncRewake

    def combine(self, native: str, event: SeamEvent, session: SessionInfo,
                results: Sequence[tuple[HookEntry, Answer]]) -> list[Answer]:
        """A PreToolUse ``allow`` (or ``ask``) yields to the settings' deny and ask rules
        (:mod:`._permissions`)."""
        answers = [answer for _, answer in results]
        rules = [r for file in self._permissions.values() for r in file]
        if native != "PreToolUse" or not rules:
            return answers
        from hookwire.dialects.claude._permissions import apply

        tool, args = getattr(event, "tool_name", ""), getattr(event, "tool_input", {})
        return [apply(a, rules, tool, args, cwd=session.cwd, project_dir=session.project_dir)
                for a in answers]

    def render(self, verdict: Any, subject: Any) -> list[Any]:
        """What Claude Code gives the model for ``verdict`` (see :mod:`.render`)."""
        from hookwire.dialects.claude.render import render

        return render(verdict, subject)

    def event_from_wire(self, native: str, data: Mapping[str, Any]) -> SeamEvent:
        return _payload.event_from_wire(native, data)

    def payload(self, event: SeamEvent, native: str, session: SessionInfo) -> bytes:
        """The exact stdin bytes ``native`` hooks get for ``event`` (for tests and tools)."""
        return _payload.encode(_payload.build(event, native, session))


def _matcher_test(matcher: str | None, narrow: bool) -> Callable[[str | None], bool]:
    """One entry's matcher as a test of the value (the tool name, source, ...)."""
    test = None if matcher is None else _matcher.predicate(matcher, narrow)
    if test is None:
        return _always

    def check(value: str | None) -> bool:
        if value is None:
            return False
        # The Agent tool is also matched by its legacy name, Task.
        return test(value) or (value == "Agent" and test("Task"))

    return check


def _always(value: str | None) -> bool:
    return True


def _session_end_budget(entries: list[HookEntry]) -> list[HookEntry]:
    """SessionEnd hooks share one budget: 1.5 s raised to the largest settings-file timeout
    (plugin timeouts do not raise it), at most 60 s; the environment variable
    ``CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS`` overrides it."""
    floor, ceiling = SESSION_END_BUDGET
    override = os.environ.get("CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS")
    try:
        budget = int(override) / 1000 if override else None
    except ValueError:
        budget = None
    if budget is None:
        declared = [e.timeout for e in entries
                    if e.timeout is not None and handler_of(e).scope != "plugin"]
        budget = min(max([floor, *declared]), ceiling)
    return [attrs.evolve(e, timeout=budget) for e in entries]


def _register_dialects() -> list[Dialect]:
    return [ClaudeDialect()]


#: The entry-point object: registers :class:`ClaudeDialect`.
plugin = declare(register_dialects=_register_dialects)
