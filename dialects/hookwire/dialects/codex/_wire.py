"""The wire shapes of Codex's hook config (``hooks.json`` and the ``[hooks]`` table of
``config.toml``) as attrs classes, read by this dialect's own cattrs converter.

Parse rules of Codex 0.171.0 (serde), kept exactly:

* ``hooks.json`` root: only ``description`` (string or null) and ``hooks``; any other key fails
  the file (the one place with ``forbid_extra_keys``);
* ``hooks``: a map; unknown event names (and ``state``/``managed_dir`` in TOML) are ignored;
  a known event is a sequence of matcher groups;
* a group: ``matcher`` (string or null), ``hooks`` (a sequence; ``null`` fails); unknown keys
  ignored;
* a handler: internally tagged by ``type`` (``command``, ``mcp_tool``, ``prompt``, ``agent``);
  unknown keys ignored; ``null`` for an optional field is ``None``, for ``async`` an error;
  integers are u64.

Every failure is a :class:`WireFailure` with serde's wording and the JSON path of the value,
``msg @ $.hooks.Stop[0].hooks[1].timeout``; when there are several, the first in the document
(by line) is the one Codex reports.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from types import UnionType
from typing import Any, NewType, Union, get_args, get_origin

import attrs
import cattrs
from cattrs.errors import (
    AttributeValidationNote,
    ClassValidationError,
    ForbiddenExtraKeysError,
    IterableValidationError,
    IterableValidationNote,
)
from cattrs.gen import make_dict_structure_fn, override

from hookwire.dialects.codex import events as ev
from hookwire.dialects.codex import trust

U64 = NewType("U64", int)
_U64_MAX = 2**64 - 1
HANDLER_TYPES = ("command", "mcp_tool", "prompt", "agent")


class WireFailure(Exception):
    """A value serde would refuse: ``message`` in serde's words, ``pointer`` where it is."""

    def __init__(self, message: str, pointer: str = "$") -> None:
        super().__init__(f"{message} @ {pointer}")
        self.message = message
        self.pointer = pointer


class _Refused(ValueError):
    """Raised inside the converter; ``at_parent``: serde names the enclosing value (a missing
    field is reported at its struct)."""

    def __init__(self, message: str, *, at_parent: bool = False) -> None:
        super().__init__(message)
        self.at_parent = at_parent


@attrs.frozen(kw_only=True)
class CommandHook:
    type: str = "command"
    command: str
    command_windows: str | None = None
    async_: bool = False
    timeout: U64 | None = None
    status_message: str | None = None
    additional_context_limit: U64 | None = None


@attrs.frozen(kw_only=True)
class McpToolHook:
    type: str = "mcp_tool"
    server: str
    tool: str
    input: dict[str, Any] | None = None
    timeout: U64 | None = None
    status_message: str | None = None


@attrs.frozen(kw_only=True)
class OtherHook:
    """``prompt`` and ``agent``: parsed, skipped by the reader."""

    type: str


Handler = CommandHook | McpToolHook | OtherHook


@attrs.frozen(kw_only=True)
class MatcherGroup:
    matcher: str | None = None
    hooks: tuple[Handler, ...] = ()


Events = dict[str, tuple[MatcherGroup, ...]]


@attrs.frozen(kw_only=True)
class HooksFile:
    description: str | None = None
    hooks: Events = attrs.field(factory=dict)


def kind(value: Any) -> str:
    """serde's name of a JSON value in ``invalid type: ...``."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return f"boolean `{str(value).lower()}`"
    if isinstance(value, int):
        return f"integer `{value}`"
    if isinstance(value, _Buffered):
        return "map"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return f"string {json.dumps(value)}"
    return "sequence" if isinstance(value, list) else "map"


@attrs.frozen
class _Buffered:
    """A float among a handler's fields. Codex's serde_json keeps a non-integer number as its
    text (``arbitrary_precision``), a one-key map; the handler enum buffers its fields, so
    there the map is what a wrong type is called ("invalid type: map")."""

    value: float


def _strict(ok: Callable[[Any], bool], expected: str) -> Callable[[Any, Any], Any]:
    def hook(value: Any, _: Any) -> Any:
        if not ok(value):
            raise _Refused(f"invalid type: {kind(value)}, expected {expected}")
        return value
    return hook


def _mcp_input(value: Any, _: Any) -> dict[str, Any]:
    if not isinstance(value, dict):  # null too: absent is the only way to give no input
        raise _Refused(f"invalid type: {kind(value)}, expected a map")
    if not trust.toml_representable(value):
        raise _Refused("MCP hook input must be representable as TOML")
    return value


def _u64(value: Any, _: Any) -> int:
    if type(value) is not int:
        raise _Refused(f"invalid type: {kind(value)}, expected u64")
    if not 0 <= value <= _U64_MAX:  # an integer, out of range: serde says "value"
        raise _Refused(f"invalid value: integer `{value}`, expected u64")
    return value


def make_converter() -> cattrs.Converter:
    """Codex's converter: detailed validation, strict scalar types, serde's messages."""
    conv = cattrs.Converter(detailed_validation=True)
    conv.register_structure_hook(str, _strict(lambda v: isinstance(v, str), "a string"))
    conv.register_structure_hook(bool, _strict(lambda v: isinstance(v, bool), "a boolean"))
    conv.register_structure_hook(U64, _u64)
    _on(conv, dict[str, Any], _strict(lambda v: isinstance(v, dict), "a map"))
    renames: dict[str, Any] = {"async_": override(rename="async"),
               "status_message": override(rename="statusMessage"),
               "additional_context_limit": override(rename="additionalContextLimit")}
    variants: dict[str, Callable[[Any, Any], Any]] = {
        "command": make_dict_structure_fn(
            CommandHook, conv, command_windows=override(rename="commandWindows"), **renames),
        "mcp_tool": make_dict_structure_fn(McpToolHook, conv, **renames,
                                           input=override(struct_hook=_mcp_input)),
        "prompt": make_dict_structure_fn(OtherHook, conv),
        "agent": make_dict_structure_fn(OtherHook, conv),
    }

    def handler(value: Any, _: Any) -> Handler:
        if isinstance(value, float):  # its one-key map has no `type`
            raise _Refused("missing field `type`")
        if not isinstance(value, dict):
            raise _Refused(f"invalid type: {kind(value)}, expected internally tagged enum")
        tag = value.get("type")
        if tag is None:
            raise _Refused("missing field `type`")
        if tag not in HANDLER_TYPES:
            shown = tag if isinstance(tag, str) else kind(tag)
            raise _Refused(f"unknown variant `{shown}`, expected one of `command`, `mcp_tool`, "
                           "`prompt`, `agent`")
        if tag == "command" and value.get("commandWindows") is None \
                and "command_windows" in value:  # serde alias
            value = {**value, "commandWindows": value["command_windows"]}
        value = {k: _Buffered(v) if isinstance(v, float) and k != "input" else v
                 for k, v in value.items()}
        result: Handler = variants[tag](value, None)
        return result

    conv.register_structure_hook(Handler, handler)
    # hooks are looked up when a structure function is made: the inner ones first
    _on(conv, tuple[Handler, ...], _sequence(conv, Handler))
    group = make_dict_structure_fn(MatcherGroup, conv)
    conv.register_structure_hook(MatcherGroup, _mapping(group, "struct MatcherGroup"))
    _on(conv, tuple[MatcherGroup, ...], _sequence(conv, MatcherGroup))
    _on(conv, Events, _events(conv))
    root = make_dict_structure_fn(HooksFile, conv, _cattrs_forbid_extra_keys=True)
    conv.register_structure_hook(HooksFile, _mapping(root, "struct HooksFile"))
    return conv


def _on(conv: cattrs.Converter, cls: Any, hook: Callable[[Any, Any], Any]) -> None:
    """A hook for exactly the generic type ``cls`` (not a class: no singledispatch)."""
    conv.register_structure_hook_func(lambda t: _normal(t) == _normal(cls), hook)


def _normal(t: Any) -> Any:
    """``t`` with every union as a frozenset of its members: ``A | B`` and the
    ``typing.Union[A, B]`` that resolving a string annotation gives compare equal."""
    args = get_args(t)
    if not args:
        return t
    if get_origin(t) in (Union, UnionType):
        return frozenset(_normal(a) for a in args)
    return (get_origin(t), tuple(_normal(a) for a in args))


def _mapping(structure: Callable[[Any, Any], Any], expected: str) -> Callable[[Any, Any], Any]:
    def hook(value: Any, cls: Any) -> Any:
        if not isinstance(value, dict):
            raise _Refused(f"invalid type: {kind(value)}, expected {expected}")
        return structure(value, cls)
    return hook


def _sequence(conv: cattrs.Converter, item: Any) -> Callable[[Any, Any], Any]:
    def hook(value: Any, cls: Any) -> tuple[Any, ...]:
        if not isinstance(value, list):
            raise _Refused(f"invalid type: {kind(value)}, expected a sequence")
        out, errors = [], []
        for i, raw in enumerate(value):
            try:
                out.append(conv.structure(raw, item))
            except Exception as exc:
                exc.__notes__ = [*getattr(exc, "__notes__", []),
                                 IterableValidationNote(f"Structuring @ index {i}", i, item)]
                errors.append(exc)
        if errors:
            raise IterableValidationError(f"While structuring {cls!r}", errors, cls)
        return tuple(out)
    return hook


def _events(conv: cattrs.Converter) -> Callable[[Any, Any], Events]:
    """Known events in document order; the others ignored, unchecked."""
    def hook(value: Any, cls: Any) -> Events:
        if not isinstance(value, dict):
            raise _Refused(f"invalid type: {kind(value)}, expected a map of events")
        out: Events = {}
        errors = []
        for name, groups in value.items():
            if name not in ev.EVENTS:
                continue
            try:
                out[name] = conv.structure(groups, tuple[MatcherGroup, ...])
            except Exception as exc:
                exc.__notes__ = [*getattr(exc, "__notes__", []), AttributeValidationNote(
                    f"Structuring event {name}", name, tuple[MatcherGroup, ...])]
                errors.append(exc)
        if errors:
            raise ClassValidationError("While structuring hooks", errors, dict)
        return out
    return hook


CONVERTER = make_converter()
_WIRE_NAMES = {"async_": "async", "status_message": "statusMessage",
               "additional_context_limit": "additionalContextLimit",
               "command_windows": "commandWindows"}


def structure(data: Any, cls: type, base: str, lines: Mapping[str, int]) -> Any:
    """``data`` as ``cls``; a :class:`WireFailure` at the first failure in the document."""
    try:
        return CONVERTER.structure(data, cls)
    except Exception as exc:  # every converter error becomes a located one
        failures = list(_failures(exc, base))
    order = {p: i for i, p in enumerate(lines)}

    def place(failure: WireFailure) -> tuple[int, int]:
        pointer = failure.pointer
        while pointer not in lines and pointer != base and "." in pointer:
            pointer = pointer[:max(pointer.rfind("."), pointer.rfind("["))]
        return lines.get(pointer, 0), order.get(pointer, 0)

    raise min(failures, key=place) if lines else failures[0]


def _failures(exc: BaseException, pointer: str) -> list[WireFailure]:
    if isinstance(exc, ClassValidationError | IterableValidationError):
        out: list[WireFailure] = []
        noted, plain = exc.group_exceptions()
        for inner, note in noted:
            if isinstance(note, IterableValidationNote):
                out.extend(_failures(inner, f"{pointer}[{note.index}]"))
            else:
                name = str(note.name)
                out.extend(_failures(inner, f"{pointer}.{_WIRE_NAMES.get(name, name)}"))
        for inner in plain:
            out.extend(_failures(inner, pointer))
        return out
    if isinstance(exc, ForbiddenExtraKeysError):
        extra = sorted(exc.extra_fields)[0]
        return [WireFailure(f"unknown field `{extra}`, expected `description` or `hooks`",
                            pointer)]
    if isinstance(exc, KeyError):  # a required field: serde names it at its struct
        return [WireFailure(f"missing field `{exc.args[0]}`", pointer.rpartition(".")[0])]
    if isinstance(exc, _Refused):
        return [WireFailure(str(exc), pointer)]
    return [WireFailure(f"invalid value: {exc}", pointer)]
