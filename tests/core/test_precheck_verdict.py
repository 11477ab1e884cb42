"""The no-match verdict of ``Session.tool_pre`` (#16): what a host sees is unchanged (its
``original_input`` and ``effective_input`` equal the call's input, never the host's own dict),
and an equal input gets the same immutable verdict back without building another."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hookwire import Decision, Kernel, Seam

pytestmark = pytest.mark.anyio


async def test_no_match_verdict_equals_each_calls_input(tmp_path: Path) -> None:
    settings = tmp_path / "settings.json"
    settings.write_text(json.dumps({"hooks": {"PreToolUse": [
        {"matcher": "Write", "hooks": [{"type": "command", "command": "exit 2"}]}]}}))
    kernel = Kernel()
    kernel.add_config("claude", settings)
    session = kernel.session(cwd=str(tmp_path))
    first_input = {"command": "ls"}
    first = await session.tool_pre("Bash", first_input)
    assert (first.seam, first.decision, first.hooks) == (Seam.TOOL_PRE, Decision.NONE, ())
    assert first.original_input == first.effective_input == {"command": "ls"}
    assert first.original_input is not first_input and not first.input_rewritten
    first_input["command"] = "rm -rf /"  # the host's dict is not the verdict's
    assert first.original_input == {"command": "ls"}
    again = await session.tool_pre("Bash", {"command": "ls"})
    assert again is first  # an equal input: the same verdict, nothing built
    other = await session.tool_pre("Read", {"file_path": "/etc/hosts"})
    assert other is not first and other.effective_input == {"file_path": "/etc/hosts"}
    assert first.original_input == {"command": "ls"}
