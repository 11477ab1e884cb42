"""Every error hookwire raises on purpose.

Each class derives from :class:`HookwireError` and from the builtin it most resembles, so a
caller may catch either. Structured attributes travel with the error; the message is written
for a person.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any


def did_you_mean(name: str, known: Iterable[str]) -> str:
    """`` (did you mean 'X'?)`` for the closest of ``known`` to a misspelt ``name``, else
    ``""``. Case is ignored when comparing (``pretooluse`` finds ``PreToolUse``)."""
    import difflib  # only when a name is misspelt: every Kernel() imports this module

    by_lower = {k.lower(): k for k in known}
    near = difflib.get_close_matches(name.lower(), list(by_lower), n=1, cutoff=0.6)
    return f" (did you mean {by_lower[near[0]]!r}?)" if near else ""


class HookwireError(Exception):
    """Base of every error hookwire raises deliberately."""


class ConfigError(HookwireError, ValueError):
    """A hooks configuration could not be read.

    ``file``, ``line``, ``event`` and ``entry`` locate the problem as precisely as the source
    allows (``line`` is 1-based; any of them may be ``None`` when unknown).
    """

    def __init__(
        self,
        message: str,
        *,
        file: str | None = None,
        line: int | None = None,
        event: str | None = None,
        entry: str | None = None,
    ) -> None:
        self.message = message
        self.file = file
        self.line = line
        self.event = event
        self.entry = entry
        super().__init__(self.render())

    def render(self) -> str:
        where = ""
        if self.file:
            where = self.file + (f":{self.line}" if self.line else "")
        bits = [b for b in (self.event and f"event {self.event}", self.entry) if b]
        loc = (" (" + ", ".join(bits) + ")") if bits else ""
        return f"{where}{': ' if where else ''}{self.message}{loc}"


class WireError(ConfigError):
    """A JSON, TOML or YAML text could not be read (:mod:`hookwire.wire`): malformed, nested
    too deeply, too large or not UTF-8. ``column`` (1-based) and ``pointer`` (``$.hooks``)
    add to :class:`ConfigError`'s location when known."""

    def __init__(self, message: str, *, file: str | None = None, line: int | None = None,
                 column: int | None = None, pointer: str | None = None) -> None:
        self.column = column
        self.pointer = pointer
        super().__init__(message, file=file, line=line)


class UnknownDialectError(HookwireError, LookupError):
    """No installed dialect has the requested name (``name``; ``known`` lists what is installed).

    ``disabled`` is true when the dialect is installed but its entry point was disabled by
    ``HOOKWIRE_DISABLE_PLUGINS``."""

    def __init__(self, name: str, known: list[str], *, disabled: bool = False) -> None:
        self.name = name
        self.known = known
        self.disabled = disabled
        listing = ", ".join(sorted(known)) or "none installed"
        if disabled:
            message = (f"dialect {name!r} is disabled by HOOKWIRE_DISABLE_PLUGINS "
                       f"(enabled: {listing})")
        else:
            message = f"unknown dialect {name!r}{did_you_mean(name, known)} (installed: {listing})"
        super().__init__(message)


class UnknownEventError(HookwireError, LookupError):
    """A dialect does not know the event name it was given."""

    def __init__(self, dialect: str, event: str, known: list[str]) -> None:
        self.dialect = dialect
        self.event = event
        self.known = known
        super().__init__(
            f"dialect {dialect!r} has no event {event!r}{did_you_mean(event, known)} "
            f"(known: {', '.join(known)})"
        )


class EventDataError(HookwireError, ValueError):
    """Event data given to a dialect (``fire --data``) is malformed; ``path`` points at the
    field."""

    def __init__(self, message: str, *, path: str = "$") -> None:
        self.path = path
        super().__init__(f"{message} @ {path}")


class PluginLoadError(HookwireError, ImportError):
    """An entry point could not be loaded; names the distribution and its version."""

    def __init__(self, group: str, name: str, dist: str | None, version: str | None,
                 cause: BaseException) -> None:
        self.group = group
        self.entry_point = name
        self.dist = dist
        self.version = version
        self.cause = cause
        origin = f"{dist} {version}" if dist else "unknown distribution"
        super().__init__(f"cannot load {group} entry point {name!r} from {origin}: {cause!r}")


class PluginError(HookwireError, RuntimeError):
    """A native plugin raised inside a seam. Carries ``plugin``, ``seam`` and the ``cause``."""

    def __init__(self, plugin: str, seam: str, cause: BaseException) -> None:
        self.plugin = plugin
        self.seam = seam
        self.cause = cause
        super().__init__(f"plugin {plugin!r} failed in {seam}: {cause!r}")


class SessionHalted(HookwireError, RuntimeError):
    """A seam was called on a session a hook already halted (``continue: false``)."""

    def __init__(self, reason: str | None, detail: Any = None) -> None:
        self.reason = reason
        self.detail = detail
        super().__init__(f"session halted by a hook: {reason or '(no reason given)'}")


class HostPartMissing(HookwireError, LookupError):
    """A hook needs a part the host did not lend hookwire (a model, an MCP session, a
    connected server; :mod:`hookwire.hostparts`): it does not run."""
