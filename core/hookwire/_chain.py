"""The exec chain of a command: which files really run, through launchers and ``#!`` lines.

``env [-i] [-u N] [-C DIR] [-S 'words'] [N=v] prog``, ``sh``/``bash``/``zsh`` options
(``-o posix``, ``-O opt``, ``--norc`` ...), ``python``/``python3`` (``-u``, ``-W arg``;
``-m``/``-c`` name no file), ``node`` (``-r mod``; ``-e`` names no file), ``uv run [opts]``
and ``npx`` are followed to the program and the script it runs; a program that starts with
``#!`` is followed to its interpreter (``#!/usr/bin/env -S python3 -u`` included), to a depth
of four. Each :class:`Link` is one file whose content is pinned. Whatever cannot be pinned by
content (inline code, a module, a package fetched by ``npx``, shell text that needs a shell)
makes the chain *text-pinned*: ``text_only`` says why.
"""

from __future__ import annotations

import os
import shlex
import shutil
from collections.abc import Mapping, Sequence

import attrs

SHELLS = frozenset({"sh", "bash", "dash", "zsh", "ksh", "mksh", "fish"})
PYTHONS = frozenset({"python", "python3", "pypy3", "pypy"})
INTERPRETERS = SHELLS | PYTHONS | frozenset({
    "node", "deno", "bun", "ruby", "perl", "php", "lua", "Rscript", "tsx", "ts-node"})
#: Options, per launcher, that take the next word as their argument.
_TAKES_ARG = {
    "shell": {"-o", "+o", "-O", "+O", "--rcfile", "--init-file"},
    "python": {"-W", "-X", "--check-hash-based-pycs"},
    "node": {"-r", "--require", "--import", "--loader", "--experimental-loader", "-C",
             "--conditions", "--env-file", "--title", "--input-type"},
    "env": {"-u", "--unset", "-C", "--chdir", "-a", "--argv0"},
    "uv": {"--with", "--with-requirements", "--with-editable", "--python", "-p", "--project",
           "--directory", "--env-file", "--extra", "--group", "--index", "--package",
           "--index-url", "--cache-dir", "--config-file", "-C", "--config-setting"},
}
#: Options after which no file runs: inline code, a module, standard input.
_NO_FILE = {"shell": {"-c", "-s"}, "python": {"-c", "-m", "-"},
            "node": {"-e", "--eval", "-p", "--print", "-"}, "other": {"-e", "-E", "-c"}}
MAX_DEPTH = 4
_KNOWN = frozenset({"shell", "python", "node", "other", "env", "uv", "npx"})


@attrs.frozen(kw_only=True)
class Link:
    """One file of the chain: ``path`` (resolved), the argv ``index`` naming it, its ``role``
    (``program``: executed itself; ``script``: read by ``runner``, an interpreter's path) and
    ``launcher`` (``shell``, ``python``, ``node``, ``other``) when it is a script."""

    path: str
    index: int
    role: str
    runner: str | None = None
    launcher: str | None = None


@attrs.frozen(kw_only=True)
class Chain:
    """The files a command runs (outermost first), the argv it resolves to, and why only its
    text is pinned (``text_only``; ``None`` when every file that runs is pinned)."""

    argv: tuple[str, ...]
    links: tuple[Link, ...] = ()
    text_only: str | None = None
    missing: str | None = None


def _kind(name: str) -> str:
    base = os.path.basename(name).rstrip("0123456789.-")
    if base in SHELLS:
        return "shell"
    if base in PYTHONS:
        return "python"
    if base in ("node", "nodejs"):
        return "node"
    if base in INTERPRETERS:
        return "other"
    return base  # env, uv, npx, ...


def which(name: str, cwd: str, env: Mapping[str, str]) -> str | None:
    if "/" in name:
        path = os.path.join(cwd, name)
        return path if os.path.exists(path) else None
    return shutil.which(name, path=env.get("PATH", os.defpath))


def shebang(path: str) -> list[str] | None:
    """The words of ``path``'s ``#!`` line as the kernel passes them: the interpreter and, when
    present, one argument (the rest of the line)."""
    try:
        with open(path, "rb") as handle:
            head = handle.read(256)
    except OSError:
        return None
    if not head.startswith(b"#!"):
        return None
    line = head[2:].split(b"\n", 1)[0].decode("utf-8", "replace").strip()
    if not line:
        return None
    interp, _, arg = line.partition(" ")
    arg = arg.strip()
    return [interp, arg] if arg else [interp]


def resolve(argv: Sequence[str], cwd: str, env: Mapping[str, str]) -> Chain:
    """The exec chain of ``argv`` run in ``cwd`` with ``env`` (reads only ``#!`` lines)."""
    return _resolve(list(argv), cwd, env, [], 0)


def _resolve(argv: list[str], cwd: str, env: Mapping[str, str], links: list[Link],
             depth: int) -> Chain:
    def done(**kw: object) -> Chain:
        return Chain(argv=tuple(argv), links=tuple(links), **kw)  # type: ignore[arg-type]

    if depth > MAX_DEPTH:
        return done(text_only="the #! chain is deeper than four interpreters")
    exe = which(argv[0], cwd, env)
    if exe is None:
        return done(missing=f"{argv[0]!r} not found")
    real = os.path.realpath(exe)
    kind = _kind(argv[0])
    if kind not in _KNOWN:
        kind = _kind(real)
    if kind == "env":
        return _env(argv, cwd, env, links, depth, real)
    if kind == "npx":
        links.append(Link(path=real, index=0, role="program"))
        return done(text_only="npx runs a package it fetches: only the command text is pinned")
    if kind == "uv":
        links.append(Link(path=real, index=0, role="program"))
        i = 1
        if len(argv) > 1 and argv[1] == "run":
            i = _skip(argv, 2, "uv")
            if i < len(argv):
                script = os.path.join(cwd, argv[i])
                if argv[i].endswith(".py") and os.path.isfile(script):
                    links.append(Link(path=os.path.realpath(script), index=i, role="script",
                                      runner=real, launcher="uv"))
                    return done()
                rest = _resolve(argv[i:], cwd, env, [], depth + 1)
                return Chain(argv=(*argv[:i], *rest.argv),
                             links=(*links, *(attrs.evolve(k, index=k.index + i)
                                              for k in rest.links)),
                             text_only=rest.text_only, missing=rest.missing)
        return done(text_only="`uv` without `run <script>`: only the command text is pinned")
    links.append(Link(path=real, index=0, role="program"))
    if kind in ("shell", "python", "node", "other"):
        words = shebang(real)
        if words is not None:  # a wrapper named like an interpreter: pin what reads it too
            inner = _resolve(words, cwd, env, [], depth + 1)
            links.extend(attrs.evolve(k, index=-1, role="interpreter") for k in inner.links)
        i = _skip(argv, 1, kind)
        if i < len(argv) and argv[i] in _NO_FILE.get(kind, _NO_FILE["other"]):
            return done(text_only=f"{os.path.basename(argv[0])} {argv[i]} runs no file: only "
                        "the command text is pinned")
        if i >= len(argv):
            return done(text_only=f"{os.path.basename(argv[0])} reads its program from "
                        "standard input: only the command text is pinned")
        script = os.path.join(cwd, argv[i])
        if not os.path.isfile(script):
            return done(missing=f"{argv[i]!r} not found (the script {argv[0]} runs)")
        links.append(Link(path=os.path.realpath(script), index=i, role="script", runner=real,
                          launcher=kind))
        return done()
    # the kernel runs: interpreter [arg] program args... (a file it cannot execute stays as
    # it is, and fails to start as it would in the harness)
    words = shebang(real) if os.access(real, os.X_OK) else None
    if words is not None:
        links.pop()  # the program is now the script of its interpreter
        inner = _resolve([*words, *argv], cwd, env, [], depth + 1)
        return Chain(argv=inner.argv, links=(*links, *inner.links), text_only=inner.text_only,
                     missing=inner.missing)
    return done()


def _skip(argv: Sequence[str], i: int, kind: str) -> int:
    """The index of the first operand at or after ``i`` (options and their arguments
    skipped)."""
    takes = _TAKES_ARG.get(kind, set())
    stops = _NO_FILE.get(kind, _NO_FILE["other"])
    while i < len(argv):
        arg = argv[i]
        if arg == "--":
            return i + 1
        if arg in stops:
            return i
        if arg in takes:
            i += 2
            continue
        if not arg.startswith(("-", "+")) or arg in ("-", "+"):
            return i
        i += 1
    return i


def _env(argv: list[str], cwd: str, env: Mapping[str, str], links: list[Link], depth: int,
         real: str) -> Chain:
    links.append(Link(path=real, index=0, role="program"))
    i = 1
    while i < len(argv):
        arg = argv[i]
        if arg in ("-S", "--split-string") or arg.startswith(("-S", "--split-string=")):
            own = arg in ("-S", "--split-string")
            text = (argv[i + 1] if i + 1 < len(argv) else "") if own else \
                arg.split("=", 1)[1] if arg.startswith("--") else arg[2:]
            try:
                words = shlex.split(text)
            except ValueError:
                return Chain(argv=tuple(argv), links=tuple(links),
                             text_only="`env -S` text that does not split")
            # `env -S 'a b' c` runs as `env a b c`: the chain's argv is that flat form
            argv = [*argv[:i], *words, *argv[i + (2 if own else 1):]]
            continue
        if arg in _TAKES_ARG["env"]:
            if arg in ("-C", "--chdir") and i + 1 < len(argv):
                cwd = os.path.join(cwd, argv[i + 1])
            i += 2
            continue
        if arg.startswith("-") or "=" in arg:
            i += 1
            continue
        inner = _resolve(argv[i:], cwd, env, [], depth + 1)
        return Chain(argv=(*argv[:i], *inner.argv),
                     links=(*links, *(attrs.evolve(k, index=k.index + i)
                                      for k in inner.links)),
                     text_only=inner.text_only, missing=inner.missing)
    return Chain(argv=tuple(argv), links=tuple(links))
