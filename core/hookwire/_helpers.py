"""The helper files a hook loads from its own folder, pinned beside its exec chain.

For the script a chain runs (:mod:`hookwire._chain`), and then for each helper found:

* a shell script: the files it sources (:mod:`hookwire._shsource`);
* a Python script: the modules it imports that live beside it (``sys.path[0]``), packages
  included, and what those import in turn; a name it imports that is *not* beside it is
  pinned as absent (a ``json.py`` dropped beside the hook later would shadow the standard
  library);
* a node script: the files it loads by relative ``require``, ``import`` or ``export … from``.

A reference that cannot be resolved without running the hook (``. "$LIB"``,
``require(name)``, ``importlib.import_module(x)``) pins the hook's folder as a unit: every file
under the script's directory (``.git`` and ``__pycache__`` left out), at most
:data:`MAX_FILES` files and :data:`MAX_BYTES` bytes in all. Ruby, perl and other scripts also
pin their folder as a unit. Past the bounds nothing more is pinned, and ``window`` says so.
"""

from __future__ import annotations

import ast
import hashlib
import os
import re
import sys
from collections.abc import Callable, Mapping

import attrs

from hookwire import _shsource
from hookwire._chain import Chain, Link

#: Bounds of what helper pinning reads (static helpers and a folder unit alike).
MAX_FILES = 256
MAX_BYTES = 8 * 1024 * 1024
#: How deep helpers of helpers are followed.
MAX_DEPTH = 8
SKIP_DIRS = frozenset({".git", "__pycache__"})
#: The digest recorded for a file that must stay absent (see module docstring).
ABSENT = "absent"
_NODE_EXTS = ("", ".js", ".json", ".node", ".cjs", ".mjs")
_NODE_REF = re.compile(
    r"""\brequire\s*\(\s*(['"`])([^'"`]+)\1\s*\)"""
    r"""|\b(?:import|export)\b[^'";]*?\bfrom\s*(['"])([^'"]+)\3"""
    r"""|\bimport\s*\(?\s*(['"])([^'"]+)\5""")
_NODE_DYNAMIC = re.compile(r"""\brequire\s*\(\s*[^'"`\s)]|\bimport\s*\(\s*[^'"`\s)]""")
_NODE_ESM = re.compile(r"^\s*(?:import\b[^(]|export\b)", re.M)
_PY_PATH_LOAD = frozenset({"exec", "run_path", "spec_from_file_location", "load_source",
                           "SourceFileLoader"})
_PY_NAME_LOAD = frozenset({"__import__", "import_module"})


@attrs.frozen(kw_only=True)
class HelperSet:
    """What a hook loads from its folder: ``files`` ``(path, digest)`` sorted (``digest`` is
    :data:`ABSENT` for a file that must not appear); ``folder`` when the folder is pinned as a
    unit (``why``: the reference that made it so); ``window`` when some of it is read from its
    path after the check, or is not pinned; the bytes read (``data``), each helper's
    ``language`` and each shell file's source commands (``refs``)."""

    files: tuple[tuple[str, str], ...] = ()
    folder: str | None = None
    why: str | None = None
    window: str | None = None
    data: Mapping[str, bytes] = attrs.field(factory=dict, eq=False)
    language: Mapping[str, str] = attrs.field(factory=dict, eq=False)
    refs: Mapping[str, tuple[_shsource.Ref, ...]] = attrs.field(factory=dict, eq=False)
    esm: bool = False


class _Scan:
    def __init__(self, cwd: str, env: Mapping[str, str],
                 read: Callable[[str], bytes]) -> None:
        self.cwd, self.env, self.read = cwd, env, read
        self.files: dict[str, str] = {}
        self.data: dict[str, bytes] = {}
        self.language: dict[str, str] = {}
        self.refs: dict[str, tuple[_shsource.Ref, ...]] = {}
        self.dynamic: str | None = None
        self.window: str | None = None
        self.esm = False
        self.total = 0
        self.full = False

    def take(self, path: str, language: str) -> bytes | None:
        """Read and pin ``path`` once; ``None`` when it was pinned before or is over bounds."""
        if path in self.files or path in self.data:
            return None
        if len(self.files) >= MAX_FILES:
            self.full = True
            self.window = self.window or f"it loads more than {MAX_FILES} helper files"
            return None
        try:
            size = os.stat(path).st_size
        except OSError:
            size = 0  # the read below says why
        data = self.read(path) if self.total + size <= MAX_BYTES else b""
        self.total += max(size, len(data))
        if self.total > MAX_BYTES:
            self.full = True
            self.window = self.window or f"its helper files exceed {MAX_BYTES} bytes"
            return None
        digest = "sha256:" + hashlib.sha256(data).hexdigest()
        self.files[path], self.data[path], self.language[path] = digest, data, language
        return data

    def absent(self, path: str) -> None:
        self.files.setdefault(path, ABSENT)

    # -- shell -------------------------------------------------------------------------------

    def shell(self, path: str, data: bytes, zero: str, depth: int) -> None:
        text = data.decode("utf-8", "surrogateescape")
        refs = []
        for ref in _shsource.sources(text, zero=zero, here=path, cwd=self.cwd, env=self.env):
            if ref.target is None:
                self.dynamic = self.dynamic or f"{os.path.basename(path)} sources `{ref.word}`"
            elif not os.path.isfile(ref.target):
                self.absent(ref.target)
            else:
                ref = attrs.evolve(ref, target=os.path.realpath(ref.target))
                more = self.take(ref.target or "", "shell")
                if more is not None and depth < MAX_DEPTH:
                    self.shell(ref.target or "", more, zero, depth + 1)
            refs.append(ref)
        self.refs[path] = tuple(refs)

    # -- python ------------------------------------------------------------------------------

    def python(self, path: str, data: bytes, root: str, depth: int) -> None:
        try:
            tree = ast.parse(data, filename=path)
        except (SyntaxError, ValueError):
            return  # it fails to compile as it would have anyway
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    self.module(alias.name, root, root, depth)
            elif isinstance(node, ast.ImportFrom):
                names = [a.name for a in node.names]
                if not node.level:
                    self.module(node.module or "", root, root, depth, also=names)
                    continue
                pkg = os.path.dirname(path)
                for _ in range(node.level - 1):
                    pkg = os.path.dirname(pkg)
                self.module(node.module or "", pkg, root, depth, also=names, top=False)
            elif isinstance(node, ast.Call):
                name = (node.func.id if isinstance(node.func, ast.Name) else
                        node.func.attr if isinstance(node.func, ast.Attribute) else "")
                if name in _PY_NAME_LOAD and not self.dynamic:
                    self.dynamic = f"{os.path.basename(path)} imports by name ({name})"
                if name in _PY_PATH_LOAD:
                    self.dynamic = self.dynamic or f"{os.path.basename(path)} calls {name}"
                    self.window = self.window or (
                        f"{os.path.basename(path)} loads code by path ({name}): that file is "
                        "read from its path after the check")
            elif isinstance(node, ast.Attribute) and node.attr == "path" and isinstance(
                    node.value, ast.Name) and node.value.id == "sys" and not self.dynamic:
                self.dynamic = f"{os.path.basename(path)} uses sys.path"

    def module(self, name: str, where: str, root: str, depth: int,
               also: list[str] | None = None, top: bool = True) -> None:
        """Pin the files of module ``name`` found under ``where`` (and, for ``from … import
        a, b``, the submodules ``a``, ``b``); a top-level name not beside the script is
        pinned as absent."""
        parts = [p for p in name.split(".") if p]
        if top and (not parts or parts[0] in sys.builtin_module_names
                    or parts[0] == "__future__"):
            return
        for i, part in enumerate(parts):
            folder = os.path.join(where, part)
            init = os.path.join(folder, "__init__.py")
            found = init if os.path.isfile(init) else folder + ".py"
            if not os.path.isfile(found):
                if top and i == 0 and not os.path.isdir(folder):
                    self.absent(folder + ".*")
                return
            self.py_file(found, root, depth)
            if found != init:
                return
            where = folder
        for sub in also or ():
            if os.path.isfile(os.path.join(where, sub + ".py")):
                self.py_file(os.path.join(where, sub + ".py"), root, depth)

    def py_file(self, path: str, root: str, depth: int) -> None:
        data = self.take(os.path.realpath(path), "python")
        if data is not None and depth < MAX_DEPTH:
            self.python(os.path.realpath(path), data, root, depth + 1)

    # -- node --------------------------------------------------------------------------------

    def node(self, path: str, data: bytes, depth: int) -> None:
        text = data.decode("utf-8", "replace")
        if path.endswith(".mjs") or _NODE_ESM.search(text):
            self.esm = True
        if _NODE_DYNAMIC.search(text):
            self.dynamic = self.dynamic or f"{os.path.basename(path)} loads a name it computes"
        for m in _NODE_REF.finditer(text):
            spec = m[2] or m[4] or m[6]
            if not spec.startswith(("./", "../", "/")) and spec not in (".", ".."):
                continue  # a package or a builtin, not the hook's own file
            base = os.path.normpath(os.path.join(os.path.dirname(path), spec))
            found = _node_resolve(base)
            if found is None:
                self.absent(base + ".*")
                continue
            more = self.take(found, "node")
            if found.endswith(".node"):
                self.window = self.window or (f"{os.path.basename(found)} is a native addon: "
                                              "node loads it from its path after the check")
            elif more is not None and depth < MAX_DEPTH:
                self.node(found, more, depth + 1)

    # -- a folder as a unit ------------------------------------------------------------------

    def folder(self, root: str, language: str) -> None:
        for dirpath, dirnames, filenames in os.walk(root):
            dirnames[:] = sorted(d for d in dirnames if d not in SKIP_DIRS)
            for name in sorted(filenames):
                path = os.path.realpath(os.path.join(dirpath, name))
                if os.path.isfile(path) and not self.full:
                    self.take(path, _language_of(path, language))
            if self.full:
                return


def _language_of(path: str, default: str) -> str:
    if path.endswith(".py"):
        return "python"
    if path.endswith((".js", ".cjs", ".mjs", ".json")):
        return "node"
    return default if default == "shell" and path.endswith(".sh") else "data"


def _node_resolve(base: str) -> str | None:
    for ext in _NODE_EXTS:
        if os.path.isfile(base + ext):
            return os.path.realpath(base + ext)
    for index in ("index.js", "index.json", "index.node"):
        if os.path.isfile(os.path.join(base, index)):
            return os.path.realpath(os.path.join(base, index))
    return None


def scan(chain: Chain, argv: list[str], cwd: str, env: Mapping[str, str],
         read: Callable[[str], bytes], script: bytes | None) -> HelperSet:
    """The helpers of the script ``chain`` runs (``script``: its bytes, when already read)."""
    link: Link | None = next((k for k in reversed(chain.links) if k.role == "script"), None)
    if link is None:
        return HelperSet()
    s = _Scan(cwd, env, read)
    data = script if script is not None else read(link.path)
    s.data[link.path] = data
    root = os.path.dirname(link.path)
    language = link.launcher or "other"
    if language == "shell":
        s.shell(link.path, data, argv[link.index] if link.index >= 0 else link.path, 0)
    elif language in ("python", "uv"):
        isolated = any(a in ("-I", "-P") or (a.startswith("-") and not a.startswith("--")
                                             and ("I" in a or "P" in a))
                       for a in argv[:link.index]) if language == "python" else False
        if not isolated:
            s.python(link.path, data, root, 0)
    elif language == "node":
        s.node(link.path, data, 0)
    else:
        runner = os.path.basename(link.runner or "") or "foreign"
        s.dynamic = f"{os.path.basename(link.path)} is a {runner} script"
        s.window = (f"{runner} scripts run from their path after the check, and so do the "
                    "files they load")
    folder = None
    if s.dynamic is not None:
        folder = root
        s.folder(root, language)
        if language == "shell":
            s.window = s.window or (f"{s.dynamic}: its folder is pinned, but a file it names "
                                    "at run time is read from its path after the check")
    del s.data[link.path]
    files = tuple(sorted((p, d) for p, d in s.files.items() if p != link.path))
    return HelperSet(files=files, folder=folder, why=s.dynamic, window=s.window,
                     data={p: b for p, b in s.data.items() if p != link.path},
                     language=s.language, refs=s.refs, esm=s.esm)


def difference(approved: tuple[tuple[str, str], ...] | None,
               now: tuple[tuple[str, str], ...]) -> str | None:
    """What changed among the helper files since the approval, naming the file, or ``None``.
    A record made before helpers were pinned (``approved is None``) covers none of them."""
    if approved is None:
        if not now:
            return None
        loaded = [p for p, d in now if d != ABSENT]
        if not loaded:
            return None
        more = f" and {len(loaded) - 1} more" if len(loaded) > 1 else ""
        return (f"it was approved before hookwire pinned the files a hook loads, and it loads "
                f"{loaded[0]}{more}: approve it again to pin them")
    old, new = dict(approved), dict(now)
    for path in sorted(old.keys() | new.keys()):
        was, is_ = old.get(path), new.get(path)
        if was == is_:
            continue
        if was is None or was == ABSENT:
            if is_ is None or is_ == ABSENT:
                continue  # a marker that is gone: what replaced it is named under its name
            return f"{path} appeared since it was approved, and the hook loads it"
        if is_ is None or is_ == ABSENT:
            return f"{path}, a file the hook loads, was removed since it was approved"
        return (f"{path}, a file the hook loads, changed since it was approved (content "
                f"{is_[:19]}, approved {was[:19]})")
    return None
