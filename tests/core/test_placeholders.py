"""Placeholders in an argv (``hookwire.placeholders``): the contract gap a dialect written from
the docs alone met (issue 24): a Gemini CLI ``$GEMINI_PROJECT_DIR/guard.sh`` imported as an
argv ran literally, a guard that never started, and the call went ahead without a word."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, ClassVar

import pytest

from hookwire import Command, Decision, HookEntry, Kernel, SeamEvent, SessionInfo
from hookwire.placeholders import substitute, substitute_argv, unfilled
from hookwire.testing import EchoDialect


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def test_substitute_fills_both_spellings_and_nothing_else() -> None:
    values = {"PROJ": "/a b", "PROJ_DIR": "/c"}
    assert substitute("$PROJ/x ${PROJ}/y", values) == "/a b/x /a b/y"
    assert substitute("$PROJ_DIR/z", values) == "/c/z"  # the longer name, not PROJ + _DIR
    assert substitute("$PROJX ${OTHER} $HOME", values) == "$PROJX ${OTHER} $HOME"
    assert substitute_argv(("run", "${PROJ}/g.sh"), values) == ("run", "/a b/g.sh")
    assert unfilled(("run", "${PROJ}/g.sh"), ["PROJ"]) == "PROJ"
    assert unfilled(("run", "$PROJX"), ["PROJ"]) is None


class Forgetful(EchoDialect):
    """A dialect that declares a placeholder; ``fill`` says whether its command fills it."""

    placeholders: ClassVar[Mapping[str, str]] = {"TOY_DIR": "$TOY_DIR"}

    def __init__(self, fill: bool) -> None:
        super().__init__()
        self.fill = fill

    def command(self, entry: HookEntry, event: SeamEvent, native: str,
                session: SessionInfo) -> Command:
        command = super().command(entry, event, native, session)
        if self.fill and command.argv is not None:
            import attrs

            argv = substitute_argv(command.argv, {"TOY_DIR": session.project_dir})
            command = attrs.evolve(command, argv=argv)
        return command


@pytest.mark.anyio
@pytest.mark.parametrize("fill", [True, False])
async def test_an_unfilled_placeholder_is_reported_not_run(
        fill: bool, tmp_path: Path, hook_script: Callable[..., Path]) -> None:
    guard = hook_script("echo 'no rm' >&2; exit 2", name="guard.sh")
    dialect = Forgetful(fill)
    kernel = Kernel(load_entry_points=False)
    kernel.add_dialect(dialect)
    argv: Sequence[str] = ("$TOY_DIR/" + guard.name,)
    kernel.add_hooks([dialect.entry("tool_pre", argv)])
    async with kernel.session(cwd=str(tmp_path), project_dir=str(guard.parent)) as s:
        verdict = await s.tool_pre("Bash", {"command": "rm -rf /"})
    report: Any = verdict.hooks[0]
    if fill:
        assert verdict.decision is Decision.DENY and verdict.reason == "no rm"
        return
    assert verdict.decision is Decision.NONE and report.outcome == "error"
    assert "placeholder TOY_DIR" in verdict.diagnostics[0]
    assert "hookwire.placeholders.substitute" in verdict.diagnostics[0]
