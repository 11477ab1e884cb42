"""Every hookspec is documented, described in docs/seams.md and exercised by a test.

A new hookspec fails here until it has a full docstring (summary, ``Parameters:``,
``Returns:``, ``Since:`` in that order), a ``## <name>`` section in ``docs/seams.md`` and a
test under ``tests/`` that names it (datasette's meta-test).
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from hookwire import hookspecs

ROOT = Path(__file__).resolve().parents[2]
SEAMS_DOC = ROOT / "docs" / "seams.md"
MARKERS = ("Parameters:", "Returns:", "Since:")


def _declared() -> dict[str, Callable[..., Any]]:
    """Every function of ``hookwire.hookspecs`` carrying the hookspec marker."""
    attr = f"{hookspecs.PROJECT}_spec"
    return {name: fn for name, fn in vars(hookspecs).items()
            if inspect.isfunction(fn) and hasattr(fn, attr)}


NAMES = sorted({*hookspecs.SEAM_SPECS, *hookspecs.AUDIT_SPECS, "register_dialects",
                *getattr(hookspecs, "KERNEL_SPECS", ()), *_declared()})


def test_the_spec_lists_name_real_hookspecs() -> None:
    declared = _declared()
    listed = {*hookspecs.SEAM_SPECS, *hookspecs.AUDIT_SPECS,
              *getattr(hookspecs, "KERNEL_SPECS", ())}
    assert listed <= declared.keys(), f"listed but not hookspecs: {listed - declared.keys()}"
    assert "register_dialects" in declared


@pytest.mark.parametrize("name", NAMES)
def test_docstring_is_complete_and_in_order(name: str) -> None:
    fn = _declared().get(name)
    assert fn is not None, f"{name} is listed but is not a hookspec"
    doc = inspect.getdoc(fn) or ""
    summary = doc.split("\n", 1)[0].strip()
    assert summary, f"{name}: no one-line summary"
    assert summary.endswith("."), f"{name}: the summary is not a sentence: {summary!r}"
    at = []
    for marker in MARKERS:
        m = re.search(rf"^{re.escape(marker)}", doc, re.MULTILINE)
        assert m, f"{name}: no {marker!r} paragraph"
        assert doc[m.end():].split("\n\n", 1)[0].strip(), f"{name}: {marker!r} is empty"
        at.append(m.start())
    assert at == sorted(at), f"{name}: expected {', '.join(MARKERS)} in this order"
    assert re.search(r"^Since: \d+\.\d+", doc, re.MULTILINE), f"{name}: 'Since:' has no version"


@cache
def _doc_sections() -> frozenset[str]:
    text = SEAMS_DOC.read_text(encoding="utf-8")
    return frozenset(m[1] for m in re.finditer(r"^## `?(\w+)`?\s*$", text, re.MULTILINE))


@pytest.mark.parametrize("name", NAMES)
def test_has_a_section_in_docs_seams(name: str) -> None:
    assert name in _doc_sections(), f"docs/seams.md has no '## {name}' section"


@cache
def _test_sources() -> dict[str, str]:
    """Test modules and the support code they install or load (the packaging test's toy
    dialect), this meta-test excepted."""
    here = Path(__file__).resolve()
    return {
        str(path.relative_to(ROOT)): path.read_text(encoding="utf-8")
        for path in sorted((ROOT / "tests").rglob("*.py"))
        if path.resolve() != here
    }


def _reference(name: str) -> re.Pattern[str]:
    """A use of the hookspec, not the English word: an implementation (``def stop(``), a call
    (``.stop(``), the seam (``Seam.STOP``) or its name as a string (``"stop"``)."""
    n = re.escape(name)
    return re.compile(rf"def {n}\(|\.{n}\(|Seam\.{name.upper()}\b|[\"']{n}[\"']")


@pytest.mark.parametrize("name", NAMES)
def test_is_exercised_by_a_test(name: str) -> None:
    pattern = _reference(name)
    users = [path for path, text in _test_sources().items() if pattern.search(text)]
    assert users, f"no test under tests/ uses the {name!r} hookspec"
