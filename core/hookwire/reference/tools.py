"""Real tools for the reference host: a shell, and file read and write.

Tool names and input shapes follow Claude Code's (``Bash``/``command``, ``Read``/``file_path``,
``Write``/``file_path``+``content``) so that hooks written for it match unchanged.
"""

from __future__ import annotations

import os
import shlex
from collections.abc import Awaitable, Callable, Mapping
from pathlib import Path
from typing import Any

import anyio
import attrs

from hookwire.runner import Command, OutcomeKind, run


class ToolError(Exception):
    """The tool failed; the message is what the model sees. A shell command that ran and
    exited non-zero carries its ``exit_code`` and ``output`` (a tool error has neither)."""

    def __init__(self, message: str, *, exit_code: int | None = None,
                 output: str | None = None) -> None:
        super().__init__(message)
        self.exit_code = exit_code
        self.output = output


@attrs.frozen(kw_only=True)
class Tool:
    """A tool: ``required`` input keys (with their types) form its schema."""

    name: str
    description: str
    required: Mapping[str, type]
    call: Callable[[Mapping[str, Any], ToolContext], Awaitable[Any]]

    def validate(self, tool_input: Mapping[str, Any]) -> str | None:
        """The validation error for ``tool_input``, or ``None`` when it fits the schema."""
        for key, typ in self.required.items():
            if key not in tool_input:
                return f"{self.name}: missing required input {key!r}"
            if not isinstance(tool_input[key], typ):
                return f"{self.name}: input {key!r} must be {typ.__name__}"
        return None


@attrs.define
class ToolContext:
    """What a tool may see and change of the session: its cwd and extra environment."""

    cwd: str
    env_file: str | None = None
    env: dict[str, str] = attrs.field(factory=dict)


async def _bash(tool_input: Mapping[str, Any], ctx: ToolContext) -> Any:
    command = str(tool_input["command"])
    if ctx.env_file and os.path.exists(ctx.env_file):
        # exports written by session-start hooks (CLAUDE_ENV_FILE) apply to every command
        command = f". {shlex.quote(ctx.env_file)} >/dev/null 2>&1; {command}"
    timeout = float(tool_input.get("timeout", 120_000)) / 1000
    outcome = await run(Command(shell=command, cwd=ctx.cwd, env={**os.environ, **ctx.env},
                                timeout=timeout, stdin=b""))
    stdout = outcome.stdout.decode("utf-8", "replace").rstrip("\n")
    stderr = outcome.stderr.decode("utf-8", "replace").rstrip("\n")
    if outcome.kind is OutcomeKind.TIMED_OUT:
        raise ToolError(f"Command timed out after {timeout:g}s\n{stderr}".rstrip())
    if outcome.exit_code not in (0, None) or outcome.signal is not None:
        code = outcome.exit_code if outcome.exit_code is not None else -(outcome.signal or 0)
        output = "\n".join(part for part in (stdout, stderr) if part)
        raise ToolError(f"Exit code {code}\n{stderr or stdout}".rstrip(), exit_code=code,
                        output=output)
    return {"stdout": stdout, "stderr": stderr, "interrupted": False, "isImage": False,
            "noOutputExpected": False}


def _resolve(ctx: ToolContext, file_path: str) -> Path:
    path = Path(file_path)
    return path if path.is_absolute() else Path(ctx.cwd) / path


async def _read(tool_input: Mapping[str, Any], ctx: ToolContext) -> Any:
    path = _resolve(ctx, str(tool_input["file_path"]))
    try:
        content = await anyio.Path(path).read_text()
    except OSError as exc:
        raise ToolError(f"cannot read {path}: {exc.strerror}") from exc
    lines = content.splitlines()
    return {"type": "text", "file": {"filePath": str(path), "content": content,
                                     "numLines": len(lines), "startLine": 1,
                                     "totalLines": len(lines)}}


async def _write(tool_input: Mapping[str, Any], ctx: ToolContext) -> Any:
    path = _resolve(ctx, str(tool_input["file_path"]))
    content = str(tool_input["content"])
    try:
        await anyio.Path(path.parent).mkdir(parents=True, exist_ok=True)
        await anyio.Path(path).write_text(content)
    except OSError as exc:
        raise ToolError(f"cannot write {path}: {exc.strerror}") from exc
    return {"type": "create", "filePath": str(path), "content": content}


def default_tools() -> dict[str, Tool]:
    """The reference host's tools by name."""
    tools = [
        Tool(name="Bash", description="Run a shell command", required={"command": str},
             call=_bash),
        Tool(name="Read", description="Read a file", required={"file_path": str}, call=_read),
        Tool(name="Write", description="Write a file",
             required={"file_path": str, "content": str}, call=_write),
    ]
    return {t.name: t for t in tools}
