"""What a Gemini CLI hook entry carries besides its command, matcher and timeout.

:class:`GeminiHandler` is ``HookEntry.handler`` for this dialect: the hook's ``name`` and
``description``, its group's ``sequential`` flag, the ``env`` an extension's settings give its
hooks, the settings ``layer`` it came from, and whether Gemini CLI's own switches
(``hooksConfig.enabled``, ``hooksConfig.disabled``) turned it off. hookwire's own hooks file
gives it as ``options`` (:func:`from_options`).
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any

import attrs

from hookwire.dialect import Export, HookEntry


@attrs.frozen(kw_only=True)
class GeminiHandler:
    """``name``/``description`` as written; ``sequential``: the hook's definition asks for
    one-after-another execution; ``env``: variables added to the hook's environment (an
    extension's settings); ``layer``: ``system-defaults``, ``user``, ``project``, ``system``
    or ``extension:<name>`` (``None``: a file named on its own); ``disabled``: why Gemini CLI
    would not run it (``None``: it runs)."""

    name: str | None = None
    description: str | None = None
    sequential: bool = False
    env: dict[str, str] = attrs.field(factory=dict)
    layer: str | None = None
    disabled: str | None = None

    @property
    def key(self) -> str:
        """What ``hooksConfig.disabled`` names a hook by: its name, else its command."""
        return self.name or ""


DEFAULT_HANDLER = GeminiHandler()


@attrs.frozen(kw_only=True)
class _Options:
    name: str | None = None
    description: str | None = None
    sequential: bool = False
    env: dict[str, str] = attrs.field(factory=dict)


@functools.cache
def _converter() -> Any:
    from hookwire.dialects import _options

    return _options.make_converter(_Options)


def from_options(options: Mapping[str, Any]) -> GeminiHandler:
    """The handler an entry of hookwire's own file describes (``name``, ``description``,
    ``sequential``, ``env``); :class:`~hookwire.errors.ConfigError` names any other key."""
    from hookwire.dialects import _options

    opts = _options.structure(_converter(), options, _Options, "gemini")
    return GeminiHandler(name=opts.name, description=opts.description,
                         sequential=opts.sequential, env=dict(opts.env))


def handler_of(entry: HookEntry) -> GeminiHandler:
    """The entry's handler (the defaults when it has none)."""
    found = entry.handler
    return found if isinstance(found, GeminiHandler) else DEFAULT_HANDLER


def hook_name(entry: HookEntry) -> str:
    """The name Gemini CLI shows and disables a hook by: ``name``, else the command."""
    return handler_of(entry).name or entry.display


def export(entry: HookEntry) -> Export:
    """What hookwire's file keeps of a hook read from a Gemini CLI file."""
    h = handler_of(entry)
    kept: dict[str, Any] = {}
    if h.name is not None:
        kept["name"] = h.name
    if h.description is not None:
        kept["description"] = h.description
    if h.sequential:
        kept["sequential"] = True
    if h.env:
        kept["env"] = dict(h.env)
    if h.disabled is not None:
        return Export(rejected=f"Gemini CLI does not run it: {h.disabled}")
    return Export(options=kept)
