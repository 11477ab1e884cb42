"""Which waiting hooks a session names as PENDING (``hookwire.problems.hook_problems``): a hook
its harness's settings turn off is left out (an approval would not run it); one the harness
has not trusted yet, or whose harness cannot say, stays named."""

from __future__ import annotations

from typing import Any

import pytest

from hookwire import HookEntry, ProblemKind, Provenance
from hookwire.dialect import HarnessTrust
from hookwire.dialects.claude import ClaudeDialect
from hookwire.problems import hook_problems
from hookwire.tools import ToolMap


class _Harness(ClaudeDialect):
    def __init__(self, answer: HarnessTrust | Exception) -> None:
        super().__init__()
        self.answer = answer

    def harness_trust(self, entry: HookEntry) -> HarnessTrust:
        if isinstance(self.answer, Exception):
            raise self.answer
        return self.answer


class _Gate:
    def waiting(self, entry: HookEntry) -> str:
        return f"{entry.display} waits for approval: approve it with `hookwire trust x`"


@pytest.mark.parametrize(("answer", "named"), [
    (HarnessTrust(runs=False, kind=ProblemKind.DISABLED, why="turned off"), False),
    (HarnessTrust(runs=False, kind=ProblemKind.UNTRUSTED, why="not trusted yet"), True),
    (HarnessTrust(), True),
    (RuntimeError("cannot say"), True),
])
def test_only_a_hook_its_settings_turn_off_is_left_out(answer: Any, named: bool) -> None:
    entry = HookEntry(dialect="claude", event="PreToolUse", matcher="Bash", command="true",
                      provenance=Provenance.PROJECT)
    problems = hook_problems([entry], {"claude": _Harness(answer)}, None, None, ToolMap(),
                             gate=_Gate())
    pending = [p for p in problems if p.kind is ProblemKind.PENDING]
    assert len(pending) == (1 if named else 0), problems
