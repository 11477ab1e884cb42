"""The documentation stands on its own (issue #14): no link or citation points outside the
repository (the research notes in ``../shared``, ``contracts/*.md``, ``design.md``), and every
relative link names a file that exists."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGES = sorted([ROOT / "README.md", *(ROOT / "docs").rglob("*.md")])
OUTSIDE = re.compile(r"\.\./shared|contracts/|\bdesign\.md\b")
LINK = re.compile(r"\]\(([^)\s]+)\)")


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_reference_outside_the_repository(page: Path) -> None:
    hits = [f"{i}: {line.strip()}" for i, line in enumerate(page.read_text().splitlines(), 1)
            if OUTSIDE.search(line)]
    assert not hits, "\n".join(hits)


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_relative_links_name_existing_files(page: Path) -> None:
    missing = []
    for target in LINK.findall(page.read_text()):
        if re.match(r"[a-z]+:", target) or target.startswith("#"):
            continue  # a URL or an anchor on the same page
        path = (page.parent / target.split("#")[0]).resolve()
        if not path.exists():
            missing.append(target)
        elif ROOT not in path.parents and path != ROOT:
            missing.append(f"{target} (outside the repository)")
    assert not missing, missing
