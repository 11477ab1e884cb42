"""The wire shapes of a portable ``hooks.json`` as attrs classes, read by this dialect's own
cattrs converter (detailed validation, strict scalars, ``forbid_extra_keys``: the format
rejects unknown keys at the top level and in a handler).

The converter checks types only; :mod:`.config` adds what a type cannot say (paths, limits,
reserved names) and keeps the format's failure policy: a bad top level rejects the file, a bad
handler is skipped with its problems.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal

import attrs
import cattrs
from cattrs.errors import ClassValidationError, ForbiddenExtraKeysError
from cattrs.gen import make_dict_structure_fn, override


@attrs.frozen(kw_only=True)
class HooksFile:
    schema: str
    hooks: dict[str, Any]


@attrs.frozen(kw_only=True)
class HandlerSpec:
    command: str
    args: tuple[str, ...] = ()
    env: dict[str, str] = attrs.field(factory=dict)
    cwd: str | None = None
    timeout: float | None = None
    result: Literal["none", "context"] = "none"


@attrs.frozen(kw_only=True)
class ResultEnvelope:
    """A context-result handler's stdout (``schema/result.schema.json``); other keys
    (``metadata``) are the handler's own and not read."""

    context: str = ""


class _Refused(ValueError):
    pass


def _strict(ok: Callable[[Any], bool]) -> Callable[[Any, Any], Any]:
    def hook(value: Any, _: Any) -> Any:
        if not ok(value):
            raise _Refused(type(value).__name__)
        return value
    return hook


def _number(value: Any, _: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise _Refused(type(value).__name__)
    return float(value)


def _on(conv: cattrs.Converter, cls: Any, hook: Callable[[Any, Any], Any]) -> None:
    conv.register_structure_hook_func(lambda t: t == cls, hook)


def make_converter() -> cattrs.Converter:
    conv = cattrs.Converter(detailed_validation=True)
    conv.register_structure_hook(str, _strict(lambda v: isinstance(v, str)))
    conv.register_structure_hook(float, _number)
    _on(conv, dict[str, Any], _strict(lambda v: isinstance(v, dict)))
    _on(conv, Literal["none", "context"], _strict(lambda v: v in ("none", "context")))

    def strings(value: Any, _: Any) -> tuple[str, ...]:
        if not isinstance(value, list) or not all(isinstance(a, str) for a in value):
            raise _Refused("not a list of strings")
        return tuple(value)

    def env(value: Any, _: Any) -> dict[str, str]:
        if not isinstance(value, dict) or not all(isinstance(v, str) for v in value.values()):
            raise _Refused("not a map of strings")
        return dict(value)

    _on(conv, tuple[str, ...], strings)
    _on(conv, dict[str, str], env)
    conv.register_structure_hook(HandlerSpec, make_dict_structure_fn(
        HandlerSpec, conv, _cattrs_forbid_extra_keys=True))
    conv.register_structure_hook(ResultEnvelope, make_dict_structure_fn(ResultEnvelope, conv))
    conv.register_structure_hook(HooksFile, make_dict_structure_fn(
        HooksFile, conv, _cattrs_forbid_extra_keys=True, schema=override(rename="$schema")))
    return conv


CONVERTER = make_converter()


@attrs.frozen
class Failures:
    """What the converter refused: the fields with a wrong type or missing, and the unknown
    keys (in the document's order)."""

    fields: frozenset[str] = frozenset()
    unknown: tuple[str, ...] = ()


def structure(raw: dict[str, Any], cls: type) -> tuple[Any, Failures]:
    """``raw`` as ``cls`` (``None`` when refused) and what was refused."""
    try:
        return CONVERTER.structure(raw, cls), Failures()
    except ClassValidationError as exc:
        fields: set[str] = set()
        unknown: set[str] = set()
        noted, plain = exc.group_exceptions()
        for _inner, note in noted:
            fields.add("$schema" if note.name == "schema" else str(note.name))
        for inner in plain:
            if isinstance(inner, ForbiddenExtraKeysError):
                unknown |= inner.extra_fields
        return None, Failures(frozenset(fields), tuple(k for k in raw if k in unknown))
