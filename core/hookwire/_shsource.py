"""The files a shell script sources, found without running it, and its copy that reads them.

:func:`sources` finds each ``. WORD`` / ``source WORD`` command of a script and evaluates
``WORD`` statically: literal paths, ``$0``, ``${BASH_SOURCE[0]}``, ``$(dirname …)``,
``${0%/*}``, ``$(cd … && pwd)``, ``$(realpath …)``, ``$(readlink -f …)``, variables the
script assigned earlier from such words, and variables of the command's environment. A word
it cannot evaluate (``. "$LIB"`` with ``LIB`` from elsewhere, a loop, a function argument)
is *dynamic*.

:func:`rewrite` gives the text that runs instead of a verified script: each resolved source
word replaced by the private copy of its file, on the same line (so ``$LINENO`` and error
lines stay right); in bash, ``${BASH_SOURCE[0]}`` of the main script becomes ``${0}``, which
is what a direct run gives it.
"""

from __future__ import annotations

import os
import re
import shlex
from collections.abc import Callable, Mapping

import attrs

#: A ``.``/``source`` command: at the start of a command (line start, after ``;`` ``&``
#: ``|`` ``(`` ``{``, or after ``then``/``do``/``else``).
_SOURCE = re.compile(r"(?:^|[;&|({]|\bthen|\bdo|\belse)[ \t]*(?:\.|source)[ \t]+(?=\S)")
_ASSIGN = re.compile(r"^[ \t]*(?:export[ \t]+|readonly[ \t]+|local[ \t]+|declare[ \t]+"
                     r"(?:-\w+[ \t]+)?)?([A-Za-z_]\w*)=(?=\S)")
_BASH_SOURCE = re.compile(r"\$\{BASH_SOURCE(?:\[0\])?\}|\$BASH_SOURCE\b(?!\[)")
#: ``${BASH_SOURCE[0]`` with any operator after it (``%/*``, ``:-x`` ...), or ``$BASH_SOURCE``.
_BASH_SOURCE_ANY = re.compile(r"\$\{BASH_SOURCE(?:\[0\])?(?=[}%#:/^,])|\$BASH_SOURCE\b")
_SAFE = re.compile(r"^[A-Za-z0-9_./@%+=:,-]+$")


@attrs.frozen(kw_only=True)
class Ref:
    """One source command: the ``WORD`` at ``start:end`` of the text, and the path it names
    (``None`` when dynamic)."""

    start: int
    end: int
    word: str
    target: str | None


def _word_end(text: str, i: int) -> int:
    """The end of the shell word starting at ``i`` (quotes, ``$( )``, ``${ }`` and backticks
    nested)."""
    depth, quote = 0, ""
    while i < len(text):
        ch = text[i]
        if quote == "'":
            quote = "" if ch == "'" else quote
        elif ch == "\\":
            i += 1
        elif ch == "`":
            quote = "" if quote == "`" else quote or "`"
        elif quote == '"' and ch == '"' and depth == 0:
            quote = ""
        elif ch == "'" and not quote and depth == 0:
            quote = "'"
        elif ch == '"' and not quote and depth == 0:
            quote = '"'
        elif text.startswith(("$(", "${"), i):
            depth += 1
            i += 1
        elif ch in ")}" and depth:
            depth -= 1
        elif not quote and depth == 0 and ch in " \t\n;&|)<>":
            return i
        i += 1
    return i


def _unquote(word: str) -> str:
    return word.replace('"', "").replace("'", "").replace(" -- ", " ")


def evaluate(word: str, *, zero: str, here: str, cwd: str,
             lookup: Callable[[str], str | None]) -> str | None:
    """The path ``word`` names, or ``None`` when it depends on the run. ``zero`` is ``$0``,
    ``here`` the path of the file the word is in (``$BASH_SOURCE``)."""
    w = _unquote(word)
    w = re.sub(r"\$\{0%/\*\}", lambda _: os.path.dirname(zero) or ".", w)
    w = re.sub(r"\$\{BASH_SOURCE(?:\[0\])?%/\*\}", lambda _: os.path.dirname(here) or ".", w)
    w = re.sub(r"\$\{0\}|\$0(?![0-9])", lambda _: zero, w)
    w = _BASH_SOURCE.sub(lambda _: here, w)

    def absolute(p: str) -> str:
        return os.path.normpath(os.path.join(cwd, p))

    commands: list[tuple[str, Callable[[re.Match[str]], str]]] = [
        (r"\$\((?:realpath|readlink -[fe]) ([^$`()\s]+)\)",
         lambda m: os.path.realpath(absolute(m[1]))),
        (r"\$\(dirname ([^$`()\s]+)\)|`dirname ([^$`()\s]+)`",
         lambda m: os.path.dirname(m[1] or m[2]) or "."),
        (r"\$\(cd ([^$`()\s;&]+)(?: *[0-9]?>[ ]*/dev/null(?: 2>&1)?)? *(?:&&|;) *pwd(?: -P)?\)",
         lambda m: os.path.realpath(absolute(m[1]))),
    ]
    for _ in range(6):  # nested forms resolve inside out
        before = w
        for pattern, value in commands:
            w = re.sub(pattern, value, w)
        if w == before:
            break
    missing = False

    def var(m: re.Match[str]) -> str:
        nonlocal missing
        found = lookup(m[1] or m[2])
        missing = missing or found is None
        return found or ""

    w = re.sub(r"\$\{([A-Za-z_]\w*)\}|\$([A-Za-z_]\w*)", var, w)
    if missing or not w or any(c in w for c in "$`*?[") or w.startswith("~"):
        return None
    return absolute(w)


def sources(text: str, *, zero: str, here: str, cwd: str,
            env: Mapping[str, str]) -> list[Ref]:
    """Every source command of ``text`` with its target (``None``: dynamic)."""
    known: dict[str, str | None] = {}

    def lookup(name: str) -> str | None:
        if name in known:
            return known[name]
        return env.get(name)

    refs: list[Ref] = []
    offset = 0
    for line in text.splitlines(keepends=True):
        body = line.lstrip()
        if not body.startswith("#"):
            assign = _ASSIGN.match(line)
            if assign:
                end = _word_end(line, assign.end())
                known[assign[1]] = evaluate(line[assign.end():end], zero=zero, here=here,
                                            cwd=cwd, lookup=lookup)
            for m in _SOURCE.finditer(line):
                end = _word_end(line, m.end())
                word = line[m.end():end]
                if not word or word.startswith("#"):
                    continue
                target = evaluate(word, zero=zero, here=here, cwd=cwd, lookup=lookup)
                refs.append(Ref(start=offset + m.end(), end=offset + end, word=word,
                                target=target))
        offset += len(line)
    return refs


def rewrite(text: str, refs: list[Ref], copies: Mapping[str, str], *, bash: bool,
            main: bool, here: str) -> str:
    """``text`` with each resolved source word replaced by the copy of its target
    (``copies``: original path → private copy; a target that is not there becomes a path
    that does not exist, as it did not at the check). In bash, ``$BASH_SOURCE`` is the main
    script's ``$0``, or the helper's own original path, as in a direct run."""
    out: list[str] = []
    at = 0
    for ref in sorted(refs, key=lambda r: r.start):
        if ref.target is None:
            continue
        out.append(_fix_bash_source(text[at:ref.start], bash=bash, main=main, here=here))
        out.append(shlex.quote(copies.get(ref.target, ref.target + ".hookwire-absent")))
        at = ref.end
    out.append(_fix_bash_source(text[at:], bash=bash, main=main, here=here))
    return "".join(out)


def _fix_bash_source(chunk: str, *, bash: bool, main: bool, here: str) -> str:
    if not bash:
        return chunk
    if main:
        return _BASH_SOURCE_ANY.sub(lambda m: "${0" if m[0].startswith("${") else "${0}", chunk)
    if _SAFE.match(here):
        return _BASH_SOURCE.sub(here, chunk)
    return chunk
