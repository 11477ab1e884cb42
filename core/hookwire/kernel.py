"""The kernel: one facade over the registry (what is installed), the index (what is
configured), and the tool map and dispatch loop (what happens on a seam; built on first use)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pluggy

from hookwire import _entrypoints
from hookwire.hostparts import NONE, HostParts
from hookwire.index import Index
from hookwire.registry import DialectInfo, Registry

if TYPE_CHECKING:
    from hookwire._precheck import MatchCheck
    from hookwire.dialect import ConfigProblem, ConfigResult, Dialect, HookEntry, Provenance
    from hookwire.dispatch import Dispatcher, TrustDecision
    from hookwire.errors import PluginLoadError
    from hookwire.events import Seam, SeamEvent, SessionInfo
    from hookwire.hosts import HostProfile
    from hookwire.session import Session
    from hookwire.sync import SyncSession
    from hookwire.tools import ToolMap
    from hookwire.verdicts import Verdict

__all__ = ["DialectInfo", "Kernel"]


class Kernel:
    """Loads plugins and dialects, holds the configured hooks and dispatches seams.
    ``Kernel()`` loads every ``hookwire.plugins`` entry point and, on first use (a dialect, config
    or dispatch asked for), the ``hookwire.dialects`` ones, each in its own error boundary (a
    broken one is recorded in :attr:`load_errors` and skipped); ``plugins`` are registered
    in-process after them. ``output_cap`` bounds each hook's stdout and stderr (default 1 MiB).
    ``shell_elision=True`` execs a shell hook whose text is a plain word list directly instead of
    through ``/bin/sh -c`` (a divergence; ``None``: as the hooks file says, else off; a session may
    override it). A repository's hooks run only in a trusted folder or once approved:
    ``trusted_folders`` adds to the user's; ``project_hooks="run"`` runs them unasked, as a harness
    would. ``enforcement``: ``"enforce"``, ``"fail-closed"`` or ``"shadow"`` (docs/trust.md)."""
    parts: HostParts = NONE  #: what in-process hooks run on (:mod:`hookwire.hostparts`)

    def __init__(self, *, plugins: Iterable[object] = (), load_entry_points: bool = True,
                 output_cap: int | None = None, shell_elision: bool | None = None,
                 trusted_folders: Iterable[str | Path] = (), project_hooks: str = "ask",
                 enforcement: str | None = None) -> None:
        from hookwire._policy import check_enforcement, check_mode, normal
        self.trusted_folders = tuple(normal(f) for f in trusted_folders)
        self.project_hooks, self.enforcement = check_mode(project_hooks), enforcement and (
            check_enforcement(enforcement))
        self.registry = Registry(load_entry_points=load_entry_points)
        self.index = Index(self.registry.dialect, self.registry.activate)
        self._output_cap, self._shell_elision = output_cap, shell_elision
        #: Problems the config readers reported; every session logs them when it starts.
        self.config_problems: list[ConfigProblem] = []
        self.logged_problems: set[Any] = set()  #: logged by this kernel's sessions (once each)
        self.registry.register_all(plugins)  # a plugin given loads the dialects first
        self.registry.pm.check_pending()

    # -- what is installed ---------------------------------------------------------------------
    @property
    def pm(self) -> pluggy.PluginManager:
        """The pluggy plugin manager, every entry point loaded."""
        self.registry.ensure_loaded()
        return self.registry.pm

    @property
    def load_errors(self) -> list[PluginLoadError]:
        """Entry points that failed to load, each naming its distribution and version."""
        return self.registry.load_errors

    @property
    def loaded(self) -> list[_entrypoints.Loaded]:
        """Entry points that loaded."""
        return self.registry.loaded

    def register(self, plugin: object, name: str | None = None) -> None:
        """Register a native plugin (an object or module with ``@hookimpl`` methods)."""
        self.registry.register(plugin, name=name)

    def unregister(self, plugin: object) -> None:
        """Remove a native plugin."""
        self.registry.unregister(plugin)

    def add_dialect(self, dialect: Dialect) -> None:
        """Register a dialect in-process (tests, embedded hosts)."""
        self.registry.add_dialect(dialect)

    @property
    def dialects(self) -> Mapping[str, DialectInfo]:
        """Installed dialects by name."""
        return dict(self.registry.dialects)

    def dialect(self, name: str) -> Dialect:
        """The dialect called ``name``; :class:`UnknownDialectError` lists the installed ones."""
        return self.registry.dialect(name)

    @property
    def hosts(self) -> Mapping[str, HostProfile]:
        """Declared host profiles by name (the reference host's included)."""
        return self.registry.hosts()

    # -- what is configured --------------------------------------------------------------------
    def add_config(self, dialect: str, path: str | Path, *,
                   provenance: Provenance | None = None) -> ConfigResult:
        """Read one native config file (or its JSON text, as ``--settings`` takes it) with
        ``dialect`` and add its hooks after the others. ``provenance``: a project's own config
        file (``<project>/.claude/settings.json``) is that repository's (``PROJECT``: it waits
        for folder trust or approval), any other ``USER``. Its problems are logged when a
        session starts."""
        result = self.index.read_config(dialect, path, provenance)
        self.config_problems.extend(result.problems)
        return result

    def discover(self, project_dir: str | Path = ".", *, dialects: Iterable[str] | None = None,
                 home: str | Path | None = None) -> list[tuple[str, ConfigResult]]:
        """Load hookwire's own hooks files, then every hook the harnesses themselves would load
        for a session in ``project_dir`` (each installed dialect's, or those named in
        ``dialects``): :func:`hookwire.discovery.discover`. Returns each result, problems
        included."""
        from hookwire.discovery import discover

        return discover(self, project_dir, dialects=dialects, home=home)

    def add_hooks(self, entries: Iterable[HookEntry]) -> None:
        """Add configured hooks after those already present."""
        self.index.add(entries)

    @property
    def hooks(self) -> Sequence[HookEntry]:
        """Every configured hook, in configuration order."""
        return self.index.hooks

    def map_tool(self, runtime: str, harness: str,
                 input: Mapping[str, str] | None = None) -> None:
        """Say once that runtime tool ``runtime`` is harness tool ``harness`` (``"Bash"``),
        ``input`` mapping harness fields to runtime arguments (``{"command": "cmd"}``); see
        :mod:`hookwire.tools`. A tool or field no dialect knows is a ``ConfigError``."""
        from hookwire.tools import ToolMapping

        self.tools.map(ToolMapping(runtime=runtime, harness=harness, input=dict(input or {})),
                       self.registry.vocabularies())

    def map_tools(self, tools: Mapping[str, Any]) -> None:
        """Several :meth:`map_tool` calls in the hooks file's ``tools:`` shape:
        ``{"run_shell": {"as": "Bash", "input": {"command": "cmd"}}}``."""
        from hookwire.tools import parse_mappings

        for mapping in parse_mappings(tools):
            self.tools.map(mapping, self.registry.vocabularies())

    # -- running: built together on first use by the fallback below, then plain attributes ---
    #: the tool map (:meth:`map_tool`), the dispatch loop, "can anything match this tool?".
    tools: ToolMap
    dispatcher: Dispatcher
    match_check: MatchCheck
    #: ``await kernel.dispatch(event, session)``: every contributor of ``event``'s seam folded
    #: into its verdict (hosts call :meth:`Session.dispatch`); the dispatcher's bound method.
    dispatch: Callable[[SeamEvent, Session], Awaitable[Verdict]]

    if not TYPE_CHECKING:  # mypy sees the four attributes above, and no others

        def __getattr__(self, name: str) -> Any:
            if name not in ("tools", "dispatcher", "match_check", "dispatch"):
                raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
            from hookwire._build import dispatcher_of

            vars(self).update(dispatcher_of(self, self._output_cap, self._shell_elision))
            return vars(self)[name]

    @property
    def output_cap(self) -> int:
        """The byte cap on each hook's stdout and stderr."""
        return self.dispatcher.output_cap

    @property
    def trust_gate(self) -> Callable[[HookEntry, Seam], TrustDecision] | None:
        """Asked before each hook runs (:attr:`Dispatcher.trust_gate`; a TrustGate)."""
        return self.dispatcher.trust_gate

    @trust_gate.setter
    def trust_gate(self, gate: Callable[[HookEntry, Seam], TrustDecision] | None) -> None:
        self.dispatcher.trust_gate = gate

    def session(self, info: SessionInfo | None = None, **kwargs: Any) -> Session:
        """A new :class:`~hookwire.Session`; pass a :class:`SessionInfo` or its fields
        (``session_id``, ``cwd``, ``project_dir``, ``transcript_path``, ``permission_mode``,
        ``model``) plus session options (``max_stop_blocks``, ``host``, ``tools``, ``on_wake``
        (:mod:`.wake`), ``shell_elision``: this session's own choice, see :class:`Kernel`)."""
        from hookwire.session import Session

        elision = kwargs.pop("shell_elision", None)
        return self.dispatcher.set_shell_elision(Session(self, info, **kwargs), elision)

    def sync_session(self, **kwargs: Any) -> SyncSession:
        """A blocking :class:`~hookwire.sync.SyncSession` for synchronous runtimes."""
        from hookwire.sync import SyncSession
        return SyncSession(self, **kwargs)
