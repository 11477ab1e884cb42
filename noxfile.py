"""nox sessions: ``tests`` (one per supported Python), ``lint``, ``typecheck``, ``docs``,
``wheel`` (and, not by default, ``ci``, ``fuzz``, ``clients``, ``peers`` and
``record_gemini``).

    nox                 # every session
    nox -s ci           # what .ci/run runs: the whole suite on every supported Python at once
    nox -s tests-3.13   # the suite on one Python
    nox -s wheel        # build sdist + wheel, install into a clean venv, load the entry points
    nox -s clients      # install into the real client CLIs and run them offline (tests/clients)
    nox -s record_gemini  # record the real Gemini CLI's hooks again (tests/dialects/gemini)
    nox -s peers-3.13   # hookwire beside its peers, and the spawn path's ratios, on one Python
    nox -s tests-3.11 -- -m "not slow" -x

Interpreters are found on ``PATH`` and, where pyenv keeps them, in ``$PYENV_ROOT/versions``.
``ci`` runs one ``tests-<python>`` session per supported Python concurrently (the suite mostly
waits on hook processes: three runs take about as long as one on two cores) from one wheel
built once; a Python that is missing is reported, and fails the run when ``CI`` is set.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import zipfile
from collections.abc import Iterator
from pathlib import Path

import nox

nox.needs_version = ">=2024.4"
nox.options.sessions = ["tests", "lint", "typecheck", "docs", "wheel"]
nox.options.reuse_venv = "yes"

ROOT = Path(__file__).resolve().parent
#: The three source roots of the one ``hookwire`` package (design.md, Layout).
SLICES = ("core", "dialects", "plugins")
LINTED = (*SLICES, "tests", "benchmarks", "noxfile.py")
GROUPS = ("hookwire.dialects", "hookwire.plugins")


#: The Pythons pyproject.toml declares; each gets the whole suite.
PYTHONS = ("3.11", "3.12", "3.13")
#: The extras the suite runs with: the test tools and every runtime adapter that shares a venv.
TEST_EXTRAS = "test,pydantic-ai,langchain,openai-agents,google-adk,llama-index,claude-agent-sdk"
#: Runtimes that cannot share that venv (Strands and CrewAI pin ``mcp<2.2`` and ``mcp<2``, the
#: test tools' MCP server needs ``mcp>=2.3``; CrewAI pins ``openai<3``, the OpenAI Agents SDK
#: needs ``openai>=3``): one more venv, their own tests only.
APART_EXTRAS = "strands,crewai"
APART_TESTS = ("tests/plugins/strands", "tests/plugins/crewai")
APART_MODULES = r"plugins/hookwire/plugins/(strands|crewai)/"
#: The Python the apart runtimes are tested on (each is a large install).
APART_PYTHON = "3.12"


def _python(version: str) -> str | None:
    """The interpreter of ``version``: pyenv's newest install of it, else one on PATH that is
    not a pyenv shim (a shim answers only for the versions pyenv has selected)."""
    versions = Path(os.environ.get("PYENV_ROOT") or Path.home() / ".pyenv") / "versions"
    for folder in sorted(versions.glob(f"{version}.*"), reverse=True):
        if (folder / "bin" / f"python{version}").exists():
            return str(folder / "bin" / f"python{version}")
    found = shutil.which(f"python{version}")
    return found if found and "shims" not in Path(found).parts else None


def _find_pythons() -> None:
    """Put each supported interpreter's folder first on PATH, so nox finds it."""
    folders = [str(Path(p).parent) for p in map(_python, PYTHONS) if p]
    os.environ["PATH"] = os.pathsep.join([*dict.fromkeys(folders),
                                          os.environ.get("PATH", "")])


_find_pythons()


@nox.session(python=list(PYTHONS))
def tests(session: nox.Session) -> None:
    """The test suite against a regular (non-editable) install, with the runtime adapters'
    extras; ``HOOKWIRE_WHEEL`` installs that wheel instead of building the tree again."""
    wheel = os.environ.get("HOOKWIRE_WHEEL")
    session.install(f"{wheel or '.'}[{TEST_EXTRAS}]")
    apart = [f"--ignore={path}" for path in APART_TESTS]  # the runtimes session runs them
    session.run("python", "-m", "pytest", "-p", "no:cacheprovider", *apart, *session.posargs)


@nox.session(python=APART_PYTHON)
def runtimes(session: nox.Session) -> None:
    """The adapters whose runtimes cannot share the main test venv (:data:`APART_EXTRAS`),
    with their own tests; every runtime must import, so none of them is skipped."""
    wheel = os.environ.get("HOOKWIRE_WHEEL")
    session.install(f"{wheel or '.'}[{APART_EXTRAS}]", "pytest>=8", "hypothesis>=6.100", "mypy")
    session.run("python", "-c", "import strands, crewai")
    session.run("python", "-m", "pytest", "-p", "no:cacheprovider", *APART_TESTS,
                *session.posargs)
    session.run("mypy", "-p", "hookwire.plugins.strands", "-p", "hookwire.plugins.crewai")


@nox.session(python=False)
def ci(session: nox.Session) -> None:
    """The whole suite on every supported Python, concurrently: one wheel is built, then each
    ``tests-<python>`` session runs in its own process; their output is printed in order and
    the run fails when any of them fails (or, with ``CI`` set, when a Python is missing)."""
    missing = [v for v in PYTHONS if _python(v) is None]
    for version in missing:
        session.warn(f"Python {version} not found: its tests do not run here")
    if missing and os.environ.get("CI"):
        session.error(f"CI needs every supported Python; missing: {', '.join(missing)}")
    dist = Path(tempfile.mkdtemp(prefix="hookwire-ci-"))
    try:
        session.run(sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet",
                    "--wheel-dir", str(dist), str(ROOT), external=True)
        [wheel] = dist.glob("hookwire-*.whl")
        env = {**os.environ, "HOOKWIRE_WHEEL": str(wheel)}
        runs = {}
        names = [f"tests-{v}" for v in PYTHONS if v not in missing]
        if _python(APART_PYTHON) is not None:
            names.append("runtimes")
        for name in names:
            log = (dist / f"{name}.log").open("w+")
            runs[name] = (log, subprocess.Popen(
                [sys.executable, "-m", "nox", "-f", str(ROOT / "noxfile.py"), "-s", name,
                 "--", *session.posargs],
                stdout=log, stderr=subprocess.STDOUT, env=env, cwd=ROOT))
        failed = []
        for version, (log, proc) in runs.items():
            code = proc.wait()
            log.seek(0)
            print(f"\n===== {version}: exit {code} =====", flush=True)
            print(log.read(), flush=True)
            log.close()
            if code:
                failed.append(version)
        if failed:
            session.error(f"failed: {', '.join(failed)}")
        session.log(f"passed: {', '.join(runs)}")
    finally:
        shutil.rmtree(dist, ignore_errors=True)


#: The peers of the side-by-side benchmark (benchmarks/bench_peers.py), by PyPI requirement
#: (the versions docs/benchmarks.md reports), with the oldest Python each installs on. Each is
#: installed by a pip call of its own: code-puppy pins agent-client-protocol<0.12, the
#: OpenHands SDK >=0.12.1, so no single resolve holds both; neither hook engine imports that
#: package. (Unpinned, the SDK's resolve next to the others spun for minutes on 3.12.)
PEERS = {"clip-harness==0.3.0": "3.11", "nxthooks==0.1.0": "3.11",
         "code-puppy==0.0.946": "3.11", "openhands-sdk==1.44.1": "3.12"}
_PEER_NAMES = {"openhands-sdk": "openhands"}


@nox.session(python=list(PYTHONS))
def peers(session: nox.Session) -> None:
    """hookwire beside OpenHands, code-puppy, clip-harness and nxthooks on the same Claude Code
    hooks, in one process and one event loop (benchmarks/bench_peers.py), on every supported
    Python; a peer that installs on this Python must import (``--require``). Then the spawn
    path's own ratios on this Python: bench_runner.py (asyncio) and bench_hook.py. Prints
    tables; asserts nothing."""
    wheel = os.environ.get("HOOKWIRE_WHEEL")
    session.install(wheel or ".", "pluggy", "anyio", "trio")
    version = tuple(map(int, str(session.python).split(".")))
    required = []
    for peer, oldest in PEERS.items():
        if version >= tuple(map(int, oldest.split("."))):
            session.install(peer)
            name = peer.split("==")[0]
            required.append(_PEER_NAMES.get(name, name))
        else:
            session.log(f"{peer} needs Python >= {oldest}: not in this Python's table")
    bench = ROOT / "benchmarks"
    session.run("python", str(bench / "bench_peers.py"), "--require", ",".join(required),
                *session.posargs)
    quick = ["--quick"] if "--quick" in session.posargs else []
    session.run("python", str(bench / "bench_runner.py"), "--backend", "asyncio", *quick)
    session.run("python", str(bench / "bench_hook.py"), *quick)


@nox.session
def fuzz(session: nox.Session) -> None:
    """Every wire reader (config files and hook output, per dialect, and hooks.yaml) fuzzed for
    10,000 hypothesis examples each (``HOOKWIRE_FUZZ_EXAMPLES`` overrides)."""
    session.install("-e", ".[test]")
    session.run("pytest", "-q", "-p", "no:cacheprovider", "tests/dialects/test_fuzz_readers.py",
                "tests/config/test_fuzz.py", *session.posargs,
                env={"HOOKWIRE_FUZZ_EXAMPLES": os.environ.get("HOOKWIRE_FUZZ_EXAMPLES",
                                                              "10000")})


@nox.session
def clients(session: nox.Session) -> None:
    """``hookwire install`` into the real client CLIs (pinned npm versions, cached in
    ``~/.cache/hookwire-clients``), each run offline against a scripted model on 127.0.0.1:
    events fired, order, the user's hook kept, uninstall byte-exact; Codex's hooks/list
    trust hashes against hookwire's (tests/clients/)."""
    session.install(".[test]")
    session.run("pytest", "-p", "no:cacheprovider", "-rA", "-s", "tests/clients",
                *session.posargs, env={"HOOKWIRE_CLIENTS": "1"})


@nox.session
def record_gemini(session: nox.Session) -> None:
    """Record what the real Gemini CLI (the pinned npm version, cached beside the clients')
    does with its hooks, offline against a scripted Gemini API on 127.0.0.1, into
    ``tests/dialects/gemini/recordings/`` (which the default test run replays). Scenario
    names as arguments record only those."""
    session.run("python", str(ROOT / "tests" / "dialects" / "gemini" / "record.py"),
                *session.posargs)


@nox.session
def lint(session: nox.Session) -> None:
    """ruff over every Python file of the repository."""
    session.install("ruff")
    session.run("ruff", "check", *LINTED, *session.posargs)


@nox.session
def typecheck(session: nox.Session) -> None:
    """mypy --strict, configured in pyproject.toml ``[tool.mypy]``, over all three slices."""
    # The adapters' runtimes too (as .ci/run installs them): without them mypy sees their base
    # classes and decorators as Any and every adapter module fails --strict.
    session.install("-e", f".[{TEST_EXTRAS}]", "mypy")
    # mypy does not merge pkgutil-style namespace slices: `-p hookwire` resolves to core alone
    # and would skip every dialect and plugin without a word. Name each slice. The adapters of
    # the runtimes apart are checked in their own venv (`nox -s runtimes`).
    targets = ("-p", "hookwire", "-p", "hookwire.dialects", "-p", "hookwire.plugins",
               "--exclude", APART_MODULES)
    session.run("mypy", *(session.posargs or targets))


@nox.session
def docs(session: nox.Session) -> None:
    """Build the site with MkDocs in strict mode (zero warnings: broken links and anchors, a
    divergence without a test), with the API reference from the docstrings; check every link
    between the Markdown files and every page of the site the code cites."""
    session.install("mkdocs>=1.6", "mkdocstrings[python]>=0.26", "pymdown-extensions")
    problems = list(dict.fromkeys(_doc_problems()))  # a link can also be a plain mention
    site = Path(tempfile.mkdtemp(prefix="hookwire-site-"))
    try:
        session.run("mkdocs", "build", "--strict", "--config-file", str(ROOT / "mkdocs.yml"),
                    "--site-dir", str(site))
        problems += _cited_pages(site)
    finally:
        shutil.rmtree(site, ignore_errors=True)
    for problem in problems:
        session.log(problem)
    if problems:
        session.error(f"{len(problems)} broken doc reference(s)")
    session.log("the site builds without a warning; every doc link, anchor and cited page "
                "resolves")


_SITE = "https://hookwire.dev/"
_CITED = re.compile(re.escape(_SITE) + r"([\w./-]*)")


def _cited_pages(site: Path) -> list[str]:
    """Every ``https://hookwire.dev/...`` address in the code (messages, written files,
    schema ids) that the built site does not serve."""
    urls = (ROOT / "core" / "hookwire" / "_urls.py").read_text(encoding="utf-8")
    assert f'DOCS = "{_SITE}"' in urls, "core/hookwire/_urls.py names another site"
    problems = []
    sources = [p for root in SLICES for p in sorted((ROOT / root).rglob("*.py"))]
    sources += [ROOT / "pyproject.toml"]
    for path in sources:
        text = path.read_text(encoding="utf-8")
        cited = set(_CITED.findall(text)) | {
            f"{page}/" for page in re.findall(r"_urls\.doc\([\"']([\w/-]+)[\"']", text)}
        for rel in sorted(cited):
            if "portable-hooks" in rel or "/codex/" in rel:
                continue  # the dialects' own schema ids: published with their profiles
            target = site / rel
            if not (target.is_file() or (target / "index.html").is_file()):
                problems.append(f"{path.relative_to(ROOT)}: {_SITE}{rel} is not in the site")
    return problems


# Run inside the clean venv, from an empty directory, so only the wheel can be imported.
_WHEEL_PROBE = """
import importlib, json, pkgutil, sys, sysconfig
from importlib.metadata import entry_points
from pathlib import Path

import hookwire, hookwire.dialects, hookwire.plugins

purelib = Path(sysconfig.get_paths()["purelib"]).resolve()
for mod in (hookwire, hookwire.dialects, hookwire.plugins):
    for where in mod.__path__:
        assert Path(where).resolve().is_relative_to(purelib), (
            f"{mod.__name__} imported from {where}, not from the installed wheel")
# Every core module imports with the runtime dependencies alone (hookwire.testing is the
# pytest plugin: pytest loads it, not hosts). A dialect or plugin module may need the optional
# runtime it adapts (pydantic-ai, ...), never a missing hookwire module or a core dependency.
required = {"pluggy", "attrs", "attr", "cattrs", "cattr", "anyio", "ruamel", "hookwire"}
# A package that fails to import is still listed (before its failure), and judged below.
modules = [info.name for info in pkgutil.walk_packages(hookwire.__path__, "hookwire.",
                                                       onerror=lambda name: None)]
optional = []
for name in modules:
    if name == "hookwire.testing":
        continue
    try:
        importlib.import_module(name)
    except ModuleNotFoundError as exc:
        missing = (exc.name or "").split(".")[0]
        adapter = name.startswith(("hookwire.dialects.", "hookwire.plugins."))
        if not adapter or missing in required or missing in sys.stdlib_module_names:
            raise
        optional.append(f"{name} (needs {missing})")
kernel = hookwire.Kernel()
assert kernel.load_errors == [], kernel.load_errors
groups = json.loads(sys.argv[1])
declared = sorted(f"{g}:{ep.name}" for g in groups for ep in entry_points(group=g))
loaded = sorted(f"{l.group}:{l.name}" for l in kernel.loaded)
assert loaded == declared, f"loaded {loaded}, declared {declared}"
print(f"wheel ok: {len(modules) - len(optional)} modules import; entry points loaded: "
      f"{', '.join(loaded)}; dialects: {', '.join(sorted(kernel.dialects))}")
for name in optional:
    print(f"  not imported, optional runtime not installed: {name}")
"""


@nox.session
def wheel(session: nox.Session) -> None:
    """Build sdist and wheel, ``twine check`` both, check both hold every source file, install
    the wheel into a clean venv, load every entry point there and run ``python -m hookwire
    --version`` from a directory with a decoy ``hookwire/`` folder."""
    session.install("build", "twine")
    tmp = Path(tempfile.mkdtemp(prefix="hookwire-wheel-"))
    try:
        dist = tmp / "dist"
        session.run("python", "-m", "build", "--outdir", str(dist), str(ROOT))
        (whl,) = dist.glob("*.whl")
        (sdist,) = dist.glob("*.tar.gz")
        session.run("twine", "check", "--strict", str(whl), str(sdist))

        expected = _source_files()
        in_wheel = {n for n in zipfile.ZipFile(whl).namelist()
                    if not n.split("/")[0].endswith(".dist-info")}
        with tarfile.open(sdist) as tar:
            prefix = tar.getnames()[0].split("/")[0] + "/"
            in_sdist = {n.removeprefix(prefix) for n in tar.getnames()}
        problems = [f"missing from the wheel: {f}" for f in sorted(expected.keys() - in_wheel)]
        problems += [f"in the wheel but not in the sources: {f}"
                     for f in sorted(in_wheel - expected.keys())]
        problems += [f"missing from the sdist: {src}" for src in sorted(expected.values())
                     if src not in in_sdist]
        for problem in problems:
            session.log(problem)
        if problems:
            session.error(f"{len(problems)} packaging problem(s)")
        session.log(f"{whl.name}: all {len(expected)} files of {', '.join(SLICES)} are in it")

        venv = tmp / "venv"
        session.run("python", "-m", "venv", "--without-pip", str(venv))
        python = venv / "bin" / "python"
        session.run("python", "-m", "pip", "--python", str(python), "install", str(whl))
        probe = tmp / "probe.py"
        probe.write_text(_WHEEL_PROBE, encoding="utf-8")
        with session.chdir(tmp):  # -I: neither this directory nor PYTHONPATH is on sys.path
            session.run(str(python), "-I", str(probe), json.dumps(GROUPS),
                        external=True, env={"HOOKWIRE_DISABLE_PLUGINS": ""})
        # `python -m hookwire` from a directory holding an unrelated `hookwire/` folder (one
        # shaped like a slice, even): the installed package runs and joins none of it
        empty = tmp / "empty"
        (empty / "hookwire" / "plugins").mkdir(parents=True)
        (empty / "hookwire" / "plugins" / "__init__.py").write_text("raise SystemExit(9)\n")
        with session.chdir(empty):
            session.run(str(python), "-m", "hookwire", "--version", external=True)
            session.run(str(python), "-c", "import hookwire.plugins.runlog", external=True)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def _source_files() -> dict[str, str]:
    """Path inside the wheel → path in the repository, for every file of the three slices."""
    files: dict[str, str] = {}
    for root in SLICES:
        for path in sorted((ROOT / root).rglob("*")):
            rel = path.relative_to(ROOT / root)
            if path.is_dir() or "__pycache__" in rel.parts or path.suffix == ".pyc":
                continue
            # py.typed sits in every slice (for mypy over the editable install) and is one
            # file in the wheel.
            files.setdefault(rel.as_posix(), path.relative_to(ROOT).as_posix())
    return files


# -- docs ---------------------------------------------------------------------------------------

_LINK = re.compile(r"\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
_DOC_MENTION = re.compile(r"(?<![\w/.-])(docs/[\w./-]+\.md)(#[\w-]+)?")
_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
_FENCE = re.compile(r"^\s*(```|~~~)")


def _slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link's text only
    text = re.sub(r"[^\w\- ]", "", text.lower())
    return text.replace(" ", "-")


def _anchors(md: Path) -> set[str]:
    seen: dict[str, int] = {}
    anchors: set[str] = set()
    in_code = False
    for line in md.read_text(encoding="utf-8").splitlines():
        if _FENCE.match(line):
            in_code = not in_code
            continue
        m = None if in_code else _HEADING.match(line)
        if m:
            slug = _slug(m[2])
            n = seen.get(slug, 0)
            seen[slug] = n + 1
            anchors.add(slug if n == 0 else f"{slug}-{n}")
    anchors.update(re.findall(r"<a\s+(?:name|id)=\"([^\"]+)\"", md.read_text(encoding="utf-8")))
    return anchors


#: Pages the site generates when it is built (tools/docs_hooks.py): they exist in the site.
_GENERATED = {ROOT / "docs" / "dialects" / "divergences.md", ROOT / "docs" / "changelog.md"}


def _check(target: Path, anchor: str | None, where: str) -> Iterator[str]:
    if target in _GENERATED:
        return
    if not target.exists():
        yield f"{where}: {target.relative_to(ROOT) if target.is_relative_to(ROOT) else target}" \
              " does not exist"
    elif anchor and target.suffix == ".md" and anchor not in _anchors(target):
        yield f"{where}: no heading for #{anchor} in {target.relative_to(ROOT)}"


def _doc_problems() -> Iterator[str]:
    docs = sorted((ROOT / "docs").rglob("*.md"))
    for md in [ROOT / "README.md", *docs]:
        if not md.exists():
            continue
        in_code = False
        for lineno, line in enumerate(md.read_text(encoding="utf-8").splitlines(), 1):
            if _FENCE.match(line):
                in_code = not in_code
            if in_code:
                continue
            where = f"{md.relative_to(ROOT)}:{lineno}"
            for link in _LINK.findall(line):
                if re.match(r"^[a-z][a-z0-9+.-]*:", link):  # http:, https:, mailto:
                    continue
                path, _, anchor = link.partition("#")
                yield from _check((md.parent / path).resolve() if path else md, anchor, where)
    # `docs/verdict-json.md` named in a docstring, a message or another page must exist too.
    sources = [p for root in SLICES for p in sorted((ROOT / root).rglob("*.py"))]
    for path in [*sources, ROOT / "README.md", *docs]:
        if not path.exists():
            continue
        for lineno, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for doc, anchor in _DOC_MENTION.findall(line):
                yield from _check(ROOT / doc, anchor.lstrip("#") or None,
                                  f"{path.relative_to(ROOT)}:{lineno}")
