"""The tools an ``agent`` hook's sub-agent gets: read-only, rooted at the project.

Claude Code 2.1.332 gave its agent hooks Read, Bash, Edit and Write (observed). hookwire gives
them ``Read``, ``Glob`` and ``Grep``, which can look at the project's files and the session's
transcript and change nothing: a hook that verifies must not be able to act. Paths are taken
relative to the project directory; a path that leaves it (``..``, a symlink pointing out) is
refused, except the transcript itself.
"""

from __future__ import annotations

import fnmatch
import os
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import anyio.to_thread

from hookwire.hostparts import HookTool

#: What a tool reads at most (lines of a file, matches, names), as Claude Code's Read does.
MAX_LINES = 2000
MAX_HITS = 200


class _Root:
    def __init__(self, project: str, transcript: str | None) -> None:
        self.project = Path(project).resolve()
        self.transcript = Path(transcript).resolve() if transcript else None

    def path(self, given: Any) -> Path:
        if not isinstance(given, str) or not given:
            raise ValueError("a path is required")
        path = (self.project / given).resolve()
        if path != self.transcript and not path.is_relative_to(self.project):
            raise ValueError(f"{given} is outside the project ({self.project})")
        return path

    def files(self, under: Path) -> list[Path]:
        found: list[Path] = []
        for folder, dirs, names in os.walk(under):
            dirs[:] = sorted(d for d in dirs if not d.startswith(".git"))
            found += [Path(folder) / n for n in sorted(names)]
            if len(found) > 20_000:
                break
        return found

    def shown(self, path: Path) -> str:
        return str(path.relative_to(self.project)) if path.is_relative_to(self.project) \
            else str(path)


def _read(root: _Root, args: dict[str, Any]) -> str:
    path = root.path(args.get("file_path"))
    start = max(int(args.get("offset") or 1), 1)
    count = min(int(args.get("limit") or MAX_LINES), MAX_LINES)
    with open(path, encoding="utf-8", errors="replace") as fh:
        lines = fh.read().splitlines()
    chosen = lines[start - 1:start - 1 + count]
    return "\n".join(f"{i:6}\t{line}" for i, line in enumerate(chosen, start)) or "(empty)"


def _glob(root: _Root, args: dict[str, Any]) -> str:
    pattern = str(args.get("pattern") or "*")
    under = root.path(args.get("path") or ".")
    hits = [root.shown(p) for p in root.files(under)
            if fnmatch.fnmatch(str(p.relative_to(under)), pattern)
            or fnmatch.fnmatch(p.name, pattern)]
    return "\n".join(hits[:MAX_HITS]) or "No files found"


def _grep(root: _Root, args: dict[str, Any]) -> str:
    regex = re.compile(str(args.get("pattern") or ""))
    under = root.path(args.get("path") or ".")
    only = args.get("glob")
    files = [under] if under.is_file() else root.files(under)
    hits: list[str] = []
    for file in files:
        if only and not fnmatch.fnmatch(file.name, str(only)):
            continue
        try:
            text = file.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        hits += [f"{root.shown(file)}:{n}:{line}" for n, line in
                 enumerate(text.splitlines(), 1) if regex.search(line)]
        if len(hits) >= MAX_HITS:
            break
    return "\n".join(hits[:MAX_HITS]) or "No matches found"


def _schema(required: list[str], **props: str) -> dict[str, Any]:
    types = {"offset": "integer", "limit": "integer"}
    return {"type": "object", "required": required, "additionalProperties": False,
            "properties": {k: {"type": types.get(k, "string"), "description": v}
                           for k, v in props.items()}}


def tools(project_dir: str, transcript_path: str | None) -> tuple[HookTool, ...]:
    """``Read``, ``Glob`` and ``Grep`` over ``project_dir`` (and the transcript)."""
    root = _Root(project_dir, transcript_path)

    def tool(name: str, doc: str, fn: Callable[[_Root, dict[str, Any]], str],
             schema: dict[str, Any]) -> HookTool:
        async def call(args: dict[str, Any]) -> str:
            try:  # off the event loop: a big project takes a while to search
                return await anyio.to_thread.run_sync(fn, root, args)
            except (OSError, ValueError, re.error) as exc:
                return f"Error: {exc}"
        return HookTool(name=name, description=doc, parameters=schema, call=call)

    return (
        tool("Read", "Read a text file of the project (lines numbered from 1).", _read,
             _schema(["file_path"], file_path="path, relative to the project",
                     offset="first line to read", limit="how many lines")),
        tool("Glob", "List the project's files whose path matches a glob pattern.", _glob,
             _schema(["pattern"], pattern="e.g. src/*.py", path="folder to search")),
        tool("Grep", "Search the project's files for a regular expression.", _grep,
             _schema(["pattern"], pattern="a regular expression", path="file or folder",
                     glob="only files whose name matches this")),
    )
