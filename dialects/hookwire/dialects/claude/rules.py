"""The ``if`` filter: one permission rule (``Bash(git *)``, ``Edit(*.ts)``) tested on a tool call.

Claude Code evaluates it after the matcher, on tool events only, and fails open: a rule or a
command it cannot parse lets the hook run. Bash rules are tested against every subcommand
(``&&``, ``||``, ``;``, ``|``, newlines), with leading ``VAR=value`` stripped and the commands
inside ``$()`` and backticks included; when the command has ``$()``, backticks or ``$VAR``, a
pattern longer than the command name runs anyway (the expansion is unknown before it runs).
"""

from __future__ import annotations

import os
import re
import shlex
from collections.abc import Mapping
from typing import Any
from urllib.parse import urlsplit

_RULE = re.compile(r"\s*([^\s()]+)\s*(?:\((.*)\))?\s*", re.DOTALL)
_ASSIGN = re.compile(r"[A-Za-z_][A-Za-z0-9_]*=")
_SUBST = re.compile(r"\$\(([^()]*)\)|`([^`]*)`")
_DYNAMIC = re.compile(r"\$\(|`|\$\{?[A-Za-z_]")
_SHELL_TOOLS = frozenset({"Bash", "PowerShell"})
_PATH_KEYS = ("file_path", "notebook_path", "path")
_TEXT_KEYS = ("command", "url", "query", "pattern", "prompt", "skill", "description")


def parse(rule: str) -> tuple[str, str | None] | None:
    """``(tool, content)`` of a rule; ``None`` when it cannot be parsed."""
    m = _RULE.fullmatch(rule)
    if m is None:
        return None
    content = m.group(2)
    return m.group(1), (content.strip() if content is not None else None)


def allows(rule: str, tool_name: str, tool_input: Mapping[str, Any], *, cwd: str,
           project_dir: str) -> bool:
    """Whether the hook guarded by ``if: rule`` runs for this tool call."""
    parsed = parse(rule)
    if parsed is None:
        return True  # fail open
    tool, content = parsed
    if not _tool_matches(tool, tool_name):
        return False
    if content in (None, "", "*"):
        return True
    assert content is not None
    if tool_name in _SHELL_TOOLS:
        command = tool_input.get("command")
        return not isinstance(command, str) or _command_matches(content, command)
    path = next((tool_input[k] for k in _PATH_KEYS if isinstance(tool_input.get(k), str)), None)
    if path is not None:
        return _path_matches(content, path, cwd=cwd, project_dir=project_dir)
    if content.startswith("domain:") and isinstance(tool_input.get("url"), str):
        host = urlsplit(tool_input["url"]).hostname or ""
        return _glob(content[len("domain:"):]).fullmatch(host) is not None
    text = next((tool_input[k] for k in _TEXT_KEYS if isinstance(tool_input.get(k), str)), None)
    if text is None:
        return True  # nothing the rule could be about: fail open
    return _glob(content).fullmatch(text) is not None


def _tool_matches(tool: str, tool_name: str) -> bool:
    if tool == tool_name or (tool == "Task" and tool_name == "Agent"):
        return True
    if tool.startswith("mcp__"):
        if "*" in tool:
            return _glob(tool).fullmatch(tool_name) is not None
        return tool.count("__") == 1 and tool_name.startswith(tool + "__")
    return False


def _glob(pattern: str) -> re.Pattern[str]:
    return re.compile(".*".join(re.escape(p) for p in pattern.split("*")), re.DOTALL)


def _command_matches(content: str, command: str) -> bool:
    if _DYNAMIC.search(command) and len(content.split()) > 1:
        return True
    try:
        subcommands = _subcommands(command)
    except ValueError:
        return True  # unparsable: fail open
    if content.endswith(":*"):
        prefix = content[:-2].strip()
        return any(c == prefix or c.startswith(prefix + " ") for c in subcommands)
    if content.endswith(" *"):
        # "ls *" also matches a bare "ls", as the legacy "ls:*" did.
        head = content[:-2]
        pat = re.compile(_glob(head).pattern + r"(?: .*)?", re.DOTALL)
    else:
        pat = _glob(content)
    return any(pat.fullmatch(c) for c in subcommands)


def _subcommands(command: str) -> list[str]:
    texts = [command]
    texts += [a or b for a, b in _SUBST.findall(command)]
    out: list[str] = []
    for text in texts:
        lexer = shlex.shlex(text.replace("\n", " ; "), posix=True, punctuation_chars=";&|")
        lexer.whitespace_split = True
        current: list[str] = []
        for token in lexer:
            if token and set(token) <= set(";&|"):
                out.append(_simple(current))
                current = []
            else:
                current.append(token)
        out.append(_simple(current))
    return [c for c in out if c]


def _simple(tokens: list[str]) -> str:
    while tokens and _ASSIGN.match(tokens[0]):
        tokens = tokens[1:]
    return " ".join(tokens)


def _path_matches(content: str, path: str, *, cwd: str, project_dir: str) -> bool:
    if content.startswith("//"):
        pattern = content[1:]
    elif content.startswith("~/"):
        pattern = os.path.expanduser("~") + content[1:]
    elif content.startswith("/"):
        pattern = project_dir.rstrip("/") + content
    elif "/" not in content.rstrip("/"):
        pattern = "**/" + content  # gitignore: a bare name matches at any depth
    else:
        pattern = cwd.rstrip("/") + "/" + content.removeprefix("./")
    target = path if os.path.isabs(path) else os.path.join(cwd, path)
    target = os.path.normpath(target)
    return _path_glob(pattern).fullmatch(target) is not None


def _path_glob(pattern: str) -> re.Pattern[str]:
    out = ""
    i = 0
    while i < len(pattern):
        if pattern.startswith("**/", i):
            out += "(?:.*/)?"
            i += 3
        elif pattern.startswith("**", i):
            out += ".*"
            i += 2
        elif pattern[i] == "*":
            out += "[^/]*"
            i += 1
        elif pattern[i] == "?":
            out += "[^/]"
            i += 1
        else:
            out += re.escape(pattern[i])
            i += 1
    if pattern.startswith("**/"):
        out = "(?:.*/)?" + out[len("(?:.*/)?"):]
    return re.compile(out, re.DOTALL)
