"""A rewritten tool input checked against the tool's JSON schema (for adapters whose runtime
does not check it again itself). jsonschema comes with the runtimes that need it (through
``mcp``); nothing here is imported without them."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def schema_error(schema: Mapping[str, Any] | None, value: Any) -> str | None:
    """Why ``value`` does not satisfy ``schema``, or ``None``."""
    import jsonschema  # type: ignore[import-untyped]

    try:
        jsonschema.validate(value, dict(schema or {}))
    except jsonschema.ValidationError as exc:
        return str(exc.message)
    return None
