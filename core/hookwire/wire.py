"""The one reader of wire text: JSON, TOML and YAML into plain values, with positions (and
:func:`json_writer`, the JSON writer of hook payloads).

Every dialect reads its config files and its hooks' stdout through here, so that no input —
any nesting depth, size, encoding or type — ends in anything but a :class:`WireError` (a
:class:`~hookwire.errors.ConfigError` carrying ``file``, ``line``, ``column`` and ``pointer``).

* JSON keeps ``JSON.parse``'s semantics: the last duplicate key wins; ``NaN``/``Infinity``
  are not JSON; an integer too long for Python's int conversion becomes a float, as it is a
  double there. Positions come from an explicit-stack scanner (no recursion at all), so the
  line of every value is known by its path (``("hooks", "Stop", 0)`` → line).
* Nesting deeper than ``max_depth`` is a located error, found by an iterative scan before any
  recursive code (``json``'s C scanner, ``tomllib``, ruamel, cattrs, ``json.dumps``) sees the
  value. Codex (serde_json) stops at 128 levels; hookwire's default is 256.
* Text over ``max_size`` bytes and bytes that are not UTF-8 are located errors too.
"""

from __future__ import annotations

import bisect
import json
import re
import tomllib
from collections.abc import Callable, Mapping
from json.decoder import scanstring  # type: ignore[attr-defined]
from typing import Any

import attrs

from hookwire.errors import WireError

__all__ = ["DEFAULT_DEPTH", "DEFAULT_SIZE", "Document", "Path", "WireError", "decode",
           "json_writer", "line_for", "parse_json", "pointer", "read_json", "read_text",
           "read_toml"]

Path = tuple[str | int, ...]
DEFAULT_DEPTH = 256
DEFAULT_SIZE = 16 * 1024 * 1024

_WS = re.compile(r"[ \t\n\r]*")
_NUMBER = re.compile(r"-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][-+]?\d+)?")
_LITERALS = (("true", True), ("false", False), ("null", None))
#: Strings and brackets of a JSON text (depth scan); a stray quote ends the scan.
_JSON_TOKENS = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"|[\[\]{}]', re.S)
_TOML_TOKENS = re.compile(
    r'"""(?:[^\\]|\\.)*?"""|\'\'\'.*?\'\'\'|"(?:[^"\\\n]|\\.)*"|\'[^\'\n]*\'|#[^\n]*|[\[\]{}]',
    re.S)
_TOML_AT = re.compile(r"\(at line (\d+), column (\d+)\)")


@attrs.frozen(kw_only=True)
class Document:
    """A parsed text: its ``value``, the line of each value by path, and its ``file``."""

    value: Any
    lines: Mapping[Path, int] = attrs.field(factory=dict)
    file: str | None = None

    def line(self, path: Path) -> int | None:
        return line_for(self.lines, path)


def decode(data: bytes, *, file: str | None = None, max_size: int = DEFAULT_SIZE,
           what: str = "text") -> str:
    """``data`` as UTF-8 text; :class:`WireError` when too large or not UTF-8 (the line of the
    first bad byte)."""
    if len(data) > max_size:
        raise WireError(f"{what} is larger than {max_size} bytes", file=file)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise WireError(f"{what} is not UTF-8 (byte {exc.start})", file=file, line=line) \
            from None


def read_text(path: Any, *, max_size: int = DEFAULT_SIZE) -> str:
    """The UTF-8 text of the file at ``path`` (read once); :class:`WireError` when it cannot be
    read, is not a regular file, is too large or is not UTF-8."""
    file = str(path)
    try:
        with open(path, "rb") as handle:
            data = handle.read(max_size + 1)
    except OSError as exc:
        raise WireError(f"cannot read: {exc.strerror or exc}", file=file) from None
    return decode(data, file=file, max_size=max_size, what="the file")


def _depth_error(text: str, tokens: re.Pattern[str], max_depth: int, file: str | None,
                 lang: str) -> WireError | None:
    depth = 0
    for m in tokens.finditer(text):
        ch = m.group()
        if ch in "[{":
            depth += 1
            if depth > max_depth:
                line = text.count("\n", 0, m.start()) + 1
                return WireError(f"invalid {lang}: nested deeper than {max_depth} levels",
                                 file=file, line=line,
                                 column=m.start() - text.rfind("\n", 0, m.start()))
        elif ch in "]}":
            depth = max(depth - 1, 0)
    return None


def _bad_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def parse_json(text: str, *, max_depth: int = DEFAULT_DEPTH, file: str | None = None,
               max_size: int = DEFAULT_SIZE) -> Any:
    """The value of a JSON text (no positions: the fast path, for a hook's stdout)."""
    if len(text) > max_size:
        raise WireError(f"JSON text is larger than {max_size} characters", file=file)
    if (err := _depth_error(text, _JSON_TOKENS, max_depth, file, "JSON")) is not None:
        raise err
    try:
        return json.loads(text, parse_constant=_bad_constant, parse_int=_int)
    except json.JSONDecodeError as exc:
        raise WireError(f"invalid JSON: {exc.msg}", file=file, line=exc.lineno,
                        column=exc.colno) from None
    except (ValueError, RecursionError) as exc:  # a constant, or a C stack deeper than ours
        raise WireError(f"invalid JSON: {exc}", file=file) from None


def json_object(text: str | None) -> dict[str, Any] | None:
    """The JSON object ``text`` holds (a model's plain text answer), or ``None``: it is not
    JSON, or not an object."""
    try:
        value = parse_json(text or "")
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


def _int(s: str) -> int | float:
    try:
        return int(s)
    except ValueError:  # longer than int() converts: a double, as JSON.parse gives
        return float(s)


def read_json(text: str, *, file: str | None = None, max_depth: int = DEFAULT_DEPTH,
              max_size: int = DEFAULT_SIZE) -> Document:
    """A JSON text with the line of every value (see :class:`Document`)."""
    value = parse_json(text, max_depth=max_depth, file=file, max_size=max_size)
    try:
        lines = _Lines(text).scan()
    except (ValueError, IndexError):  # positions are a convenience: the value is right
        lines = {(): 1}
    return Document(value=value, lines=lines, file=file)


class _Lines:
    """Walks a valid JSON text with an explicit stack, recording each value's line."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.newlines = [m.start() for m in re.finditer("\n", text)]

    def ws(self, pos: int) -> int:
        m = _WS.match(self.text, pos)
        return m.end() if m else pos

    def scan(self) -> dict[Path, int]:
        text, lines = self.text, {}
        # stack entries: [path of the container, kind "{" or "[", next index]
        stack: list[list[Any]] = []
        path: Path = ()
        pos = 0
        while True:
            pos = self.ws(pos)
            lines[path] = bisect.bisect_left(self.newlines, pos) + 1
            ch = text[pos]
            if ch in "{[":
                pos = self.ws(pos + 1)
                close = "}" if ch == "{" else "]"
                if text[pos] != close:
                    stack.append([path, ch, 0])
                    if ch == "{":
                        key, pos = scanstring(text, pos + 1, True)
                        pos = self.ws(pos) + 1  # the colon
                        path = (*path, key)
                    else:
                        path = (*path, 0)
                    continue
                pos += 1
            elif ch == '"':
                pos = scanstring(text, pos + 1, True)[1]
            else:
                m = _NUMBER.match(text, pos)
                if m:
                    pos = m.end()
                else:
                    pos += next(len(w) for w, _ in _LITERALS if text.startswith(w, pos))
            # after a value: close containers or step to the next member
            while True:
                if not stack:
                    return lines
                pos = self.ws(pos)
                top = stack[-1]
                if text[pos] in "}]":
                    stack.pop()
                    pos += 1
                    continue
                pos = self.ws(pos + 1)  # the comma
                top[2] += 1
                if top[1] == "{":
                    key, pos = scanstring(text, pos + 1, True)
                    pos = self.ws(pos) + 1
                    path = (*top[0], key)
                else:
                    path = (*top[0], top[2])
                break


def read_toml(text: str, *, file: str | None = None, max_depth: int = DEFAULT_DEPTH,
              max_size: int = DEFAULT_SIZE) -> Document:
    """A TOML text (``tomllib``); errors carry the line ``tomllib`` names. Values have no
    positions (``lines`` holds the root only)."""
    if len(text) > max_size:
        raise WireError(f"TOML text is larger than {max_size} characters", file=file)
    if (err := _depth_error(text, _TOML_TOKENS, max_depth, file, "TOML")) is not None:
        raise err
    try:
        value = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        m = _TOML_AT.search(str(exc))
        raise WireError(f"invalid TOML: {exc}", file=file,
                        line=int(m.group(1)) if m else None,
                        column=int(m.group(2)) if m else None) from None
    except (RecursionError, ValueError) as exc:
        raise WireError(f"invalid TOML: {exc!r}", file=file) from None
    return Document(value=value, lines={(): 1}, file=file)


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


def line_for(lines: Mapping[Path, int], path: Path) -> int | None:
    """The line of ``path`` or of its nearest ancestor that has one."""
    while True:
        if path in lines:
            return lines[path]
        if not path:
            return None
        path = path[:-1]


def json_writer(*, separators: tuple[str, str] = (",", ":"),
                default: Callable[[Any], Any] | None = None,
                allow_nan: bool = True) -> Callable[[Any], str]:
    """A function writing a value as JSON text, raw UTF-8 (``ensure_ascii=False``), what
    ``json.dumps`` with these options writes; made once, for the payload of every hook call.

    ``json.dumps`` (or ``JSONEncoder.encode``) builds a new C encoder and a cycle-tracking
    dict on each call, about 3 µs of a 5 µs payload here; this keeps one C encoder. It
    tracks no cycles: a cyclic value ends in ``RecursionError`` instead of ``ValueError``
    (payloads are built from JSON-like tool calls; the dispatcher reports either)."""
    item_separator, key_separator = separators
    make = getattr(json.encoder, "c_make_encoder", None)
    if make is None:  # no C accelerator (another Python): the library's own path
        return json.JSONEncoder(ensure_ascii=False, separators=separators, default=default,
                                allow_nan=allow_nan).encode

    def _no_default(value: Any) -> Any:
        raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")

    encoder = make(None, default or _no_default, json.encoder.encode_basestring,
                   None, key_separator, item_separator, False, False, allow_nan)

    def write(value: Any) -> str:
        return "".join(encoder(value, 0))

    return write
