"""What a Claude Code hook entry carries besides its command, matcher, timeout and ``async``.

:class:`ClaudeHandler` is ``HookEntry.handler`` for this dialect. The reader fills it from the
typed handler it parsed (:class:`~.config.CommandHandler`, :class:`~.config.HttpHandler`, or
for the handlers that run in process :class:`~._inconfig.PromptHandler` and
:class:`~._inconfig.McpToolHandler`)
and the settings level of the file; hookwire's own hooks file gives it as ``options``
(:func:`from_options`). Field names are Claude Code's own spellings (``if`` is ``if_``).
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any, Literal

import attrs

from hookwire.dialect import Export, HookEntry

Scope = Literal["user", "project", "local", "cli", "managed", "plugin"]


@attrs.frozen(kw_only=True)
class ClaudeHandler:
    """``type``: ``command`` (the entry's command runs), ``http`` (the payload is POSTed to
    the entry's command, a URL, with ``headers`` interpolating only ``allowedEnvVars``),
    ``prompt`` or ``agent`` (the entry's command is the prompt a model judges, on the host's
    ``model`` of that name if it lends one; ``continueOnBlock``) or ``mcp_tool`` (``tool`` on
    the host's MCP ``server``, called with ``input``).
    ``scope``: the settings level it was read from (``disableAllHooks`` precedence; plugin
    timeouts do not raise the SessionEnd budget). ``plugin``: ``CLAUDE_PLUGIN_ROOT``,
    ``CLAUDE_PLUGIN_DATA`` and ``CLAUDE_PLUGIN_NAME`` of the plugin it belongs to.
    ``shell``: ``powershell`` runs the command text with ``pwsh`` (:mod:`._powershell`).
    ``asyncRewake`` (with ``rewakeMessage``, ``rewakeSummary``): a background hook whose exit
    2 wakes the agent (:mod:`._rewake`)."""

    type: Literal["command", "http", "prompt", "agent", "mcp_tool"] = "command"
    scope: Scope = "cli"
    onFailure: Literal["continue", "block"] = "continue"
    if_: str | None = None
    statusMessage: str | None = None
    asyncRewake: bool = False
    rewakeMessage: str | None = None
    rewakeSummary: str | None = None
    shell: Literal["bash", "powershell"] = "bash"
    plugin: dict[str, str] = attrs.field(factory=dict)
    headers: dict[str, str] = attrs.field(factory=dict)
    allowedEnvVars: tuple[str, ...] = ()
    model: str | None = None
    continueOnBlock: bool = False
    server: str | None = None
    tool: str | None = None
    input: dict[str, Any] = attrs.field(factory=dict)

    @property
    def in_process(self) -> bool:
        """Runs on what the host lends (a model, an MCP session), not as a process."""
        return self.type in ("prompt", "agent", "mcp_tool")


DEFAULT_HANDLER = ClaudeHandler()
_RENAMES = {"if_": "if"}


@functools.cache
def _converter() -> Any:
    from hookwire.dialects import _options

    return _options.make_converter(ClaudeHandler, _RENAMES)


def from_options(options: Mapping[str, Any]) -> ClaudeHandler:
    """The handler an entry of hookwire's own file describes (``options`` plus
    ``onFailure``). Raises :class:`~hookwire.errors.ConfigError` naming an unknown key."""
    from hookwire.dialects import _options

    return _options.structure(_converter(), options, ClaudeHandler, "claude",  # type: ignore
                               _RENAMES)


def handler_of(entry: HookEntry) -> ClaudeHandler:
    """The entry's handler (its defaults when it has none)."""
    found = entry.handler
    return found if isinstance(found, ClaudeHandler) else DEFAULT_HANDLER


def _fields(h: ClaudeHandler) -> dict[str, Any]:
    """The fields that say what the hook does, by their wire names (not where it came from)."""
    out: dict[str, Any] = {}
    if h.type == "http":
        out.update(type="http", headers=dict(h.headers), allowedEnvVars=list(h.allowedEnvVars))
    elif h.type in ("prompt", "agent"):
        out["type"] = h.type
        out.update({k: v for k, v in (("model", h.model), ("continueOnBlock", h.continueOnBlock))
                    if v})
    elif h.type == "mcp_tool":
        out.update(type="mcp_tool", server=h.server, tool=h.tool, input=dict(h.input))
    if h.if_ is not None:
        out["if"] = h.if_
    if h.statusMessage is not None:
        out["statusMessage"] = h.statusMessage
    if h.asyncRewake:
        out["asyncRewake"] = True
        out.update({k: v for k, v in (("rewakeMessage", h.rewakeMessage),
                                      ("rewakeSummary", h.rewakeSummary)) if v is not None})
    if h.plugin:
        out["plugin"] = dict(h.plugin)
    return out


def export(entry: HookEntry) -> Export:
    """The options hookwire's file keeps of an entry read from a Claude Code file: what the
    hook does, ``scope: plugin`` (its timeouts keep out of the SessionEnd budget) and an
    ``onFailure`` other than the default; the other settings levels mean nothing there."""
    h = handler_of(entry)
    if h.shell == "powershell":
        return Export(rejected="`shell: powershell`: PowerShell text is not a word list "
                      "hookwire's own file can hold; list the settings file as a source to "
                      "read live instead")
    if h.in_process:
        return Export(rejected=f"unsupported handler type {h.type!r} in hookwire's own file "
                      "(its entries run commands): list the settings file as a source to read "
                      "live instead, and the hook runs on the host's model or MCP sessions")
    kept = _fields(h)
    if h.scope == "plugin":
        kept["scope"] = "plugin"
    if h.onFailure != "continue":
        kept["onFailure"] = h.onFailure
    return Export(options=kept)

