"""HostAdapter's session blocks: a blocking adapter's ``async with`` is its own ``with`` block
(an adapter that installs itself there is installed either way), the session opens on first
use and ends at the block's end; a non-blocking adapter has only ``async with``."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest

from hookwire.driver import HostAdapter
from hookwire.kernel import Kernel

HOOK = r'''
import json, sys
data = json.load(sys.stdin)
with open(sys.argv[1], "a") as fh:
    fh.write(data["hook_event_name"] + "\n")
'''


class Adapter(HostAdapter):
    """An adapter whose ``with`` block installs it (as CrewAI's does)."""

    installed = 0

    def __enter__(self) -> Any:
        self.installed += 1
        return super().__enter__()


def kernel(tmp_path: Path) -> tuple[Kernel, Path]:
    (tmp_path / "hook.py").write_text(HOOK)
    log = tmp_path / "events.log"
    command = {"hooks": [{"type": "command",
                          "command": f"{sys.executable} {tmp_path / 'hook.py'} {log}"}]}
    settings = tmp_path / ".claude" / "settings.json"
    settings.parent.mkdir()
    settings.write_text(json.dumps({"hooks": {"SessionStart": [command],
                                              "SessionEnd": [command]}}))
    k = Kernel()
    k.add_config("claude", settings)
    return k, log


def test_async_with_is_the_blocking_adapters_with_block(tmp_path: Path) -> None:
    k, log = kernel(tmp_path)
    adapter = Adapter(k, host=None, cwd=str(tmp_path))

    async def main() -> None:
        async with adapter:
            assert not log.exists(), "the session opens on first use"
            run = adapter.driver.begin("hello")
            await adapter.acall(run.open)
            await adapter.acall(run.close)

    anyio.run(main)
    assert adapter.installed == 1
    assert log.read_text().split() == ["SessionStart", "SessionEnd"]


def test_a_non_blocking_adapter_has_only_async_with(tmp_path: Path) -> None:
    k, log = kernel(tmp_path)
    adapter = Adapter(k, host=None, blocking=False, cwd=str(tmp_path))
    with pytest.raises(TypeError, match="async with"):
        adapter.__enter__()

    async def main() -> None:
        async with adapter:
            assert log.read_text().split() == ["SessionStart"]

    anyio.run(main)
    assert log.read_text().split() == ["SessionStart", "SessionEnd"]
