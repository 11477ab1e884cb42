"""Placeholders and containment, as the Agent Plugins spec (§4.1, §7) defines them for stdio
MCP servers and the portable profile adopts for hook handlers.

Expansion is one literal, non-recursive pass over exactly ``${PLUGIN_ROOT}`` and
``${PLUGIN_DATA}``; containment is checked after resolving every symlink.
"""

from __future__ import annotations

import os
import re
import shutil
from collections.abc import Mapping
from pathlib import Path

from hookwire.errors import ConfigError

ROOT = "${PLUGIN_ROOT}"
DATA = "${PLUGIN_DATA}"
RESERVED_ENV = frozenset({"PLUGIN_ROOT", "PLUGIN_DATA"})

#: A bare executable name, found by the platform's executable search.
BARE_NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9._+-]*")
#: Characters that make a ``command`` a shell string rather than one token.
SHELLISH = re.compile(r"[\s;&|<>$`\\\"'*?(){}\[\]!#~=%^,]")


class ContainmentError(ConfigError):
    """A plugin-relative path resolves outside the plugin root or data directory."""


def expand(value: str, root: str, data: str) -> str:
    """One pass, literal, non-recursive: ``${PLUGIN_DATA}`` inside the root is not re-read."""
    return re.sub(r"\$\{PLUGIN_(ROOT|DATA)\}",
                  lambda m: root if m.group(1) == "ROOT" else data, value)


def contained(path: Path, base: Path, what: str) -> Path:
    """``path`` resolved (symlinks included); :class:`ContainmentError` when outside ``base``."""
    real = Path(os.path.realpath(path))
    real_base = Path(os.path.realpath(base))
    if real != real_base and real_base not in real.parents:
        raise ContainmentError(f"{what} {str(path)!r} resolves to {str(real)!r}, outside "
                               f"{str(real_base)!r}")
    return real


def check_command(token: str) -> str | None:
    """Why ``token`` is not one executable token (``None`` when it is)."""
    if not token:
        return "command must not be empty"
    if "${" in token:
        return "no placeholder is expanded in command; name a ./ path inside the plugin root"
    if token.startswith("./"):
        rest = token[2:]
        if not rest or SHELLISH.search(rest):
            return "command must be one executable token: a bare name or a ./ path; put " \
                   "arguments in args"
        return None
    if SHELLISH.search(token):
        return "command must be one executable token, never a shell string; put arguments " \
               "in args"
    if "/" in token or not BARE_NAME.fullmatch(token):
        return "a bundled command must start with ./ (absolute and ../ paths are not allowed)"
    return None


def check_cwd(raw: str) -> str | None:
    """Why ``raw`` is not an allowed ``cwd`` form (``None`` when it is)."""
    if raw == "." or raw.startswith("./"):
        rest = raw[2:]
    else:
        for prefix in (ROOT, DATA):
            if raw == prefix or raw.startswith(prefix + "/"):
                rest = raw[len(prefix) + 1:]
                break
        else:
            return "cwd must be ./..., ${PLUGIN_ROOT}[/...] or ${PLUGIN_DATA}[/...]"
    if "${" in rest:
        return "cwd may hold one placeholder, at its start"
    return None


def resolve_command(token: str, root: str, search_path: str | None) -> str:
    """The executable to spawn: a contained bundled file, or a bare name found on
    ``search_path`` (the base environment's PATH, never the handler's own ``env``)."""
    if token.startswith("./"):
        return str(contained(Path(root) / token[2:], Path(root), "command"))
    found = shutil.which(token, path=search_path)
    return found or token  # not found: the runner reports failed_to_start/not_found


def resolve_cwd(raw: str | None, root: str, data: str) -> str:
    """The handler's working directory, expanded and contained (default: the plugin root)."""
    if raw is None or raw in (".", "./"):
        return str(contained(Path(root), Path(root), "cwd"))
    if raw.startswith("./"):
        return str(contained(Path(root) / raw[2:], Path(root), "cwd"))
    base = data if raw.startswith(DATA) else root
    return str(contained(Path(expand(raw, root, data)), Path(base), "cwd"))


def expand_env(env: Mapping[str, str], root: str, data: str) -> dict[str, str]:
    return {k: expand(v, root, data) for k, v in env.items()}
