"""Checking an event built from user data (``hookwire fire --data``) against its field types.

Events are plain attrs classes without validators (the hot path builds them from a host's own
values); data typed by a person is checked here instead, so ``{"tool_name": 3}`` is an error
naming the field rather than a hook fed a number, and a missing field reads as one.
"""

from __future__ import annotations

import re
import types
import typing
from collections.abc import Mapping
from typing import Any

import attrs

from hookwire.errors import EventDataError
from hookwire.events import SeamEvent

_MISSING = re.compile(r"__init__\(\) missing \d+ required keyword-only arguments?: (.+)")
_UNEXPECTED = re.compile(r"__init__\(\) got an unexpected keyword argument '(\w+)'")
_NAMES = {str: "a string", bool: "true or false", int: "an integer", float: "a number",
          dict: "an object", list: "a list", tuple: "a list", type(None): "null"}


def readable(exc: EventDataError, native: str) -> EventDataError:
    """``exc`` with Python's constructor wording (``ToolPre.__init__() missing 1 required
    keyword-only argument: 'tool_name'``) replaced by the missing or unknown field's name."""
    text = str(exc)
    missing = _MISSING.search(text)
    if missing:
        names = re.findall(r"'(\w+)'", missing[1])
        fields = ", ".join(repr(n) for n in names)
        return EventDataError(f"{native} needs the field{'s' * (len(names) > 1)} {fields}",
                              path="$")
    unexpected = _UNEXPECTED.search(text)
    if unexpected:
        return EventDataError(f"{native} has no field {unexpected[1]!r}",
                              path=f"$.{unexpected[1]}")
    return exc


def check(event: SeamEvent) -> None:
    """Raise :class:`EventDataError` for the first field of ``event`` whose value does not
    have its declared type (``@ $.tool_name``)."""
    hints = typing.get_type_hints(type(event))
    for field in attrs.fields(type(event)):
        expected = hints.get(field.name)
        value = getattr(event, field.name)
        if expected is None or _fits(value, expected):
            continue
        raise EventDataError(f"{field.name} must be {_describe(expected)}, not "
                             f"{_describe(type(value))} ({_short(value)})",
                             path=f"$.{field.name}")


def _fits(value: Any, expected: Any) -> bool:
    if expected is Any:
        return True
    origin = typing.get_origin(expected)
    if origin in (typing.Union, types.UnionType):
        return any(_fits(value, arg) for arg in typing.get_args(expected))
    if expected is type(None) or expected is None:
        return value is None
    if origin is not None:
        expected = origin
    if expected is float:
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if expected is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if expected is Mapping or expected is dict:
        return isinstance(value, Mapping)
    if isinstance(expected, type):
        return isinstance(value, expected)
    return True


def _describe(t: Any) -> str:
    args = typing.get_args(t)
    if args and typing.get_origin(t) not in (tuple, Mapping, dict):
        return " or ".join(_describe(a) for a in args)
    base = typing.get_origin(t) or t
    if base is Mapping:
        return "an object"
    return _NAMES.get(base, getattr(base, "__name__", str(base)))


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."
