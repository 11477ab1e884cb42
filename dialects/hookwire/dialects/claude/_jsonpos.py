"""A JSON parser that remembers the line each value starts on.

``json`` gives values but not positions; config problems must name the line. Values are what
``json.loads`` gives (duplicate keys: the last wins, as ``JSON.parse``); ``lines`` maps each
value's path (a tuple of keys and indices, ``()`` for the root) to its 1-based line.
"""

from __future__ import annotations

import json
import re
from json.decoder import scanstring  # type: ignore[attr-defined]
from typing import Any

Path = tuple[str | int, ...]

_WS = re.compile(r"[ \t\n\r]*")
_NUMBER = re.compile(r"-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][-+]?\d+)?")
_LITERALS = {"true": True, "false": False, "null": None}


class _Parser:
    def __init__(self, text: str) -> None:
        self.text = text
        self.lines: dict[Path, int] = {}
        self._newlines = [m.start() for m in re.finditer("\n", text)]

    def line_of(self, pos: int) -> int:
        import bisect

        return bisect.bisect_left(self._newlines, pos) + 1

    def ws(self, pos: int) -> int:
        m = _WS.match(self.text, pos)
        assert m is not None
        return m.end()

    def fail(self, msg: str, pos: int) -> json.JSONDecodeError:
        return json.JSONDecodeError(msg, self.text, pos)

    def value(self, pos: int, path: Path) -> tuple[Any, int]:
        pos = self.ws(pos)
        self.lines[path] = self.line_of(pos)
        ch = self.text[pos:pos + 1]
        if ch == "{":
            return self.obj(pos + 1, path)
        if ch == "[":
            return self.arr(pos + 1, path)
        if ch == '"':
            return scanstring(self.text, pos + 1, True)  # type: ignore[no-any-return]
        for word, val in _LITERALS.items():
            if self.text.startswith(word, pos):
                return val, pos + len(word)
        m = _NUMBER.match(self.text, pos)
        if m:
            s = m.group()
            return (float(s) if any(c in s for c in ".eE") else int(s)), m.end()
        raise self.fail("Expecting value", pos)

    def obj(self, pos: int, path: Path) -> tuple[dict[str, Any], int]:
        out: dict[str, Any] = {}
        pos = self.ws(pos)
        if self.text[pos:pos + 1] == "}":
            return out, pos + 1
        while True:
            pos = self.ws(pos)
            if self.text[pos:pos + 1] != '"':
                raise self.fail("Expecting property name enclosed in double quotes", pos)
            key, pos = scanstring(self.text, pos + 1, True)
            pos = self.ws(pos)
            if self.text[pos:pos + 1] != ":":
                raise self.fail("Expecting ':' delimiter", pos)
            out[key], pos = self.value(pos + 1, (*path, key))
            pos = self.ws(pos)
            ch = self.text[pos:pos + 1]
            if ch == "}":
                return out, pos + 1
            if ch != ",":
                raise self.fail("Expecting ',' delimiter", pos)
            pos += 1

    def arr(self, pos: int, path: Path) -> tuple[list[Any], int]:
        out: list[Any] = []
        pos = self.ws(pos)
        if self.text[pos:pos + 1] == "]":
            return out, pos + 1
        while True:
            item, pos = self.value(pos, (*path, len(out)))
            out.append(item)
            pos = self.ws(pos)
            ch = self.text[pos:pos + 1]
            if ch == "]":
                return out, pos + 1
            if ch != ",":
                raise self.fail("Expecting ',' delimiter", pos)
            pos += 1


def loads_with_lines(text: str) -> tuple[Any, dict[Path, int]]:
    """Parse ``text``; raise :class:`json.JSONDecodeError` (with ``lineno``) when invalid."""
    json.loads(text)  # the reference parser decides validity and gives its own error messages
    parser = _Parser(text)
    value, pos = parser.value(0, ())
    if parser.ws(pos) != len(text):
        raise parser.fail("Extra data", pos)
    return value, parser.lines


def pointer(path: Path) -> str:
    """``$.hooks.PreToolUse[0].hooks[1]`` for ``("hooks", "PreToolUse", 0, "hooks", 1)``."""
    out = "$"
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        elif re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", part):
            out += f".{part}"
        else:
            out += f"[{json.dumps(part, ensure_ascii=False)}]"
    return out


def line_for(lines: dict[Path, int], path: Path) -> int | None:
    """The line of ``path`` or of its nearest ancestor that has one."""
    while True:
        if path in lines:
            return lines[path]
        if not path:
            return None
        path = path[:-1]
