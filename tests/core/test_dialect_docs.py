"""docs/writing-a-dialect.md has a field table for every class a dialect reads or builds (the
contract gap of issue 24: a dialect author had to read the source for the fields of the
events, ``Outcome`` and ``Answer``). Each table must list exactly the class's fields, so a field
added to the class and not to the page fails here."""

from __future__ import annotations

import re
from pathlib import Path

import attrs
import pytest

from hookwire import Answer, Command, Outcome, SessionInfo
from hookwire.events import EVENT_TYPES, SeamEvent

PAGE = Path(__file__).resolve().parents[2] / "docs" / "writing-a-dialect.md"


def _section(title: str) -> str:
    text = PAGE.read_text(encoding="utf-8")
    start = text.index(f"\n### {title}\n")
    end = text.find("\n### ", start + 1)
    return text[start:end if end != -1 else None]


def _first_column(section: str) -> list[str]:
    rows = [line for line in section.splitlines() if line.startswith("| `")]
    return [re.match(r"\| `([^`]+)`", row).group(1) for row in rows]  # type: ignore[union-attr]


@pytest.mark.parametrize("cls", [SessionInfo, Command, Outcome, Answer],
                         ids=lambda c: c.__name__)
def test_each_class_has_a_table_of_exactly_its_fields(cls: type) -> None:
    fields = [f.name for f in attrs.fields(cls)]
    assert _first_column(_section(f"`{cls.__name__}`")) == fields


def test_the_events_table_lists_every_event_and_its_own_fields() -> None:
    section = _section("Seam events")
    common = [f.name for f in attrs.fields(SeamEvent)]
    assert _first_column(section.split("\nAnd each its own")[0]) == common
    rows = {m.group(1): (m.group(2), m.group(3)) for m in re.finditer(
        r"^\| `(\w+)` \| `(\w+)` \| (.*) \|$", section, re.M)}
    assert set(rows) == {cls.__name__ for cls in EVENT_TYPES.values()}
    for seam, cls in EVENT_TYPES.items():
        documented, own_fields = rows[cls.__name__]
        assert documented == seam.value
        own = [f.name for f in attrs.fields(cls) if f.name not in common]
        named = re.findall(r"`(\w+)", own_fields)
        assert [n for n in named if n in own] == own, cls.__name__
