"""Line numbers of the values in a JSON text, by JSON pointer (``$.hooks.Stop[0]``).

``json`` keeps no positions; this small scanner walks the same text once and records, for every
object member and array element, the 1-based line where its value starts. It assumes the text
already parsed with :func:`json.loads`.
"""

from __future__ import annotations

import contextlib
import json
import re

_WS = re.compile(r"[ \t\n\r]*")
_SCALAR = re.compile(r'-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null')
_decoder = json.JSONDecoder()


def line_index(text: str) -> dict[str, int]:
    """Map JSON-path pointers to the line their value starts on."""
    lines: dict[str, int] = {}
    newlines = [i for i, ch in enumerate(text) if ch == "\n"]

    def line_of(pos: int) -> int:
        import bisect

        return bisect.bisect_left(newlines, pos) + 1

    def skip(pos: int) -> int:
        m = _WS.match(text, pos)
        return m.end() if m else pos

    def value(pos: int, path: str) -> int:
        pos = skip(pos)
        lines[path] = line_of(pos)
        ch = text[pos]
        if ch == "{":
            pos = skip(pos + 1)
            if text[pos] == "}":
                return pos + 1
            while True:
                key, pos = _decoder.raw_decode(text, skip(pos))
                pos = skip(pos) + 1  # the colon
                pos = skip(value(pos, f"{path}.{key}"))
                if text[pos] == "}":
                    return pos + 1
                pos += 1  # the comma
        if ch == "[":
            pos = skip(pos + 1)
            if text[pos] == "]":
                return pos + 1
            i = 0
            while True:
                pos = skip(value(pos, f"{path}[{i}]"))
                i += 1
                if text[pos] == "]":
                    return pos + 1
                pos += 1
        if ch == '"':
            return _decoder.raw_decode(text, pos)[1]
        m = _SCALAR.match(text, pos)
        return m.end() if m else pos + 1

    # A partial index is fine: positions are a convenience, never an error.
    with contextlib.suppress(IndexError, ValueError):
        value(0, "$")
    return lines
