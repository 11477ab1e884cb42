"""Codex's own per-hook trust: positional keys, identity hashes and ``[hooks.state]`` records.

* **key** ``"<key source>:<event label>:<group index>:<handler index>"``; the key source is
  the absolute path of the ``hooks.json``/``config.toml`` (plugins: ``<plugin id>:<relative
  path>``). Moving a hook changes its key.
* **hash** ``"sha256:" + hex(sha256(canonical JSON))`` of the normalised identity
  ``{"event_name", "matcher"?, "hooks": [<normalised handler>]}``: keys sorted at every level,
  compact separators, UTF-8 (not ASCII-escaped). The handler is
  ``{"type": "command", "command", "timeout", "async"}`` plus ``statusMessage`` when set and
  ``additionalContextLimit`` when set and not 2500. The command text is the one before
  ``${PLUGIN_ROOT}`` substitution.
* **records** ``[hooks.state."<key>"]`` with ``trusted_hash`` and/or ``enabled = false`` in the
  user's ``$CODEX_HOME/config.toml`` (only the user layer can trust; project, managed and plugin
  layers cannot pre-trust themselves).

Status: ``managed`` (managed layers), ``trusted`` (recorded hash equal), ``modified`` (recorded,
different), ``untrusted`` (none). Codex skips non-managed hooks that are not ``trusted``, and
every hook with ``enabled = false``.
"""

from __future__ import annotations

import enum
import hashlib
import json
import os
import shlex
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import attrs

from hookwire.dialects.codex.events import CONTEXT_LIMIT, LABELS
from hookwire.errors import WireError
from hookwire.wire import read_text, read_toml


class TrustStatus(enum.StrEnum):
    MANAGED = "managed"
    TRUSTED = "trusted"
    MODIFIED = "modified"
    UNTRUSTED = "untrusted"

    def __str__(self) -> str:
        return self.value


@attrs.frozen(kw_only=True)
class HookState:
    """One ``[hooks.state."<key>"]`` record."""

    trusted_hash: str | None = None
    enabled: bool | None = None


def hook_key(key_source: str, event: str, group_index: int, handler_index: int) -> str:
    return f"{key_source}:{LABELS[event]}:{group_index}:{handler_index}"


def identity(event: str, matcher: str | None, handler: Mapping[str, Any]) -> dict[str, Any]:
    """The normalised identity of one command handler (``handler`` as normalised at load:
    ``command``, ``timeout``, ``async``, optional ``statusMessage`` and
    ``additionalContextLimit``; an ``mcp_tool`` handler is taken as given)."""
    norm: dict[str, Any]
    if handler.get("type") == "mcp_tool":
        norm = {k: v for k, v in handler.items() if v is not None}
        mcp: dict[str, Any] = {"event_name": LABELS[event], "hooks": [norm]}
        return mcp if matcher is None else {**mcp, "matcher": matcher}
    norm = {
        "type": "command",
        "command": handler["command"],
        "timeout": handler["timeout"],
        "async": handler["async"],
    }
    if handler.get("statusMessage") is not None:
        norm["statusMessage"] = handler["statusMessage"]
    limit = handler.get("additionalContextLimit")
    if limit is not None and limit != CONTEXT_LIMIT:
        norm["additionalContextLimit"] = limit
    ident: dict[str, Any] = {"event_name": LABELS[event], "hooks": [norm]}
    if matcher is not None:
        ident["matcher"] = matcher
    return ident


def canonical_json(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def hook_hash(event: str, matcher: str | None, handler: Mapping[str, Any]) -> str:
    text = canonical_json(identity(event, matcher, handler))
    return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()


def status(*, managed: bool, current_hash: str, state: HookState | None) -> TrustStatus:
    if managed:
        return TrustStatus.MANAGED
    recorded = state.trusted_hash if state else None
    if recorded is None:
        return TrustStatus.UNTRUSTED
    return TrustStatus.TRUSTED if recorded == current_hash else TrustStatus.MODIFIED


def enabled(*, managed: bool, state: HookState | None) -> bool:
    return managed or state is None or state.enabled is not False


def codex_home(env: Mapping[str, str] | None = None) -> Path:
    """``$CODEX_HOME``, else ``~/.codex``."""
    env = os.environ if env is None else env
    home = env.get("CODEX_HOME")
    return Path(home) if home else Path.home() / ".codex"


def load_states(config_toml: Path) -> dict[str, HookState]:
    """The ``[hooks.state]`` records of a user ``config.toml`` (empty when absent or broken)."""
    try:
        data = read_toml(read_text(config_toml), file=str(config_toml)).value
    except WireError:
        return {}
    return states_from(data)


def states_from(config: Mapping[str, Any]) -> dict[str, HookState]:
    hooks = config.get("hooks")
    table = hooks.get("state") if isinstance(hooks, Mapping) else None
    if not isinstance(table, Mapping):
        return {}
    out: dict[str, HookState] = {}
    for key, value in table.items():
        if not isinstance(value, Mapping):
            continue
        th = value.get("trusted_hash")
        en = value.get("enabled")
        out[str(key)] = HookState(trusted_hash=th if isinstance(th, str) else None,
                                  enabled=en if isinstance(en, bool) else None)
    return out


def trust_snippet(key: str, current_hash: str) -> str:
    """The ``config.toml`` lines that make Codex (and hookwire) trust one hook."""
    return f"[hooks.state.{json.dumps(key)}]\ntrusted_hash = {json.dumps(current_hash)}\n"


def trust_command(key: str, current_hash: str, home: Path | None = None) -> str:
    """A shell command that records the trust of one hook in the user's Codex config."""
    target = (home or codex_home()) / "config.toml"
    return (f"printf '%s' {shlex.quote(chr(10) + trust_snippet(key, current_hash))} "
            f">> {shlex.quote(str(target))}")


def session_flag(key: str, current_hash: str) -> str:
    """The per-run ``codex -c`` override that trusts one hook (dotted keys do not work)."""
    table = f"{{{json.dumps(key)}={{trusted_hash={json.dumps(current_hash)}}}}}"
    return shlex.quote(f"hooks.state={table}")
