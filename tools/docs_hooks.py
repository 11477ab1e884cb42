"""MkDocs hooks of the documentation site (``mkdocs.yml``): generated pages.

* ``changelog.md``: the repository's CHANGELOG.md;
* ``schemas/hooks-file-v1.json``: the hooks file schema, at the address its ``$id`` names;
* ``dialects/divergences.md``: every documented divergence of each dialect (the ``| Dn |`` rows
  of its profile) with the tests that cover it, found by scanning ``tests/dialects/<dialect>``
  for the id (``test_d3_...``, or ``D3`` in a test's name, docstring or comment) and for the
  test the profile names. A divergence no test covers is a warning, so the strict build fails.
"""

from __future__ import annotations

import ast
import logging
import re
from pathlib import Path
from typing import Any

from mkdocs.structure.files import File, Files

ROOT = Path(__file__).resolve().parents[1]
log = logging.getLogger("mkdocs.plugins.hookwire")
_ROW = re.compile(r"^\|\s*(D\d+)\s*\|(.*)$")


def on_files(files: Files, config: Any) -> Files:
    pages = {
        "changelog.md": (ROOT / "CHANGELOG.md").read_text(encoding="utf-8"),
        "schemas/hooks-file-v1.json": (ROOT / "core" / "hookwire" / "config" / "schema.json")
        .read_text(encoding="utf-8"),
        "dialects/divergences.md": divergences_page(),
    }
    for path, content in pages.items():
        files.append(File.generated(config, path, content=content))
    return files


def _tests(folder: Path) -> list[tuple[str, str, str]]:
    """``(file, test name, text)`` of every test function under ``folder``."""
    found = []
    for path in sorted(folder.rglob("test_*.py")):
        source = path.read_text(encoding="utf-8")
        lines = source.splitlines()
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and \
                    node.name.startswith("test"):
                text = "\n".join(lines[node.lineno - 1:node.end_lineno])
                found.append((path.name, node.name, text))
    return found


def divergences_page() -> str:
    out = ["# Divergences and their tests", "",
           "Generated from each dialect's profile and its tests when the site is built: every "
           "place a dialect knowingly differs from its harness, and the tests that cover it "
           "(a test whose name carries the id, `test_d3_...`, one that names the id, or the "
           "test the profile names).", ""]
    for dialect in ("claude", "codex", "gemini", "portable"):
        profile = ROOT / "docs" / "dialects" / f"{dialect}.md"
        rows = [m for line in profile.read_text(encoding="utf-8").splitlines()
                if (m := _ROW.match(line))]
        own = _tests(ROOT / "tests" / "dialects" / dialect)
        everywhere = _tests(ROOT / "tests")
        out += [f"## {dialect}", "", f"Profile: [{dialect}]({dialect}.md).", ""]
        if not rows:
            out += ["No documented divergence.", ""]
            continue
        out += ["| id | divergence | covered by |", "|---|---|---|"]
        previous: list[str] = []
        for m in rows:
            ident, rest = m[1], m[2]
            cells = [c.strip() for c in rest.split("|")]
            what = cells[0] if cells else ""
            tested = cells[2] if len(cells) > 2 else ""
            named = {t for _, t in re.findall(r"`(?:([\w.]+\.py)::)?(test_\w+)`", tested)}
            files = set(re.findall(r"`(test_\w+\.py)`", tested))
            pattern = re.compile(rf"(\btest_d{ident[1:]}_|\b{ident}\b)")
            covering = [f"`{f}::{n}`" for f, n, text in own
                        if pattern.search(n) or pattern.search(text)]
            covering += [f"`{f}::{n}`" for f, n, _ in everywhere if n in named]
            covering += [f"`{f}` (the whole file)" for f in sorted(files)
                         if any(t[0] == f for t in everywhere)]
            if tested == "same":  # the profile says: the tests of the row above
                covering += previous
            if not covering:
                log.warning("divergence %s of %s has no test under tests/", ident, dialect)
            previous = covering
            short = what if len(what) <= 160 else what[:157] + "…"
            out.append(f"| {ident} | {short} | {', '.join(dict.fromkeys(covering)) or '—'} |")
        out.append("")
    return "\n".join(out)
