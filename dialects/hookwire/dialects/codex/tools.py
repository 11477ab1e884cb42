"""Codex's tools, as its hooks see them (0.171.0): ``Bash {command}``, ``apply_patch {command}``
(matchers also answer to ``Write`` and ``Edit``), ``spawn_agent`` (alias ``Agent``) and
``mcp__server__tool``.

A runtime tool mapped as Claude Code's ``Write`` or ``Edit`` reaches a Codex hook the way Codex
itself would run it: as an ``apply_patch`` whose ``command`` is the patch text (an ``Add File``
for a write, an ``Update File`` hunk for an edit), which is what a Codex ``apply_patch`` guard
parses. A rewrite of that patch comes back as a ``Write``/``Edit`` when it keeps that form;
one that does not (several files, a move, a deletion) cannot be carried back.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs

from hookwire.tools import ToolShape, Vocabulary

TOOLS = {
    shape.name: shape
    for shape in (
        ToolShape(name="Bash", fields=("command",), required=("command",)),
        ToolShape(name="apply_patch", fields=("command",), required=("command",),
                  aliases=("Write", "Edit")),
        ToolShape(name="spawn_agent", fields=("message",), aliases=("Agent",)),
    )
}

_BEGIN, _END = "*** Begin Patch", "*** End Patch"
_ADD, _UPDATE = "*** Add File: ", "*** Update File: "


def _lines(text: str, mark: str) -> list[str]:
    return [mark + line for line in text.split("\n")]


def write_patch(file_path: str, content: str) -> str:
    """The ``apply_patch`` text Codex would run to create ``file_path`` with ``content``."""
    body = content[:-1] if content.endswith("\n") else content
    return "\n".join([_BEGIN, _ADD + file_path, *_lines(body, "+"), _END]) + "\n"


def edit_patch(file_path: str, old: str, new: str) -> str:
    """The ``apply_patch`` text of replacing ``old`` with ``new`` in ``file_path``."""
    return "\n".join([_BEGIN, _UPDATE + file_path, "@@", *_lines(old, "-"),
                      *_lines(new, "+"), _END]) + "\n"


def parse_patch(patch: str) -> tuple[str, dict[str, Any]] | None:
    """A one-file Add or one-hunk Update patch as a ``Write``/``Edit`` call; else ``None``."""
    lines = patch.rstrip("\n").split("\n")
    if len(lines) < 3 or lines[0] != _BEGIN or lines[-1] != _END:
        return None
    head, body = lines[1], lines[2:-1]
    if head.startswith(_ADD):
        if not all(line.startswith("+") for line in body):
            return None
        content = "\n".join(line[1:] for line in body)
        return "Write", {"file_path": head[len(_ADD):], "content": content + "\n"}
    if head.startswith(_UPDATE) and body and body[0].startswith("@@"):
        old = [ln[1:] for ln in body[1:] if ln.startswith("-")]
        new = [ln[1:] for ln in body[1:] if ln.startswith("+")]
        if len(old) + len(new) != len(body) - 1 or any(
                ln.startswith("+") for ln in body[1:len(old) + 1]):
            return None
        return "Edit", {"file_path": head[len(_UPDATE):], "old_string": "\n".join(old),
                        "new_string": "\n".join(new)}
    return None


@attrs.frozen(kw_only=True)
class CodexVocabulary(Vocabulary):
    """Codex's spelling of the mapped vocabulary (see the module docstring)."""

    def view(self, name: str, tool_input: Mapping[str, Any]) -> tuple[str, dict[str, Any]]:
        if name == "Bash":
            # Codex's shell tools carry the command alone (no description or timeout)
            return "Bash", {"command": tool_input.get("command", "")}
        if name == "Write":
            return "apply_patch", {"command": write_patch(
                str(tool_input.get("file_path", "")), str(tool_input.get("content", "")))}
        if name == "Edit":
            return "apply_patch", {"command": edit_patch(
                str(tool_input.get("file_path", "")), str(tool_input.get("old_string", "")),
                str(tool_input.get("new_string", "")))}
        if name == "Agent":
            return "spawn_agent", {"message": tool_input.get("prompt", ""), **{
                k: v for k, v in tool_input.items() if k != "prompt"}}
        return name, dict(tool_input)

    def unview(self, name: str, viewed: str, updated: Mapping[str, Any]
               ) -> dict[str, Any] | None:
        if viewed == "apply_patch" and name in ("Write", "Edit"):
            parsed = parse_patch(str(updated.get("command", "")))
            if parsed is None or parsed[0] != name:
                return None
            return parsed[1]
        if viewed == "spawn_agent" and name == "Agent":
            out = dict(updated)
            if "message" in out:
                out["prompt"] = out.pop("message")
            return out
        return dict(updated)


VOCABULARY = CodexVocabulary(tools=TOOLS)
