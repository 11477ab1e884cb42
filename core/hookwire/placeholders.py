"""Placeholders in a hook's command: the variables a harness fills in before it runs a hook.

Claude Code substitutes ``${CLAUDE_PROJECT_DIR}`` and ``${CLAUDE_PLUGIN_ROOT}``, Gemini CLI
``$GEMINI_PROJECT_DIR`` and four more. A dialect declares how its harness spells them
(:attr:`hookwire.Dialect.placeholders`): ``hookwire import`` keeps them as variables when it
turns shell text into an argv, and the dialect's ``command`` must fill them in each word of
that argv before the hook runs (exec form: no shell is there to expand them). :func:`substitute`
does that; a dialect that forgets it would run ``$GEMINI_PROJECT_DIR/guard.sh`` literally, a
guard that never starts, so the default :meth:`hookwire.Dialect.prepare` refuses to build such
a command (:func:`unfilled`), which the kernel reports as a diagnostic of the hook.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

__all__ = ["substitute", "substitute_argv", "unfilled"]


def _pattern(names: Sequence[str]) -> re.Pattern[str]:
    alternatives = "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True))
    return re.compile(r"\$\{(" + alternatives + r")\}|\$(" + alternatives + r")(?![A-Za-z0-9_])")


def substitute(word: str, values: Mapping[str, str]) -> str:
    """``word`` with each ``$NAME`` and ``${NAME}`` of ``values`` replaced by its value, as
    is (an argv word reaches the hook without a shell: nothing to quote). ``$NAMEX`` is another
    variable and stays; a name not in ``values`` stays as written."""
    if not values or "$" not in word:
        return word
    return _pattern(list(values)).sub(lambda m: values[m.group(1) or m.group(2)], word)


def substitute_argv(argv: Sequence[str], values: Mapping[str, str]) -> tuple[str, ...]:
    """:func:`substitute` in every word of ``argv``."""
    return tuple(substitute(word, values) for word in argv)


def unfilled(argv: Sequence[str], names: Sequence[str]) -> str | None:
    """The first of ``names`` still written as a variable (``$NAME`` or ``${NAME}``) in a
    word of ``argv``, or ``None``."""
    if not names:
        return None
    pattern = _pattern(list(names))
    for word in argv:
        found = pattern.search(word)
        if found:
            return found.group(1) or found.group(2)
    return None
