"""What a Codex hook entry carries besides its command, matcher, timeout and ``async``.

:class:`CodexHandler` is ``HookEntry.handler`` for this dialect. The reader fills it with the
hook's place in its file (Codex's trust ``key``), the ``hash`` of what it runs, Codex's trust
``status`` for it and what it was written with; hookwire's own hooks file gives it as
``options`` (:func:`from_options`), where only ``status_message``, ``context_limit`` and
``env`` mean something (Codex's trust bookkeeping copied by an older import is ignored).
"""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping
from typing import Any

import attrs

from hookwire.dialect import Export, HookEntry
from hookwire.dialects.codex.events import CONTEXT_LIMIT
from hookwire.dialects.codex.trust import TrustStatus
from hookwire.errors import ConfigError


@attrs.frozen(kw_only=True)
class CodexHandler:
    """``layer``: Codex's source of the file (``user``, ``project``, ``system``, ``plugin``).
    ``key``/``hash``/``trust``/``enabled``: Codex's ``[hooks.state]`` record of the hook
    (``key`` is ``None`` for a hook not read from a Codex file). ``raw_command``: the command
    as written, before plugin placeholders were replaced; ``timeout_set``: the file gave a
    timeout; ``async_written``: the file said ``async: true`` (a SessionEnd hook runs
    synchronously all the same). ``context_limit``: ``additionalContextLimit`` (``None``:
    Codex's default).
    ``env``: the plugin variables the hook gets. ``group_index``/``handler_index``: its
    position in the file; ``display_order``: Codex's number for it across the session's files
    (``None``: not read from a Codex file). ``type``: ``command``, or ``mcp_tool``, which calls
    ``tool`` on the host's MCP ``server`` with ``input`` (its strings may hold ``${path}``
    placeholders of the hook input)."""

    layer: str | None = None
    managed: bool = False
    key: str | None = None
    hash: str | None = None
    trust: TrustStatus = TrustStatus.UNTRUSTED
    enabled: bool = True
    raw_command: str | None = None
    timeout_set: bool = True
    async_written: bool = False
    status_message: str | None = None
    context_limit: int | None = None
    env: dict[str, str] = attrs.field(factory=dict)
    plugin_id: str | None = None
    group_index: int | None = None
    handler_index: int | None = None
    display_order: int | None = None
    type: str = "command"
    server: str | None = None
    tool: str | None = None
    input: dict[str, Any] = attrs.field(factory=dict)

    def describe(self) -> str:
        """An mcp_tool hook as its entry shows it: ``server:tool`` and its input."""
        args = f" {json.dumps(self.input, sort_keys=True, ensure_ascii=False)}" \
            if self.input else ""
        return f"{self.server}:{self.tool}{args}"

    @property
    def effective_context_limit(self) -> int:
        return CONTEXT_LIMIT if self.context_limit is None else self.context_limit


DEFAULT_HANDLER = CodexHandler()
#: Keys an older ``hookwire import`` wrote that say nothing ``context_limit`` does not.
_LEGACY_KEYS = frozenset({"context_limit_set"})


@functools.cache
def _converter() -> Any:
    from hookwire.dialects import _options

    return _options.make_converter(CodexHandler)


def from_options(options: Mapping[str, Any]) -> CodexHandler:
    """The handler an entry of hookwire's own file describes. Raises
    :class:`~hookwire.errors.ConfigError` naming an unknown key, and for ``onFailure:
    block`` (Codex has no per-hook failure policy)."""
    from hookwire.dialects import _options

    data = {k: v for k, v in options.items() if k not in _LEGACY_KEYS}
    failure = data.pop("onFailure", None)
    if failure not in (None, "continue"):
        raise ConfigError(f"codex hooks take no onFailure (got {json.dumps(failure)}): "
                          "Codex has no per-hook failure policy")
    return _options.structure(_converter(), data, CodexHandler, "codex")  # type: ignore


def handler_of(entry: HookEntry) -> CodexHandler:
    """The entry's handler (its defaults when it has none)."""
    found = entry.handler
    return found if isinstance(found, CodexHandler) else DEFAULT_HANDLER


def export(entry: HookEntry) -> Export:
    """What hookwire's file keeps of a hook read from a Codex file: its status message, a
    context limit the file set, and the plugin variables. Codex's trust bookkeeping stays in
    Codex's files (an ``untrusted`` state copied over would block the hook for good; once
    imported, hookwire's trust gate decides). A hook Codex disabled is not imported."""
    h = handler_of(entry)
    if h.type == "mcp_tool":
        return Export(rejected="an mcp_tool hook stays in Codex's file (hookwire's own file "
                               "has no form for it): not imported")
    if not h.enabled:
        return Export(rejected=f"disabled in Codex's [hooks.state.{json.dumps(h.key)}]"
                               " (enabled = false): not imported")
    kept: dict[str, Any] = {}
    if h.status_message is not None:
        kept["status_message"] = h.status_message
    if h.context_limit is not None:
        kept["context_limit"] = h.context_limit
    if h.env:
        kept["env"] = dict(h.env)
    return Export(options=kept)

