"""Splitting shell command text into an argv, only where that is exact.

A foreign hook's shell text becomes an argv only when no shell feature changes its meaning:
words, single quotes, double quotes, backslash escapes and named variables we are told how to
resolve. Anything else — pipes, lists, redirections, subshells, command substitution,
globs, tilde and brace expansion, comments, assignments, other variables — raises
:class:`Unsafe` with the reason, and the command is left as it is (import rejects it; trust
pins only its text).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from types import MappingProxyType

_META = {"|": "a pipe or `||`", "&": "`&`/`&&`", ";": "a command list (`;`)",
         "<": "a redirection", ">": "a redirection", "(": "a subshell", ")": "a subshell",
         "`": "command substitution", "\n": "several lines", "\r": "a carriage return"}
_GLOB = "*?["
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_ASSIGN = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*=")
_DQ_ESCAPES = '$`"\\'
_NO_VARIABLES: Mapping[str, str] = MappingProxyType({})


class Unsafe(ValueError):
    """The text uses a shell feature that an argv cannot express exactly."""


def split(text: str,
          variables: Mapping[str, str] | Callable[[str], str | None] = _NO_VARIABLES,
          ) -> list[str]:
    """The argv ``text`` means to ``/bin/sh``. ``$NAME`` / ``${NAME}`` are replaced by
    ``variables[NAME]`` (a mapping or a function returning ``None`` for unknown names); any
    other expansion raises :class:`Unsafe`."""
    lookup = variables if callable(variables) else dict(variables).get
    words: list[str] = []
    word: list[str] = []
    started = False  # a word is open (even an empty quoted one)
    i, n = 0, len(text)

    def variable(at: int) -> tuple[str, int]:
        if text.startswith("${", at):
            end = text.find("}", at + 2)
            name = text[at + 2:end] if end >= 0 else ""
            nxt = end + 1
        else:
            m = _NAME.match(text, at + 1)
            name = m.group(0) if m else ""
            nxt = m.end() if m else at + 1
        if not _NAME.fullmatch(name or "-"):
            raise Unsafe(f"a shell expansion at column {at + 1} (`{text[at:at + 8]}`...)")
        value = lookup(name)
        if value is None:
            raise Unsafe(f"the variable ${name}, which hookwire cannot resolve")
        return value, nxt

    while i < n:
        c = text[i]
        if c in " \t":
            if started:
                words.append("".join(word))
                word, started = [], False
            i += 1
            continue
        if c in _META:
            raise Unsafe(f"a shell metacharacter {c!r} ({_META[c]})")
        if c in _GLOB:
            raise Unsafe(f"an unquoted glob character {c!r}")
        if c in "{}":
            raise Unsafe(f"an unquoted brace {c!r} (brace expansion)")
        if not started:
            if c == "#":
                raise Unsafe("a comment (`#`)")
            if c == "~":
                raise Unsafe("tilde expansion (`~`)")
            if not words and _ASSIGN.match(text, i):
                raise Unsafe("a variable assignment before the command")
        started = True
        if c == "\\":
            if i + 1 >= n or text[i + 1] == "\n":
                raise Unsafe("a trailing backslash or line continuation")
            word.append(text[i + 1])
            i += 2
        elif c == "'":
            end = text.find("'", i + 1)
            if end < 0:
                raise Unsafe("an unterminated single quote")
            word.append(text[i + 1:end])
            i = end + 1
        elif c == '"':
            i += 1
            while True:
                if i >= n:
                    raise Unsafe("an unterminated double quote")
                d = text[i]
                if d == '"':
                    i += 1
                    break
                if d == "`":
                    raise Unsafe("command substitution (backquote)")
                if d == "\\" and i + 1 < n and text[i + 1] in _DQ_ESCAPES:
                    word.append(text[i + 1])
                    i += 2
                elif d == "\\" and i + 1 < n and text[i + 1] == "\n":
                    raise Unsafe("a line continuation")
                elif d == "$":
                    value, i = variable(i)
                    word.append(value)
                else:
                    word.append(d)
                    i += 1
        elif c == "$":
            value, i = variable(i)
            word.append(value)
        else:
            word.append(c)
            i += 1
    if started:
        words.append("".join(word))
    return words
