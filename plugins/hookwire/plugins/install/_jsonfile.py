"""Reading and writing the clients' JSON files without disturbing what is not ours.

Key order is kept, the file's indentation (spaces or tab, width) and final newline are
detected and reused, non-ASCII stays as written. A file that is not a JSON object is never
overwritten: :class:`InstallError` says which and why.
"""

from __future__ import annotations

import json
import re
from typing import Any

from hookwire.plugins.install.errors import InstallError


def parse(data: bytes | None, path: str) -> dict[str, Any]:
    if data is None or not data.strip():
        return {}
    try:
        doc = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise InstallError(f"{path} is not valid JSON ({exc}); fix or move it, hookwire will "
                           "not overwrite it") from None
    if not isinstance(doc, dict):
        raise InstallError(f"{path} does not hold a JSON object; hookwire will not overwrite it")
    return doc


def style(data: bytes | None) -> tuple[str | int, bool]:
    """(indent, trailing newline) of an existing file; 2 spaces and a newline for new ones."""
    if not data:
        return 2, True
    text = data.decode("utf-8", "replace")
    match = re.search(r"^[\{\[][^\n]*\n([ \t]+)\S", text, re.M)
    indent: str | int = 2
    if match:
        ws = match.group(1)
        indent = "\t" if ws.startswith("\t") else len(ws)
    return indent, text.endswith("\n")


def dump(doc: dict[str, Any], like: bytes | None) -> bytes:
    indent, newline = style(like)
    text = json.dumps(doc, indent=indent, ensure_ascii=False)
    return (text + ("\n" if newline else "")).encode("utf-8")
