"""Helpers for the Codex dialect tests: a kernel with the Codex dialect, a hooks.json writer and
one-call event firing (the same path as ``hookwire fire``)."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Mapping
from pathlib import Path
from typing import Any

import pytest

from hookwire import Kernel, Verdict
from hookwire.dialects.codex import CodexDialect

Fire = Callable[..., Awaitable[Verdict]]


def hooks_json(event: str, *commands: str | Mapping[str, Any], matcher: str | None = None,
               ) -> dict[str, Any]:
    handlers = [c if isinstance(c, Mapping) else {"type": "command", "command": c}
                for c in commands]
    group: dict[str, Any] = {"hooks": handlers}
    if matcher is not None:
        group["matcher"] = matcher
    return {"hooks": {event: [group]}}


@pytest.fixture
def codex_home(tmp_path: Path) -> Path:
    home = tmp_path / "codex-home"
    home.mkdir()
    return home


@pytest.fixture
def fire(tmp_path: Path, codex_home: Path) -> Fire:
    """``await fire(event, data, *commands, matcher=None, doc=None)``: write a hooks.json with
    the commands (or ``doc``), load it, dispatch the event built from Codex-spelled ``data``."""

    async def go(event: str, data: Mapping[str, Any], *commands: str | Mapping[str, Any],
                 matcher: str | None = None, doc: Mapping[str, Any] | None = None,
                 session: Mapping[str, Any] | None = None) -> Verdict:
        path = tmp_path / "hooks.json"
        path.write_text(json.dumps(doc or hooks_json(event, *commands, matcher=matcher)))
        kernel = Kernel(load_entry_points=False)
        dialect = CodexDialect(codex_home=codex_home, spill_dir=tmp_path / "spill")
        kernel.add_dialect(dialect)
        kernel.add_config("codex", path)
        fields = {"cwd": str(tmp_path), "session_id": "thread-1", **(session or {})}
        async with kernel.session(**fields) as s:
            return await s.dispatch(dialect.event_from_wire(event, data))

    return go
