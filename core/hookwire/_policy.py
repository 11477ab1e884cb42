"""Run-wide policy settings, cheap to import: trusted folders and the enforcement modes.

Trusted folders are where a repository's own hooks run without a per-hook approval.

A hook whose source a repository controls (:attr:`HookEntry.project` set: a project's Claude
Code settings and the plugins they enable, its ``.hookwire/hooks.yaml``, a portable plugin in
it) runs only when its project folder is trusted or its content was approved with
``hookwire trust``. A folder is trusted when it lies in (or is) one of:

* the folders a host names: ``Kernel(trusted_folders=[...])``;
* ``$HOOKWIRE_TRUSTED_FOLDERS``: absolute paths separated by ``os.pathsep`` (for CI);
* the user's list, written by ``hookwire trust --folder PATH`` (kept in ``trust.json``).

``Kernel(project_hooks="run")`` is the one switch that restores a harness's behaviour of
running a project's hooks without asking (Claude Code's print mode does not ask).

The enforcement modes (:data:`MODES`) are explained in :mod:`hookwire._modes`.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping

ENV = "HOOKWIRE_TRUSTED_FOLDERS"
#: ``project_hooks`` values: wait for folder trust or approval, or run as the harness would.
ASK, RUN = "ask", "run"


def normal(path: str | os.PathLike[str]) -> str:
    """The absolute, symlink-free form of ``path`` (what is stored and compared)."""
    return os.path.realpath(os.path.expanduser(os.fspath(path)))


def from_env(env: Mapping[str, str] | None = None) -> list[str]:
    """The folders ``$HOOKWIRE_TRUSTED_FOLDERS`` names (relative entries are ignored: a CI job
    names its workspace by absolute path)."""
    raw = (os.environ if env is None else env).get(ENV, "")
    return [normal(p) for p in raw.split(os.pathsep) if p.strip() and os.path.isabs(p.strip())]


def covering(project: str, folders: Iterable[str]) -> str | None:
    """The first of ``folders`` that is ``project`` or one of its parents, else ``None``."""
    here = normal(project)
    for folder in folders:
        top = normal(folder)
        if here == top or here.startswith(top.rstrip(os.sep) + os.sep):
            return top
    return None


def check_mode(value: str) -> str:
    if value not in (ASK, RUN):
        raise ValueError(f"project_hooks must be {ASK!r} or {RUN!r}, not {value!r}")
    return value


ENFORCE, FAIL_CLOSED, SHADOW = "enforce", "fail-closed", "shadow"
MODES = (ENFORCE, FAIL_CLOSED, SHADOW)


def check_enforcement(value: str) -> str:
    """``value`` if it is an enforcement mode, else :class:`ValueError` naming the three."""
    if value not in MODES:
        raise ValueError(f"enforcement must be one of {', '.join(MODES)}; got {value!r}")
    return value
