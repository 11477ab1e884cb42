"""Pytest fixtures for dialect, plugin and host authors (loaded as the ``hookwire`` plugin).

* ``hook_script`` writes an executable hook script to ``tmp_path`` and returns its path;
* ``hookwire_kernel`` is a :class:`~hookwire.Kernel` with every installed dialect and plugin;
* ``bare_kernel`` is a kernel that loaded no entry points (register what the test needs).
"""

from __future__ import annotations

import stat
import textwrap
from collections.abc import Callable
from pathlib import Path

import pytest

from hookwire.kernel import Kernel

ScriptFactory = Callable[..., Path]


@pytest.fixture
def hook_script(tmp_path: Path) -> ScriptFactory:
    """``hook_script(body, name="hook.sh", shebang="#!/bin/sh")``: an executable script.

    ``body`` is dedented; pass ``shebang="#!/usr/bin/env python3"`` for a Python hook.
    """
    counter = iter(range(1_000_000))

    def make(body: str, name: str | None = None, shebang: str = "#!/bin/sh") -> Path:
        path = tmp_path / (name or f"hook{next(counter)}")
        path.write_text(f"{shebang}\n{textwrap.dedent(body).lstrip()}")
        path.chmod(path.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
        return path

    return make


@pytest.fixture
def hookwire_kernel() -> Kernel:
    """A kernel with every installed dialect and plugin loaded through entry points."""
    return Kernel()


@pytest.fixture
def bare_kernel() -> Kernel:
    """A kernel that loaded nothing from entry points."""
    return Kernel(load_entry_points=False)


def pid_alive(pid: int) -> bool:
    """True while ``pid`` names a process that is not a zombie."""
    try:
        with open(f"/proc/{pid}/stat") as fh:
            state = fh.read().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return False
    return state not in ("Z", "X")


__all__ = ["bare_kernel", "hook_script", "hookwire_kernel", "pid_alive"]
