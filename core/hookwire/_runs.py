"""How a trusted hook runs: the verified bytes, under the hook's own name.

The gate has read every file of the exec chain once and compared the digests with the record
(:mod:`hookwire._pins`). Here the command is rewritten so that what runs is what was hashed:

* the script a shell (``sh``/``bash``/``dash``/``zsh``/``ksh``) runs becomes
  ``sh [opts] -c '. /private/copy' ./the/script.sh args…``: the shell reads the verified copy
  while ``$0`` stays the script's own path, so ``dirname "$0"`` finds its siblings;
* the script Python runs becomes ``python [opts] -c <bootstrap> ./the/script.py args…``: the
  bootstrap compiles the verified copy under the script's own name, with ``__file__`` (the
  script's path joined to the cwd, as Python 3.9+ gives it), ``sys.argv[0]`` and
  ``sys.path[0]`` (its directory) as a direct run sets them;
* a program of the project itself (a local interpreter such as ``./bin/python3``, or a hook
  executed directly that is not a ``#!`` script) runs from its verified private copy (0500 in
  a 0700 folder only this process writes);
* files outside the project (system interpreters, ``env``) run from their path: their digest
  is checked, and no unprivileged process can change them.

* the script node runs gets ``node [opts] -r <preload> ./the/script.js args…``: the preload
  makes node's own loader read the verified copy of each pinned file (``require`` through its
  extension handlers, ``import`` through a registered ``load`` hook), so ``__filename``,
  ``process.argv[1]``, ``require.main`` and ``import.meta.url`` are those of a direct run.

Helper files (:mod:`hookwire._helpers`) run from verified copies too: a shell script's copy
sources the copies of its helpers (the source word is replaced on its line); Python imports
them through a finder that serves the verified bytes under their own names (``__file__``
unchanged, no bytecode cache read or written); node reads them as above.

Scripts of other interpreters (``ruby``, ``perl`` …) run from their own path after the check:
there the window between check and exec stays open, ``trust`` says so, and strict trust
refuses them.
"""

from __future__ import annotations

import hashlib
import json
import os
import shlex
from pathlib import Path

from hookwire import _shsource
from hookwire._chain import Chain, Link
from hookwire._files import atomic_write
from hookwire._helpers import HelperSet
from hookwire._pins import digest_of
from hookwire.runner import Command

_PY_BOOT = """\
import sys as _s, os as _o, __main__ as _m
_p = _s.argv[1]; del _s.argv[0]
if {path}: _s.path[0] = _o.path.dirname(_o.path.realpath(_p))
_p = _m.__file__ = _o.path.join(_o.getcwd(), _p)
with open({copy!r}, "rb") as _f: _c = compile(_f.read(), _p, "exec")
del _s, _o, _m, _p, _f
exec(_c)
"""
#: Python: pinned helper modules load from their verified copies under their own names.
_PY_HELPERS = """\
def _hookwire_helpers(copies):
    import sys, os.path
    from importlib.machinery import PathFinder, SourceFileLoader

    class Loader(SourceFileLoader):
        def get_data(self, path):
            if path != self.path:
                raise OSError(path)  # never a bytecode cache: it was not verified
            with open(copies[os.path.realpath(path)], "rb") as handle:
                return handle.read()

        def set_data(self, *args, **kwargs):
            pass

    class Finder:
        @staticmethod
        def find_spec(name, path=None, target=None):
            spec = PathFinder.find_spec(name, path, target)
            if spec is not None and spec.origin and os.path.realpath(spec.origin) in copies:
                spec.loader = Loader(name, spec.origin)
            return spec

    sys.meta_path.insert(0, Finder)
_hookwire_helpers({copies!r})
del _hookwire_helpers
"""
#: node: its own loader reads the verified copies of the pinned files.
_NODE_BOOT = """\
'use strict';
(() => {{
  const fs = require('fs');
  const Module = require('module');
  const copies = new Map(Object.entries({copies}));
  const ext = Module._extensions;
  for (const key of Object.keys(ext)) {{
    if (key === '.node') continue;
    const load = ext[key];
    ext[key] = function (module, filename) {{
      const copy = copies.get(filename);
      if (copy === undefined) return load.call(this, module, filename);
      const read = fs.readFileSync;
      fs.readFileSync = function (p, ...rest) {{
        return read.call(this, p === filename ? copy : p, ...rest);
      }};
      try {{ return load.call(this, module, filename); }} finally {{ fs.readFileSync = read; }}
    }};
  }}
  if ({esm} && typeof Module.register === 'function') {{
    const urls = {urls};
    Module.register('data:text/javascript,' + encodeURIComponent(
      `const urls = ${{JSON.stringify(urls)}};
import {{ readFileSync }} from 'node:fs';
export async function load(url, context, next) {{
  const found = await next(url, context);
  const copy = urls[url];
  if (copy === undefined || found.source == null) return found;
  return {{ ...found, source: readFileSync(copy), shortCircuit: true }};
}}`));
  }}
}})();
"""


def private_copy(folder: str, data: bytes, name: str, executable: bool) -> str:
    """A read-only copy of ``data`` named ``name`` in ``folder`` (one per content)."""
    sub = os.path.join(folder, digest_of(data)[7:39] + ("" if executable else "-r"))
    target = os.path.join(sub, name)
    if not os.path.exists(target):
        os.makedirs(sub, mode=0o700, exist_ok=True)
        atomic_write(target, data, mode=0o500 if executable else 0o400)
    return target


def rewrite(chain: Chain, data: dict[str, bytes], folder: str, command: Command,
            helpers: HelperSet | None = None) -> list[str]:
    """The argv that runs exactly the verified bytes of ``chain`` (and of its ``helpers``)."""
    argv = list(chain.argv)
    # right to left, so that an insertion never moves a later link's index
    for link in sorted(chain.links, key=lambda k: -k.index):
        if link.index < 0 or link.path not in data:
            continue  # outside the project: its path is checked and stays
        copies: dict[str, str] = {}
        if link.role == "script" and helpers is not None and (
                helpers.data or link.launcher in ("shell", "node")):
            copy, copies = _with_helpers(link, argv, data[link.path], helpers, folder,
                                         command)
        else:
            copy = private_copy(folder, data[link.path], os.path.basename(link.path),
                                link.role == "script" or os.access(link.path, os.X_OK))
        if link.role == "program":
            argv[link.index] = copy
        elif link.launcher == "shell" and _shell(argv[link.index - 1] if link.index else ""):
            prefix = "setopt no_function_argzero 2>/dev/null; " \
                if "zsh" in os.path.basename(argv[0]) else ""
            argv[link.index:link.index] = ["-c", f"{prefix}. {shlex.quote(copy)}"]
        elif link.launcher == "python":
            isolated = any(a in ("-I", "-P") or (a.startswith("-") and not a.startswith("--")
                                                 and ("I" in a or "P" in a))
                           for a in argv[:link.index])
            boot = _PY_BOOT.format(path=not isolated, copy=copy)
            served = {p: c for p, c in copies.items()
                      if helpers is not None and helpers.language.get(p) == "python"}
            if served:
                boot = _PY_HELPERS.format(copies=served) + boot
            argv[link.index:link.index] = ["-c", boot]
        elif link.launcher == "node":
            at = link.index - 1 if link.index and argv[link.index - 1] == "--" else link.index
            argv[at:at] = ["-r", copy]
    return argv


def _set_dir(folder: str, link: Link, script: bytes, helpers: HelperSet, argv: list[str],
             command: Command) -> str:
    """The private folder of one script with its helpers (one per everything it depends on:
    the bytes, the paths and how the source words resolved)."""
    key = hashlib.sha256(script)
    key.update(repr((link.path, link.runner, argv[link.index], command.cwd,
                     sorted((p, digest_of(b)) for p, b in helpers.data.items()),
                     sorted((p, [(r.start, r.end, r.target) for r in refs])
                            for p, refs in helpers.refs.items()))).encode())
    sub = os.path.join(folder, "s" + key.hexdigest()[:32])
    os.makedirs(sub, mode=0o700, exist_ok=True)
    return sub


def _with_helpers(link: Link, argv: list[str], script: bytes, helpers: HelperSet,
                  folder: str, command: Command) -> tuple[str, dict[str, str]]:
    """Write the verified copies of the script and its helpers: the script's copy (for node:
    the preload that serves them), and each helper's copy by its original path."""
    sub = _set_dir(folder, link, script, helpers, argv, command)
    copies = {path: os.path.join(sub, f"h{i}", os.path.basename(path))
              for i, path in enumerate(sorted(helpers.data))}
    bash = os.path.basename(link.runner or "").startswith("bash")
    for path, body in helpers.data.items():
        if helpers.language.get(path) == "shell" and path in helpers.refs:
            body = _shell_copy(body, helpers, path, copies, bash=bash, main=False)
        _write(copies[path], body, 0o400)
    main = os.path.join(sub, os.path.basename(link.path))
    if link.launcher == "shell":
        _write(main, _shell_copy(script, helpers, link.path, copies, bash=bash, main=True),
               0o500)
        return main, copies
    _write(main, script, 0o500 if link.launcher != "node" else 0o400)
    if link.launcher != "node":
        return main, copies
    copies[link.path] = main
    served = {p: c for p, c in copies.items() if helpers.language.get(p, "node") == "node"}
    boot = _NODE_BOOT.format(
        copies=json.dumps(served), esm="true" if helpers.esm else "false",
        urls=json.dumps({Path(p).as_uri(): c for p, c in served.items()}))
    path = os.path.join(sub, "hookwire-preload.cjs")
    _write(path, boot.encode(), 0o400)
    return path, copies


def _shell_copy(body: bytes, helpers: HelperSet, path: str, copies: dict[str, str], *,
                bash: bool, main: bool) -> bytes:
    text = body.decode("utf-8", "surrogateescape")
    text = _shsource.rewrite(text, list(helpers.refs.get(path, ())), copies, bash=bash,
                             main=main, here=path)
    return text.encode("utf-8", "surrogateescape")


def _write(target: str, data: bytes, mode: int) -> None:
    if not os.path.exists(target):
        os.makedirs(os.path.dirname(target), mode=0o700, exist_ok=True)
        atomic_write(target, data, mode=mode)


def _shell(previous: str) -> bool:
    """A shell's script operand can take ``-c`` before it unless an option argument is
    pending (``-o posix`` ends with the argument, which is fine)."""
    return previous != "--"
