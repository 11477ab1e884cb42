"""How a trusted hook runs: the verified bytes, under the hook's own name.

The gate has read every file of the exec chain once and compared the digests with the record
(:mod:`hookwire._pins`). Here the command is rewritten so that what runs is what was hashed:

* the script a shell (``sh``/``bash``/``dash``/``zsh``/``ksh``) runs becomes
  ``sh [opts] -c '. /private/copy' ./the/script.sh args…``: the shell reads the verified copy
  while ``$0`` stays the script's own path, so ``dirname "$0"`` finds its siblings;
* the script Python runs becomes ``python [opts] -c <bootstrap> ./the/script.py args…``: the
  bootstrap compiles the verified copy under the script's own name, with ``__file__``,
  ``sys.argv[0]`` and ``sys.path[0]`` (its directory) as a direct run sets them;
* a program of the project itself (a local interpreter such as ``./bin/python3``, or a hook
  executed directly that is not a ``#!`` script) runs from its verified private copy (0500 in
  a 0700 folder only this process writes);
* files outside the project (system interpreters, ``env``) run from their path: their digest
  is checked, and no unprivileged process can change them.

Scripts of other interpreters (``node``, ``ruby`` …) run from their own path after the check:
there the window between check and exec stays open, and ``trust`` says so.
"""

from __future__ import annotations

import os
import shlex

from hookwire._chain import Chain
from hookwire._files import atomic_write
from hookwire._pins import digest_of, local
from hookwire.runner import Command

_PY_BOOT = """\
import sys as _s, os as _o, __main__ as _m
_p = _s.argv[1]; del _s.argv[0]
if {path}: _s.path[0] = _o.path.dirname(_o.path.realpath(_p))
_m.__file__ = _p
with open({copy!r}, "rb") as _f: _c = compile(_f.read(), _p, "exec")
del _s, _o, _m, _p, _f
exec(_c)
"""


def private_copy(folder: str, data: bytes, name: str, executable: bool) -> str:
    """A read-only copy of ``data`` named ``name`` in ``folder`` (one per content)."""
    sub = os.path.join(folder, digest_of(data)[7:39] + ("" if executable else "-r"))
    target = os.path.join(sub, name)
    if not os.path.exists(target):
        os.makedirs(sub, mode=0o700, exist_ok=True)
        atomic_write(target, data, mode=0o500 if executable else 0o400)
    return target


def rewrite(chain: Chain, data: dict[str, bytes], folder: str, command: Command) -> list[str]:
    """The argv that runs exactly the verified bytes of ``chain``."""
    argv = list(chain.argv)
    # right to left, so that an insertion never moves a later link's index
    for link in sorted(chain.links, key=lambda k: -k.index):
        if link.index < 0 or link.path not in data:
            continue  # outside the project: its path is checked and stays
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
            argv[link.index:link.index] = ["-c", boot]
    return argv


def _shell(previous: str) -> bool:
    """A shell's script operand can take ``-c`` before it unless an option argument is
    pending (``-o posix`` ends with the argument, which is fine)."""
    return previous != "--"


def runs_from_copy(chain: Chain, command: Command) -> bool:
    """Whether every file of ``chain`` the project owns runs from verified bytes."""
    for link in chain.links:
        if link.index < 0 or not local(link.path, command):
            continue
        if link.role == "script" and link.launcher not in ("shell", "python"):
            return False
    return True
