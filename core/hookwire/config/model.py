"""hookwire's own hooks file, as data: sources to read live and argv-only hook entries.

The wire format (YAML, keys spelled as in the Claude Code / Codex family) is kept out of these
classes: :mod:`hookwire.config.loader` owns the converter and the line numbers.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from typing import Any, Literal

import attrs

#: The only ``version`` this hookwire understands.
VERSION = 1


class Scope(enum.StrEnum):
    """Which layer a hooks file is: the user's global file or a project's file."""

    GLOBAL = "global"
    PROJECT = "project"

    def __str__(self) -> str:
        return self.value


@attrs.frozen(kw_only=True)
class SourceSpec:
    """A foreign config read live with its dialect (``{dialect: claude, path: ...}``).

    A relative ``path`` is resolved against the file's base directory (the project root for the
    project file, the user's home for the global file); ``~`` is expanded. ``optional``: a
    missing file is not an error.
    """

    dialect: str
    path: str
    optional: bool = False


@attrs.frozen(kw_only=True)
class HookSpec:
    """One hook written in hookwire's own file.

    ``command`` is an argv (never shell text). ``on_failure`` (``onFailure`` in the file) is
    the per-hook failure policy the dialect applies; ``options`` are further dialect-specific
    fields passed through untouched; ``source`` records provenance (``imported:claude``,
    ``plugin:NAME``) and lowers the entry's trust tier to that provenance.
    """

    dialect: str
    event: str
    type: Literal["command"]
    command: tuple[str, ...]
    matcher: str | None = None
    timeout: float | None = None
    on_failure: Literal["continue", "block"] | None = None
    async_: bool = False
    options: Mapping[str, Any] = attrs.field(factory=dict)
    source: str | None = None


@attrs.frozen(kw_only=True)
class TrustSpec:
    """The ``trust:`` section. ``strict: true`` refuses gated hooks pinned by command text
    only, even when approved (as ``HOOKWIRE_TRUST_STRICT=1``). Layers only tighten: any file
    (or the environment) saying ``true`` makes trust strict; ``false`` weakens no other layer."""

    strict: bool | None = None


@attrs.frozen(kw_only=True)
class HooksFile:
    """The whole document. ``tools`` maps runtime tools onto harness tools, in the shape of
    :meth:`hookwire.Kernel.map_tools` (``{run_shell: {as: Bash, input: {command: cmd}}}``).
    ``shell_elision`` opts the hooks in to running plain word lists without ``/bin/sh -c``
    (the project file's choice over the global one; a host's ``Kernel``/session choice wins).
    ``trust`` holds the trust settings (:class:`TrustSpec`). ``enforcement`` is the run-wide
    mode (``enforce``, ``fail-closed``, ``shadow``; :attr:`Config.enforcement`)."""

    version: int = VERSION
    tools: Mapping[str, Any] = attrs.field(factory=dict)
    shell_elision: bool | None = None
    enforcement: Literal["enforce", "fail-closed", "shadow"] | None = None
    trust: TrustSpec = attrs.field(factory=TrustSpec)
    sources: tuple[SourceSpec, ...] = ()
    hooks: tuple[HookSpec, ...] = ()


#: A JSON-path-like address inside a document: ``("hooks", 2, "command")``.
DocPath = tuple[str | int, ...]


def pointer(path: DocPath) -> str:
    """``("hooks", 2, "command")`` → ``$.hooks[2].command``."""
    out = "$"
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else f".{part}"
    return out


@attrs.frozen(kw_only=True)
class LoadedFile:
    """One hooks file that loaded: where it is, its layer, the directory relative source paths
    resolve against, the document, and the 1-based line of each address in it."""

    path: str
    scope: Scope
    base: str
    document: HooksFile
    lines: Mapping[DocPath, int] = attrs.field(factory=dict)

    def line(self, path: DocPath) -> int:
        """The line of ``path``, or of its nearest ancestor that has one (1 at worst)."""
        while path:
            if path in self.lines:
                return self.lines[path]
            path = path[:-1]
        return self.lines.get((), 1)


@attrs.frozen(kw_only=True)
class Config:
    """Every hooks file that applies, global first, then the project's."""

    files: tuple[LoadedFile, ...] = ()
    project_root: str | None = None

    @property
    def strict_trust(self) -> bool:
        """Some file says ``trust: {strict: true}``: a project file cannot weaken a global
        ``true`` (nor the environment's ``HOOKWIRE_TRUST_STRICT=1``), only tighten."""
        return any(f.document.trust.strict for f in self.files)

    @property
    def enforcement(self) -> str | None:
        """The files' enforcement mode. A project file can only tighten it (``fail-closed``):
        a repository must not be able to turn the user's guards off, so its ``shadow`` or
        ``enforce`` never replaces the global file's choice, and its ``shadow`` is ignored."""
        chosen: str | None = None
        for loaded in self.files:
            mode = loaded.document.enforcement
            if mode is None or (loaded.scope is Scope.PROJECT and mode != "fail-closed"
                                and (mode == "shadow" or chosen is not None)):
                continue
            chosen = mode
        return chosen
