"""``hookwire`` core never imports ``hookwire.dialects`` or ``hookwire.plugins``.

Built-in dialects and plugins reach the kernel only through entry points, the door a third
party uses. Two proofs: a static scan of every core module (absolute and relative imports,
``importlib.import_module``/``__import__`` with a literal name), and a fresh interpreter that
imports every core module without loading entry points and finds neither slice in
``sys.modules``.
"""

from __future__ import annotations

import ast
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CORE = ROOT / "core"
FORBIDDEN = ("hookwire.dialects", "hookwire.plugins")


def _module_name(path: Path) -> str:
    parts = path.relative_to(CORE).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _is_forbidden(name: str) -> bool:
    return any(name == f or name.startswith(f + ".") for f in FORBIDDEN)


def _resolve(module: str | None, level: int, current: str, is_package: bool) -> str:
    """The absolute name ``from <level dots><module> import ...`` refers to in ``current``."""
    if level == 0:
        return module or ""
    base = current.split(".") if is_package else current.split(".")[:-1]
    if level > 1:
        base = base[: -(level - 1)]
    return ".".join([*base, module] if module else base)


def forbidden_imports(source: str, current: str, *, is_package: bool = False) -> list[str]:
    """Every import of a forbidden slice in ``source`` (module ``current``), as ``line: name``."""
    found: list[str] = []
    for node in ast.walk(ast.parse(source)):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = _resolve(node.module, node.level, current, is_package)
            # `from hookwire import dialects` imports the subpackage itself.
            names = [base, *(f"{base}.{alias.name}" for alias in node.names)]
        elif isinstance(node, ast.Call):
            func = node.func
            fname = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            if fname in ("import_module", "__import__") and node.args:
                arg = node.args[0]
                if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                    name = arg.value
                    if name.startswith("."):
                        level = len(name) - len(name.lstrip("."))
                        name = _resolve(name.lstrip(".") or None, level, current, is_package)
                    names = [name]
        found += [f"{getattr(node, 'lineno', 0)}: {n}" for n in names if _is_forbidden(n)]
    return found


def core_modules() -> list[Path]:
    return sorted(p for p in (CORE / "hookwire").rglob("*.py") if "__pycache__" not in p.parts)


@pytest.mark.parametrize(
    ("source", "current", "is_package"),
    [
        ("import hookwire.dialects.claude", "hookwire.kernel", False),
        ("from hookwire.plugins import audit", "hookwire.kernel", False),
        ("from hookwire import dialects", "hookwire.kernel", False),
        ("from . import plugins", "hookwire", True),
        ("from .dialects.claude import events", "hookwire.kernel", False),
        ("from ..plugins import x", "hookwire.reference.agent", False),
        ("def f():\n    import hookwire.dialects", "hookwire.cli", False),
        ("importlib.import_module('hookwire.dialects.codex')", "hookwire.cli", False),
        ("import_module('.plugins.audit', 'hookwire')", "hookwire.kernel", False),
        ("__import__('hookwire.plugins')", "hookwire.kernel", False),
    ],
)
def test_the_scanner_sees_every_form_of_import(source: str, current: str,
                                               is_package: bool) -> None:
    assert forbidden_imports(source, current, is_package=is_package)


@pytest.mark.parametrize(
    "source",
    [
        "from hookwire import Kernel, hookimpl",
        "from hookwire.dialect import Dialect",
        "import hookwire.dialect",
        "GROUP = 'hookwire.dialects'  # an entry-point group name, not an import",
        "from . import dialect",
    ],
)
def test_the_scanner_lets_core_imports_through(source: str) -> None:
    assert forbidden_imports(source, "hookwire.kernel") == []


def test_core_sources_import_nothing_from_dialects_or_plugins() -> None:
    modules = core_modules()
    assert len(modules) > 5, f"no core modules found under {CORE}"
    offences = []
    for path in modules:
        found = forbidden_imports(path.read_text(encoding="utf-8"), _module_name(path),
                                  is_package=path.name == "__init__.py")
        offences += [f"{path.relative_to(ROOT)}:{hit}" for hit in found]
    assert offences == []


_PROBE = """
import importlib, json, sys
import hookwire
for name in json.loads(sys.argv[1]):
    importlib.import_module(name)
hookwire.Kernel(load_entry_points=False)
print(json.dumps(sorted(m for m in sys.modules if m.startswith("hookwire"))))
"""


def test_importing_all_of_core_loads_neither_slice() -> None:
    names = [_module_name(p) for p in core_modules()]
    proc = subprocess.run([sys.executable, "-c", _PROBE, json.dumps(names)],
                          capture_output=True, text=True, cwd=ROOT / "tests", timeout=120)
    assert proc.returncode == 0, proc.stderr
    loaded = json.loads(proc.stdout)
    assert set(names) <= set(loaded)
    assert [m for m in loaded if _is_forbidden(m)] == []


# -- core names no built-in dialect ---------------------------------------------------------------
#
# Core gets everything dialect-specific through the dialect contract (config paths,
# placeholders, export, the harness's own trust, problem kinds), so a third-party dialect gets
# `import`, `trust` and `check` by implementing it. The scan reads identifiers (names,
# attributes, definitions, arguments, imports) and string constants, f-string parts included.
# Docstrings are prose and may name a harness; comments are not in the AST. Allowed besides:
# the CLI's help texts (`help=` / `description=` / `epilog=`, which may name dialects as
# examples), the demo and the reference host.

BUILT_IN = re.compile(r"claude|codex|portable|CLAUDE_|CODEX_", re.IGNORECASE)
#: Files allowed to name built-in dialects, relative to core/hookwire.
NAMING_ALLOWED = {
    "demo.py",            # the demo runs the built-in dialects' sample hooks
    "reference",          # the reference host (a folder)
}
_HELP_KEYWORDS = frozenset({"help", "description", "epilog"})


def _docstrings(tree: ast.AST) -> set[int]:
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
                    and isinstance(body[0].value.value, str):
                found.add(id(body[0].value))
    return found


def _help_texts(tree: ast.AST) -> set[int]:
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.keyword) and node.arg in _HELP_KEYWORDS:
            found |= {id(n) for n in ast.walk(node.value)}
    return found


def dialect_names(source: str) -> list[str]:
    """Every identifier or string constant (not a docstring or help text) in ``source`` that
    names a built-in dialect, as ``line: text``."""
    tree = ast.parse(source)
    skip = _docstrings(tree) | _help_texts(tree)
    found = []
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        text: str | None = None
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            text = node.value
        elif isinstance(node, ast.Name):
            text = node.id
        elif isinstance(node, ast.Attribute):
            text = node.attr
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            text = node.name
        elif isinstance(node, ast.arg):
            text = node.arg
        elif isinstance(node, ast.alias):
            text = f"{node.name} {node.asname or ''}"
        elif isinstance(node, ast.keyword) and node.arg:
            text = node.arg
        if text is not None and BUILT_IN.search(text):
            found.append(f"{getattr(node, 'lineno', '?')}: {text[:80]!r}")
    return found


@pytest.mark.parametrize("source", [
    'PATHS = {"claude": ".claude/settings.json"}',
    'env = {"CLAUDE_PROJECT_DIR": root}',
    'if why.startswith("codex"):\n    pass',
    'text = f"{x} in ${CODEX_HOME}"',
    "def f():\n    '''Docstring.'''\n    return 'portable'",
    "from hookwire.x import claude_paths",
    "claude = 1",
    "obj.codex_home",
    "def f(claude_dir): pass",
    "f(codex=1)",
    "class ClaudeThing: pass",
])
def test_the_name_scan_sees_names_in_code(source: str) -> None:
    assert dialect_names(source)


@pytest.mark.parametrize("source", [
    '"""Runs Claude Code, Codex and portable-profile hooks."""',
    "class A:\n    '''As Claude Code does.'''",
    "def f():\n    '''e.g. codex.'''\n    return 1",
    'p.add_argument("dialect", help="e.g. claude or codex")',
    'sub.add_parser("x", help="a " + "claude", description="Codex")',
    "x = 1  # claude does this too",
    'name = dialect.name',
])
def test_the_name_scan_lets_prose_and_help_through(source: str) -> None:
    assert dialect_names(source) == []


def _allowed(path: Path) -> bool:
    rel = path.relative_to(CORE / "hookwire").as_posix()
    return any(rel == a or rel.startswith(a + "/") for a in NAMING_ALLOWED)


def test_the_allowed_files_exist() -> None:
    # an allowance for a file that is gone allows nothing; remove it with the file
    base = CORE / "hookwire"
    assert [a for a in NAMING_ALLOWED if not (base / a).exists()] == []


def test_core_names_no_built_in_dialect() -> None:
    offences = []
    for path in core_modules():
        if _allowed(path):
            continue
        found = dialect_names(path.read_text(encoding="utf-8"))
        offences += [f"{path.relative_to(ROOT)}:{hit}" for hit in found]
    assert offences == []
