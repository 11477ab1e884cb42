"""The "can anything match this tool?" pre-check: Session.tool_pre with hooks none of which can
match builds no event; the answer follows hooks, plugins and tool mappings as they change."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

import anyio

from hookwire import Dialect, EventSpec, HookEntry, Kernel, Seam, SeamEvent, SessionInfo, hookimpl


class Counting(Dialect):
    name = "counting"
    harness = "test"
    events = {"Before": EventSpec(name="Before", seam=Seam.TOOL_PRE, matcher_field="tool_name",
                                  can_block=True)}

    def __init__(self) -> None:
        self.selects = 0

    def select(self, entries: Sequence[HookEntry], event: SeamEvent, native: str,
               session: SessionInfo) -> list[HookEntry]:
        self.selects += 1
        return []

    def matches_tool(self, entry: HookEntry, native: str, tool_name: str) -> bool:
        return entry.matcher is None or re.search(entry.matcher, tool_name) is not None


class Unsaid(Dialect):
    """A dialect that does not say how its matchers work: its select matches names case-
    insensitively, which no guess from outside would know."""

    name = "unsaid"
    harness = "test"
    events = Counting.events

    def select(self, entries: Sequence[HookEntry], event: SeamEvent, native: str,
               session: SessionInfo) -> list[HookEntry]:
        name = str(getattr(event, "tool_name", "")).lower()
        return [e for e in entries if (e.matcher or "").lower() == name]


def test_a_dialect_that_does_not_say_is_never_skipped() -> None:
    kernel = Kernel(load_entry_points=False)
    kernel.add_dialect(Unsaid())
    kernel.add_hooks([HookEntry(dialect="unsaid", event="Before", command=("/bin/false",),
                                matcher="bash")])
    assert not kernel.match_check.nothing_can_match(Seam.TOOL_PRE, "Bash")

    async def go() -> list[str]:
        session = kernel.session(cwd="/", host="reference", tools=["Bash"])
        verdict = await session.tool_pre("Bash", {"command": "ls"})
        assert [h.command for h in verdict.hooks] == ["/bin/false"]  # it ran
        return [str(p.kind) for p in session.check()]

    assert anyio.run(go) == []  # and no "no tool matches" warning on a guess


def _kernel(matcher: str) -> tuple[Kernel, Counting]:
    kernel = Kernel(load_entry_points=False)
    dialect = Counting()
    kernel.add_dialect(dialect)
    kernel.add_hooks([HookEntry(dialect="counting", event="Before", command=("/bin/false",),
                                matcher=matcher)])
    return kernel, dialect


def test_no_event_is_built_when_no_matcher_can_match() -> None:
    kernel, dialect = _kernel("^Write$")

    async def go() -> None:
        session = kernel.session(cwd="/")
        verdict = await session.tool_pre("Bash", {"command": "ls"})
        assert verdict.effective_input == {"command": "ls"} and not verdict.hooks
        assert dialect.selects == 0
        await session.tool_pre("Write", {"file_path": "x"})
        assert dialect.selects == 1  # a matcher that can match: the full dispatch ran

    anyio.run(go)


def test_answer_follows_hooks_plugins_and_mappings() -> None:
    kernel, dialect = _kernel("^Write$")
    seen: list[Any] = []

    class Watcher:
        @hookimpl
        def tool_pre(self, event: Any, session: Any) -> None:
            seen.append(event.tool_name)

    async def go() -> None:
        session = kernel.session(cwd="/")
        await session.tool_pre("Bash", {})
        assert dialect.selects == 0
        kernel.add_hooks([HookEntry(dialect="counting", event="Before", command=("/bin/false",),
                                    matcher="Bash")])
        await session.tool_pre("Bash", {})
        assert dialect.selects == 1  # a hook that can match was added
        watcher = Watcher()
        kernel.register(watcher)
        await session.tool_pre("Edit", {})
        assert seen == ["Edit"]  # a native plugin on the seam: something may match
        kernel.unregister(watcher)
        before = dialect.selects
        await session.tool_pre("Edit", {})
        assert dialect.selects == before

    anyio.run(go)
