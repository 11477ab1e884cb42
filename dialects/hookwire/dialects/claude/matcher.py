"""Claude Code's matcher (2.1.332, observed on the real program).

1. Trimmed; ``""``, ``"*"`` or absent matches everything.
2. Only letters, digits, ``_``, ``-``, spaces, ``,`` and ``|``: a list of exact,
   case-sensitive names split on ``|`` or ``,`` (FileChanged and StopFailure: only letters,
   digits, ``_`` and ``|``, split on ``|``).
3. Anything else: a JavaScript ``RegExp`` tested with ``.test()``: unanchored, no flags.
   Python's ``re`` is close enough for matcher-sized patterns once the few syntaxes that differ
   are handled: JavaScript has no inline flags (``(?i)`` is a syntax error there, so it never
   matches) and spells named groups ``(?<name>...)``. An invalid pattern matches nothing.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable

_EXACT = re.compile(r"[A-Za-z0-9_ ,|-]+")
_EXACT_NARROW = re.compile(r"[A-Za-z0-9_|]+")
#: ``(?`` openers JavaScript accepts: non-capturing, look-arounds and named groups.
_JS_GROUP = re.compile(r"\(\?(?!:|=|!|<=|<!|<[A-Za-z_$])")
_NAMED = re.compile(r"\(\?<(?![=!])")


def matches(matcher: str | None, value: str | None, *, narrow: bool = False) -> bool:
    """Whether ``matcher`` selects ``value`` (the tool name, source, reason, ...)."""
    if matcher is None:
        return True
    test = predicate(matcher, narrow)
    if test is None:
        return True
    return value is not None and test(value)


@functools.lru_cache(maxsize=1024)
def predicate(matcher: str, narrow: bool) -> Callable[[str], bool] | None:
    """The compiled test of one matcher (``None``: matches everything). Matchers are tested on
    every dispatch, hooks or not, so the parsing happens once."""
    pattern = matcher.strip()
    if pattern in ("", "*"):
        return None
    if (_EXACT_NARROW if narrow else _EXACT).fullmatch(pattern):
        seps = r"\|" if narrow else r"[|,]"
        return frozenset(p.strip() for p in re.split(seps, pattern)).__contains__
    compiled = _compile(pattern)
    if compiled is None:
        return _never
    search = compiled.search
    return lambda value: search(value) is not None


def _never(value: str) -> bool:
    return False


def is_regex(matcher: str | None, *, narrow: bool = False) -> bool:
    """Whether ``matcher`` takes the regular-expression path."""
    if matcher is None or matcher.strip() in ("", "*"):
        return False
    return not (_EXACT_NARROW if narrow else _EXACT).fullmatch(matcher.strip())


def check(matcher: str | None, *, narrow: bool = False) -> str | None:
    """Why ``matcher`` can never match anything (an invalid regex), or ``None``."""
    if matcher is None or not is_regex(matcher, narrow=narrow):
        return None
    if _compile(matcher.strip()) is None:
        return f"matcher {matcher!r} is not a valid JavaScript regular expression; it never matches"
    return None


@functools.lru_cache(maxsize=512)
def _compile(pattern: str) -> re.Pattern[str] | None:
    if _JS_GROUP.search(pattern):
        return None  # (?i), (?P<...>), (?s) ...: syntax errors in JavaScript
    try:
        return re.compile(_NAMED.sub("(?P<", pattern))
    except (re.error, RecursionError, OverflowError):
        return None
