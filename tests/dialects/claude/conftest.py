"""Fixtures for the Claude Code dialect tests."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from hookwire import Kernel
from hookwire.dialects.claude import ClaudeDialect
from hookwire.dialects.claude.testing import write_settings


@pytest.fixture
def project(tmp_path: Path) -> Path:
    proj = tmp_path / "proj"
    proj.mkdir()
    return proj


@pytest.fixture
def claude_kernel(project: Path) -> Callable[..., Kernel]:
    """``claude_kernel({"PreToolUse": [group(...)]}, **top)``: a kernel with the Claude dialect
    and that hooks block as the project's ``.claude/settings.json``."""

    def make(hooks: dict[str, Any] | None = None, **top: Any) -> Kernel:
        kernel = Kernel(load_entry_points=False)
        kernel.add_dialect(ClaudeDialect())
        path = write_settings(project / ".claude" / "settings.json", hooks, **top)
        kernel.add_config("claude", path)
        return kernel

    return make
