"""The shape of core: no import circle among its modules, and modules of a readable size."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

CORE = Path(__file__).resolve().parents[2] / "core" / "hookwire"
#: About 400 lines a module (style.md: split one that passes that unless it is one engine).
MAX_LINES = 420


def _module(path: Path) -> str:
    parts = path.relative_to(CORE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(tree: ast.AST, package: str) -> set[str]:
    """Every hookwire module imported anywhere in ``tree`` (function bodies included), except
    under ``if TYPE_CHECKING:``."""
    found: set[str] = set()

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            base = node.module
            if node.level:
                parts = package.split(".")
                base = ".".join([*parts[:len(parts) - node.level + 1], node.module])
            found.add(base)
            found.update(f"{base}.{a.name}" for a in node.names)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return {m for m in found if m.startswith("hookwire")}


def _graph() -> dict[str, set[str]]:
    modules = {_module(p): p for p in CORE.rglob("*.py")}
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        deps = _imports(ast.parse(path.read_text()), package)
        # the package itself re-exports everything: importing it is not a dependency edge
        graph[name] = {d for d in deps if d in modules and d != name and d != "hookwire"}
    return graph


def test_core_has_no_import_circle() -> None:
    graph = _graph()
    assert "hookwire.kernel" in graph and "hookwire.session" in graph
    state: dict[str, int] = {}
    path: list[str] = []

    def walk(node: str) -> None:
        state[node] = 1
        path.append(node)
        for dep in sorted(graph[node]):
            if state.get(dep) == 1:
                cycle = [*path[path.index(dep):], dep]
                pytest.fail("import circle: " + " -> ".join(cycle))
            if dep not in state:
                walk(dep)
        path.pop()
        state[node] = 2

    for node in sorted(graph):
        if node not in state:
            walk(node)


def test_the_circle_check_can_fail() -> None:
    tree = ast.parse("from hookwire.session import Session\n"
                     "if TYPE_CHECKING:\n    from hookwire.kernel import Kernel\n"
                     "def f():\n    from hookwire import dispatch\n")
    assert _imports(tree, "hookwire") == {"hookwire.session", "hookwire.session.Session",
                                         "hookwire", "hookwire.dispatch"}


def test_kernel_is_a_facade() -> None:
    assert len((CORE / "kernel.py").read_text().splitlines()) <= 200


@pytest.mark.parametrize("path", sorted(CORE.rglob("*.py")), ids=lambda p: str(p.relative_to(CORE)))
def test_core_modules_are_readable_sizes(path: Path) -> None:
    lines = len(path.read_text().splitlines())
    assert lines <= MAX_LINES, f"{path.name} has {lines} lines: split it by job"
