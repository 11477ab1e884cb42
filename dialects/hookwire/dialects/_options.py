"""Structuring the ``options`` of hookwire's own hooks file into a dialect's typed handler.

Each dialect owns its converter (made here, never the global one): strict scalar types, and
``forbid_extra_keys`` so that a key the dialect does not take is an error naming it, not a
silently ignored setting.
"""

from __future__ import annotations

import enum
import json
from collections.abc import Mapping
from typing import Any

import attrs
import cattrs
from cattrs.gen import make_dict_structure_fn, override

from hookwire.errors import ConfigError


def _strict(*types: type) -> Any:
    def hook(value: Any, _: Any) -> Any:
        if type(value) not in types:
            raise TypeError(f"expected {' or '.join(t.__name__ for t in types)}, "
                            f"got {json.dumps(value, default=repr)[:40]}")
        return value
    return hook


def make_converter(cls: type, renames: Mapping[str, str] | None = None) -> cattrs.Converter:
    """A converter for ``cls`` that rejects unknown keys; ``renames``: attribute → key."""
    conv = cattrs.Converter(forbid_extra_keys=True, detailed_validation=True)
    conv.register_structure_hook(str, _strict(str))
    conv.register_structure_hook(bool, _strict(bool))
    conv.register_structure_hook(int, _strict(int))
    conv.register_structure_hook(float, lambda v, _: float(_strict(int, float)(v, _)))
    for field in attrs.fields(attrs.resolve_types(cls)):
        if isinstance(field.type, type) and issubclass(field.type, enum.Enum):
            # more specific than the str/int hooks above, which would take it unchecked
            conv.register_structure_hook(field.type, lambda v, t: t(v))
    conv.register_structure_hook_func(
        lambda t: t == tuple[str, ...],
        lambda v, _: tuple(conv.structure(x, str) for x in _strict(list, tuple)(v, _)))
    overrides: dict[str, Any] = {name: override(rename=key)
                                 for name, key in (renames or {}).items()}
    conv.register_structure_hook(cls, make_dict_structure_fn(
        cls, conv, _cattrs_forbid_extra_keys=True, **overrides))
    return conv


def structure(conv: cattrs.Converter, options: Mapping[str, Any], cls: type,
              dialect: str, renames: Mapping[str, str] | None = None) -> Any:
    """``options`` as a ``cls``; :class:`~hookwire.errors.ConfigError` naming what is wrong
    (``extra fields found (colour) @ $.options``)."""
    try:
        return conv.structure(dict(options), cls)
    except Exception as exc:  # cattrs' grouped validation errors
        messages = cattrs.transform_error(exc, path="$.options")
        for name, key in (renames or {}).items():
            messages = [m.replace(f"$.options.{name}", f"$.options.{key}") for m in messages]
        raise ConfigError(f"{dialect} hook options: {'; '.join(messages)}") from None
