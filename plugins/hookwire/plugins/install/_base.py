"""What every client installer shares: targets, the shim command, ownership markers, and the
JSON-settings merge used by the clients whose hooks live in a JSON file.

Ownership: every command hookwire writes runs the fast entry (``hookwire-entry``, see
``entry.py``) or the shim (``hookwire.plugins.install.shim``, or ``hookwire portable-hook``)
with ``--plugin <absolute plugin root>``; an entry is ours exactly when its command parses to
that. Install upserts in place (positions are kept, so a second install changes nothing and
Codex's positional trust survives); uninstall removes exactly our entries and the containers
we created, and restores the original bytes when nobody touched the file since.
"""

from __future__ import annotations

import itertools
import json
import os
import shlex
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, ClassVar

import attrs

from hookwire import events as ev
from hookwire.dialect import Dialect, HookEntry
from hookwire.dialects.portable.config import PluginHooks
from hookwire.dialects.portable.payload import CLIENT_KEY
from hookwire.events import SeamEvent
from hookwire.plugins.install import _jsonfile
from hookwire.plugins.install.capability import Capabilities
from hookwire.plugins.install.errors import InstallError
from hookwire.plugins.install.names import DEFAULT_PREFIX, SHIM_MODULE
from hookwire.verdicts import Context

ENTRY_MARK = "hookwire-entry"  # the fast entry's marker token (entry.MARK)


@attrs.frozen(kw_only=True)
class Target:
    """A file an install writes: ``kind`` is ``json`` (merged settings), ``file`` (a file
    hookwire owns) or ``text`` (a line-level edit)."""

    path: Path
    kind: str = "json"
    role: str = "hooks"


@attrs.frozen(kw_only=True)
class Built:
    """The new content of a target and what the install created in it."""

    after: bytes | None
    created_keys: tuple[str, ...] = ()
    natives: tuple[str, ...] = ()
    mode: int | None = None
    skipped: tuple[str, ...] = ()  # natives left alone (e.g. the user's own Cline hook file)
    warnings: tuple[str, ...] = ()


@attrs.frozen(kw_only=True)
class InstallContext:
    """What a client needs to build its entries."""

    plugin: PluginHooks
    prefix: tuple[str, ...] = DEFAULT_PREFIX
    #: The compiled plan of the fast entry (``entry.py``); ``None``: entries run the shim
    #: through ``prefix`` (a ``--command`` given, or a client without a fast entry).
    plan: Path | None = None
    #: The project of a ``--scope project`` install (``None`` at user scope).
    project: Path | None = None

    @property
    def root(self) -> str:
        return str(self.plugin.root)

    def command(self, client: str, native: str, roots: Sequence[str] | None = None,
                answer: str = "") -> str:
        """The shell text a client runs for ``native``; ``answer`` is the client's empty answer,
        printed (exit 0) when the entry cannot run at all (see :func:`fail_open`)."""
        if self.plan is not None and roots is None:
            from hookwire.plugins.install import entry

            return entry.command(self.plan, client, native, self.root, answer)
        argv = [*self.prefix, "--client", client, "--event", native]
        for root in roots or (self.root,):
            argv += ["--plugin", root]
        return shlex.join(argv) + fail_open(answer)

    def timeout(self, event: str, *, cap: float | None = None, slack: float = 5.0) -> float:
        """Seconds the client should allow: the handlers run one after another."""
        from hookwire.dialects.portable.events import DEFAULT_TIMEOUT, EVENT_TIMEOUTS

        default = EVENT_TIMEOUTS.get(event, DEFAULT_TIMEOUT)
        total = sum(h.timeout or default for h in self.plugin.handlers if h.event == event)
        total += slack
        return min(total, cap) if cap is not None else total


def state_dir(plugin: str) -> Path:
    """Where entries keep markers for ``plugin`` (synthesised session starts): inside its
    ``PLUGIN_DATA`` (not created here)."""
    xdg = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local",
                                                          "share")
    return Path(xdg) / "hookwire" / "plugin-data" / plugin / ".hookwire"


#: Session markers older than this are removed when a new one is made (they cannot pile up).
MARKER_TTL = 7 * 24 * 3600


def first_in_session(state: Path, client: str, session_id: str) -> bool:
    """Whether this is the first time ``session_id`` is seen (a marker in ``state``): for the
    clients where session-start is synthesised. Stale markers are swept on each new one;
    uninstall removes the folder."""
    import hashlib
    import time

    folder = state / f"{client}-sessions"
    marker = folder / hashlib.sha256(session_id.encode()).hexdigest()[:32]
    if marker.exists():
        return False
    folder.mkdir(parents=True, exist_ok=True)
    try:
        marker.touch(exist_ok=False)
    except FileExistsError:
        return False  # a concurrent entry of the same session made it first
    cutoff = time.time() - MARKER_TTL
    for old in folder.iterdir():
        try:
            if old.stat().st_mtime < cutoff:
                old.unlink()
        except OSError:
            pass
    return True


def fail_open(answer: str = "") -> str:
    """The shell suffix that makes an entry fail open by construction: a missing interpreter
    (127), a removed hookwire (1) or a crash becomes exit 0 with the client's empty answer
    (``answer``, e.g. ``{}`` for Cursor, where invalid JSON from a permission hook blocks)."""
    if not answer:
        return " || true"
    return " || printf '%s\\n' " + shlex.quote(answer)


def env_dir(var: str, home: Path, default: Path) -> Path:
    """A client's own ``$VAR`` home (``$CODEX_HOME``, ``$COPILOT_HOME``, ``$CLAUDE_CONFIG_DIR``)
    when set and ``home`` is the real home; ``default`` otherwise (a ``--home`` given)."""
    value = os.environ.get(var)
    if value and Path(home) == Path.home():
        return Path(value)
    return default


def owns(command: Any, root: str) -> bool:
    """Whether a client entry's command is the shim for the plugin at ``root``."""
    if not isinstance(command, str):
        return False
    try:
        argv = shlex.split(command)
    except ValueError:
        return False
    if SHIM_MODULE not in argv and "portable-hook" not in argv and ENTRY_MARK not in argv:
        return False
    return any(a == "--plugin" and b == root for a, b in itertools.pairwise(argv))


def plugin_roots(command: Any) -> list[str]:
    try:
        argv = shlex.split(command) if isinstance(command, str) else []
    except ValueError:
        return []
    return [b for a, b in itertools.pairwise(argv) if a == "--plugin"]


@attrs.frozen(kw_only=True)
class Translation:
    """A native payload read by the shim: the seam ``event`` and the session's fields."""

    event: SeamEvent
    session_id: str
    cwd: str
    portable: str
    #: The project the session runs in (``$CLAUDE_PROJECT_DIR`` and the like): unlike ``cwd``,
    #: it does not follow the agent's ``cd``.
    project_dir: str = ""


class Client:
    """One agent client. Subclasses set the class attributes and implement the methods."""

    name: ClassVar[str] = ""
    display: ClassVar[str] = ""
    capabilities: ClassVar[Capabilities]

    def targets(self, scope: str, home: Path, project: Path | None,
                plugin: PluginHooks) -> list[Target]:
        raise NotImplementedError

    def build(self, target: Target, before: bytes | None, ctx: InstallContext) -> Built:
        raise NotImplementedError

    def unbuild(self, target: Target, current: bytes, root: str,
                created_keys: Sequence[str], created_file: bool) -> bytes | None:
        """``current`` without our entries and the containers we created (``None``: delete
        the file, which hookwire created and which holds nothing else now)."""
        raise NotImplementedError

    def wanted(self, plugin: PluginHooks) -> dict[str, str]:
        """Native event → the portable event it serves, for the events the plugin uses."""
        out: dict[str, str] = {}
        for event in plugin.events:
            for native in self.capabilities.natives(event):
                out.setdefault(native, event)
        return out

    # -- the shim side -----------------------------------------------------------------------

    #: Payload field names, first present wins (after :meth:`normalise`).
    fields: ClassVar[Mapping[str, tuple[str, ...]]] = {}
    #: Native events that report a failed tool (post-tool-use with status ``failed``).
    failure_events: ClassVar[frozenset[str]] = frozenset()
    #: How the fast entry (``entry.py``, ``_entry/hookwire_payload.py``) reads and answers this
    #: client: ``{"reply": "additional_context" | "cursor" | "cline" | "text" | "empty",
    #: "tweak": ...}``, the ``tweak`` naming the payload shape that :meth:`normalise` and
    #: :meth:`translations` override (``workspace_roots``, ``response_error``, ``cline``,
    #: ``windsurf``, ``grok``). ``None``: its entries run the full shim.
    fast_entry: ClassVar[Mapping[str, Any] | None] = None
    #: Environment variables in which the client names the project directory, first set wins
    #: (the envelope's ``project_dir``; else the payload's workspace root, else ``cwd``).
    project_env: ClassVar[tuple[str, ...]] = ()
    #: Other clients that also run this client's hook files: under them this client's copy is
    #: skipped when the plugin is installed for them too (see :func:`running_under`).
    read_by: ClassVar[tuple[str, ...]] = ()

    def empty_answer(self, native: str) -> str:
        """What the client reads as "no opinion" on stdout ("": nothing)."""
        return ""

    def portable_of(self, native: str) -> str | None:
        for event, support in self.capabilities.events.items():
            if native in support.natives:
                return event
        return None

    def normalise(self, native: str, payload: Mapping[str, Any]) -> dict[str, Any]:
        """Flatten a client's payload into :data:`STANDARD` keys (override for odd shapes)."""
        names = {**STANDARD, **self.fields}
        return {key: first(payload, *names[key]) for key in STANDARD}

    def translate(self, native: str, payload: Mapping[str, Any]) -> Translation | None:
        """The seam event for a native payload (``None``: nothing to fire, e.g. filtered)."""
        portable = self.portable_of(native)
        if portable is None:
            return None
        f = self.normalise(native, payload)
        extra = {CLIENT_KEY: {"name": self.name, "version": _str(f["version"]),
                              "event": native}}
        common: dict[str, Any] = {"extra": extra, "prompt_id": _str(f["turn_id"])}
        event: SeamEvent
        if portable == "session-start":
            event = ev.SessionStart(source=_str(f["source"]) or "startup", **common)
        elif portable == "turn-start":
            event = ev.PromptSubmit(prompt=_str(f["prompt"]) or "", **common)
        elif portable == "turn-end":
            event = ev.Stop(last_assistant_message=_str(f["last_message"]), **common)
        elif portable == "session-end":
            event = ev.SessionEnd(reason=_str(f["reason"]) or "other", **common)
        else:
            tool_input = f["tool_input"]
            if isinstance(tool_input, str):
                try:
                    tool_input = json.loads(tool_input)
                except ValueError:
                    tool_input = {"value": tool_input}
            tool: dict[str, Any] = {"tool_name": _str(f["tool_name"]) or "unknown",
                    "tool_input": tool_input if isinstance(tool_input, Mapping) else {},
                    "tool_use_id": _str(f["tool_use_id"]) or ""}
            failed = native in self.failure_events or f["success"] is False or bool(
                f["error"])
            if portable == "pre-tool-use":
                event = ev.ToolPre(**tool, **common)
            elif failed:
                event = ev.ToolFailure(error=_str(f["error"]) or "failed", **tool, **common)
            else:
                event = ev.ToolPost(tool_response=f["tool_output"], **tool, **common)
        cwd = _str(f["cwd"]) or os.getcwd()
        return Translation(event=event, session_id=_str(f["session_id"]) or "unknown",
                           cwd=cwd, portable=portable,
                           project_dir=project_dir(self.project_env, f.get("project_dir"), cwd))

    def translations(self, native: str, payload: Mapping[str, Any], state: Path,
                     wants_start: bool) -> list[Translation]:
        """Every event one native payload fires, in order (``state`` is a directory the shim
        may keep markers in, for clients where session-start is synthesised)."""
        found = self.translate(native, payload)
        return [found] if found is not None else []

    def respond(self, native: str, contexts: Sequence[Context]) -> bytes:
        """What the shim prints for the client (the context channel, or an empty answer)."""
        return b""


def project_dir(names: Sequence[str], from_payload: Any, cwd: str,
                env: Mapping[str, str] | None = None) -> str:
    """The envelope's ``project_dir``: the client's project variable, else the payload's
    workspace root, else ``cwd`` (the fast entry computes the same)."""
    env = os.environ if env is None else env
    for name in names:
        if env.get(name):
            return env[name]
    return _str(from_payload) or cwd


#: How hookwire tells which client runs a hook file that several clients read: an environment
#: variable the client sets for its hooks, or a payload key only it sends.
HOST_SIGNS: Mapping[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "cursor": (("CURSOR_VERSION",), ("cursor_version",)),
    "grok": (("GROK_VERSION",), ("hookEventName", "workspaceRoot")),
    "copilot-cli": (("COPILOT_CLI_VERSION", "COPILOT_CLI"), ("toolArgs", "sessionId")),
}


def running_under(readers: Sequence[str], payload: Mapping[str, Any],
                  env: Mapping[str, str] | None = None) -> str | None:
    """Which of ``readers`` (clients that also read this client's files) runs this hook."""
    env = os.environ if env is None else env
    for name in readers:
        names, keys = HOST_SIGNS.get(name, ((), ()))
        if any(n in env for n in names) or any(k in payload for k in keys):
            return name
    return None


def additional_context(native: str, contexts: Sequence[Context],
                       events: frozenset[str]) -> bytes:
    """The reply of the clients that read context the way Claude Code does (Claude Code, Codex,
    Gemini CLI): ``hookSpecificOutput.additionalContext`` on the native ``events`` that take it,
    else an empty answer."""
    if not contexts or native not in events:
        return b""
    text = "\n\n".join(c.text for c in contexts)
    return json.dumps({"hookSpecificOutput": {"hookEventName": native,
                                              "additionalContext": text}}).encode() + b"\n"


def written_group(dialect: Dialect, entry: HookEntry) -> dict[str, Any]:
    """The one matcher group ``dialect`` writes for ``entry`` in its own config format (so an
    installer never spells a harness's format beside the dialect that reads it)."""
    group: dict[str, Any] = dialect.write_config([entry])["hooks"][entry.event][0]
    return group


def need_project(project: Path | None, client: str) -> Path:
    if project is None:
        raise InstallError(f"--scope project needs a project directory for {client}")
    return project


class JsonHooksClient(Client):
    """A client whose hooks are a JSON object of event → list, in one settings file.

    ``nested``: entries are Claude-style groups ``{matcher, hooks: [{type, command, ...}]}``;
    otherwise flat ``{command, ...}``. ``skeleton`` holds top-level keys a new file needs
    (Cursor's ``version``).
    """

    nested: ClassVar[bool] = True
    skeleton: ClassVar[Mapping[str, Any]] = {}

    def entry(self, native: str, event: str, ctx: InstallContext) -> dict[str, Any]:
        raise NotImplementedError

    def _is_ours(self, item: Any, root: str) -> bool:
        if not isinstance(item, dict):
            return False
        if self.nested:
            inner = item.get("hooks")
            return isinstance(inner, list) and bool(inner) and all(
                isinstance(h, dict) and owns(h.get("command"), root) for h in inner)
        return any(owns(item.get(k), root) for k in ("command", "bash"))

    def build(self, target: Target, before: bytes | None, ctx: InstallContext) -> Built:
        doc = _jsonfile.parse(before, str(target.path))
        created: list[str] = []
        if before is None or not before.strip():
            for key, value in self.skeleton.items():
                doc[key] = value
                created.append(f"/{key}")
        hooks = doc.get("hooks")
        if hooks is None:
            hooks = doc["hooks"] = {}
            created.append("/hooks")
        if not isinstance(hooks, dict):
            raise InstallError(f"{target.path}: 'hooks' is not an object; not touching it")
        wanted = self.wanted(ctx.plugin)
        for native in self._all_natives():
            items = hooks.get(native)
            if items is not None and not isinstance(items, list):
                raise InstallError(f"{target.path}: hooks.{native} is not a list")
            ours = [i for i, it in enumerate(items or []) if self._is_ours(it, ctx.root)]
            if native in wanted:
                want = self.entry(native, wanted[native], ctx)
                if items is None:
                    items = hooks[native] = []
                    created.append(f"/hooks/{native}")
                if ours:
                    items[ours[0]] = want
                    for i in reversed(ours[1:]):
                        del items[i]
                else:
                    items.append(want)
            elif items is not None:
                for i in reversed(ours):
                    del items[i]
        after = _jsonfile.dump(doc, before)
        if before is not None and _jsonfile.parse(before, "") == doc:
            after = before  # same content: never reformat a file we do not change
        return Built(after=after, created_keys=tuple(created), natives=tuple(wanted))

    def _all_natives(self) -> list[str]:
        seen: list[str] = []
        for support in self.capabilities.events.values():
            seen += [n for n in support.natives if n not in seen]
        return seen

    def unbuild(self, target: Target, current: bytes, root: str,
                created_keys: Sequence[str], created_file: bool) -> bytes | None:
        doc = _jsonfile.parse(current, str(target.path))
        hooks = doc.get("hooks")
        if isinstance(hooks, dict):
            pruned = False
            for native, items in list(hooks.items()):
                if isinstance(items, list):
                    kept = [it for it in items if not self._is_ours(it, root)]
                    emptied_by_us = not kept and len(kept) != len(items)
                    items[:] = kept
                    # an event list only hookwire filled (this plugin or another one since
                    # uninstalled) goes with its last entry
                    if not items and (emptied_by_us or f"/hooks/{native}" in created_keys):
                        del hooks[native]
                        pruned = True
            if not hooks and ("/hooks" in created_keys or pruned):
                del doc["hooks"]
        if "hooks" not in doc:
            for key in [k for k in created_keys if k.count("/") == 1 and k != "/hooks"]:
                name = key[1:]
                if name in doc and doc[name] == self.skeleton.get(name):
                    del doc[name]
        if not doc and created_file:
            return None
        return _jsonfile.dump(doc, current)


#: The keys :meth:`Client.normalise` produces, with the names most clients use.
STANDARD: Mapping[str, tuple[str, ...]] = {
    "session_id": ("session_id", "sessionId", "conversation_id"),
    "turn_id": ("turn_id", "prompt_id", "generation_id"),
    "cwd": ("cwd",),
    "version": ("version",),
    "source": ("source",),
    "prompt": ("prompt",),
    "tool_name": ("tool_name", "toolName"),
    "tool_input": ("tool_input", "toolArgs"),
    "tool_use_id": ("tool_use_id", "toolUseId"),
    "tool_output": ("tool_response", "tool_output", "toolResult"),
    "error": ("error",),
    "success": ("success",),
    "last_message": ("last_assistant_message",),
    "reason": ("reason",),
    "project_dir": (),
}


def _str(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def first(data: Mapping[str, Any], *keys: str) -> Any:
    for key in keys:
        value = data.get(key)
        if value is not None:
            return value
    return None
