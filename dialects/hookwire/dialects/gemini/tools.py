"""Gemini CLI's tools, as its hooks see them (0.61.0): names and input fields as the CLI
declares them to the model, so ``run_shell_command``, ``write_file``, ``replace``,
``read_file`` and the others meet a runtime's tools through the ``tools:`` mapping.

A runtime tool mapped onto a Claude Code name reaches a Gemini CLI hook under Gemini's name and
fields (``Bash {command}`` → ``run_shell_command {command}``, ``Edit`` → ``replace``,
``Read`` → ``read_file``, ...), and a hook's rewrite travels back. MCP tools are named
``mcp_<server>_<tool>`` on Gemini CLI's side.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

import attrs

from hookwire.tools import MCP_NAME, ToolShape, Vocabulary

TOOLS = {
    shape.name: shape
    for shape in (
        ToolShape(name="run_shell_command", fields=("command", "description", "dir_path",
                                                    "is_background", "delay_ms"),
                  required=("command",)),
        ToolShape(name="write_file", fields=("file_path", "content"),
                  required=("file_path", "content")),
        ToolShape(name="replace", fields=("file_path", "instruction", "old_string",
                                          "new_string", "allow_multiple"),
                  required=("file_path", "instruction", "old_string", "new_string")),
        ToolShape(name="read_file", fields=("file_path", "start_line", "end_line"),
                  required=("file_path",)),
        ToolShape(name="list_directory", fields=("dir_path", "ignore",
                                                 "file_filtering_options"),
                  required=("dir_path",)),
        ToolShape(name="glob", fields=("pattern", "dir_path", "case_sensitive",
                                       "respect_git_ignore", "respect_gemini_ignore"),
                  required=("pattern",)),
        ToolShape(name="grep_search", fields=("pattern", "dir_path", "include_pattern",
                                              "exclude_pattern", "names_only",
                                              "max_matches_per_file", "total_max_matches"),
                  required=("pattern",)),
        ToolShape(name="web_fetch", fields=("prompt",), required=("prompt",)),
        ToolShape(name="google_web_search", fields=("query",), required=("query",)),
        ToolShape(name="write_todos", fields=("todos",), required=("todos",)),
        ToolShape(name="invoke_agent", fields=("agent_name", "prompt", "wait_for_previous"),
                  required=("agent_name", "prompt")),
        ToolShape(name="activate_skill", fields=("name",), required=("name",)),
        ToolShape(name="enter_plan_mode", fields=("reason",)),
    )
}

#: Claude Code's names (the usual mapping vocabulary) → Gemini CLI's, with renamed fields.
_FROM_CLAUDE: Mapping[str, tuple[str, Mapping[str, str]]] = {
    "Bash": ("run_shell_command", {}),
    "Write": ("write_file", {}),
    "Edit": ("replace", {}),
    "Read": ("read_file", {}),
    "Glob": ("glob", {"path": "dir_path"}),
    "Grep": ("grep_search", {"path": "dir_path", "glob": "include_pattern"}),
    "WebFetch": ("web_fetch", {}),
    "WebSearch": ("google_web_search", {}),
    "TodoWrite": ("write_todos", {}),
    "Agent": ("invoke_agent", {"subagent_type": "agent_name"}),
}
#: Fields of the Claude Code tool Gemini CLI's has no counterpart for (left out of the view).
_DROPPED: Mapping[str, frozenset[str]] = {
    "Bash": frozenset({"timeout", "run_in_background"}),
    "Edit": frozenset({"replace_all"}),
    "Read": frozenset({"offset", "limit"}),
}


@attrs.frozen(kw_only=True)
class GeminiVocabulary(Vocabulary):
    """Gemini CLI's spelling of the mapped vocabulary (see the module docstring)."""

    def knows(self, name: str) -> bool:
        return super().knows(name) or name.startswith("mcp_")

    def view(self, name: str, tool_input: Mapping[str, Any]) -> tuple[str, dict[str, Any]]:
        if MCP_NAME.fullmatch(name):
            server, _, tool = name[len("mcp__"):].partition("__")
            return mcp_name(server, tool), dict(tool_input)
        if name == "WebFetch":  # Gemini's web_fetch takes the URLs inside its prompt
            url, prompt = tool_input.get("url"), tool_input.get("prompt", "")
            return "web_fetch", {"prompt": f"{prompt}\n{url}" if url else prompt}
        if name not in _FROM_CLAUDE:
            return name, dict(tool_input)
        gemini, renames = _FROM_CLAUDE[name]
        dropped = _DROPPED.get(name, frozenset())
        return gemini, {renames.get(k, k): v for k, v in tool_input.items()
                        if k not in dropped}

    def unview(self, name: str, viewed: str, updated: Mapping[str, Any]
               ) -> dict[str, Any] | None:
        if name == "WebFetch":
            return None  # a rewritten prompt cannot be split back into url and prompt
        if name not in _FROM_CLAUDE:
            return dict(updated)
        back = {v: k for k, v in _FROM_CLAUDE[name][1].items()}
        return {back.get(k, k): v for k, v in updated.items()}


def mcp_name(server: str, tool: str) -> str:
    """The name Gemini CLI gives ``tool`` of MCP server ``server``: ``mcp_<server>_<tool>``,
    characters outside ``[A-Za-z0-9_.:-]`` replaced by ``_`` (names over 63 characters are
    shortened by Gemini CLI; not reproduced)."""
    return re.sub(r"[^A-Za-z0-9_\-.:]", "_", f"mcp_{server}_{tool}")


VOCABULARY = GeminiVocabulary(tools=TOOLS)
