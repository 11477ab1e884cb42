"""``hookwire.discovery.discover``: every installed (or named) dialect's own discovery, added to
the kernel in order, results and problems returned. Real files under ``tmp_path``; the dialects
here are small test dialects reading them, so core is tested without any built-in dialect."""

from __future__ import annotations

from pathlib import Path

import anyio
import pytest

from hookwire import ConfigError, ConfigResult, HookEntry, Kernel, Provenance
from hookwire.dialect import ConfigProblem, Dialect, Location
from hookwire.discovery import discover
from hookwire.errors import UnknownDialectError
from hookwire.testing import EchoDialect


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


class FileDialect(EchoDialect):
    """Discovers ``<home>/.<name>/hooks`` then ``<project>/.<name>/hooks``: one tool_pre command
    per line; a line ``!broken`` makes the file unreadable (``ConfigError``)."""

    def __init__(self, name: str) -> None:
        super().__init__()
        self.name = name  # type: ignore[misc]
        self.calls: list[tuple[Path, Path | None]] = []

    def discover(self, project_dir: Path, *, home: Path | None = None) -> ConfigResult:
        self.calls.append((project_dir, home))
        entries: list[HookEntry] = []
        problems: list[ConfigProblem] = []
        layers = [(Path(home) if home else Path.home(), Provenance.LIVE),
                  (project_dir, Provenance.PROJECT)]
        for base, provenance in layers:
            path = base / f".{self.name}" / "hooks"
            if not path.is_file():
                continue
            for n, line in enumerate(path.read_text().splitlines(), 1):
                if line == "!broken":
                    raise ConfigError("cannot parse", file=str(path), line=n)
                if line.startswith("?"):
                    problems.append(ConfigProblem(message=f"odd line {line!r}",
                                                  location=Location(file=str(path), line=n)))
                    continue
                entries.append(self.entry("tool_pre", line, provenance=provenance,
                                          location=Location(file=str(path), line=n)))
        return ConfigResult(entries=tuple(entries), problems=tuple(problems))


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def kernel_with(*dialects: Dialect) -> Kernel:
    kernel = Kernel(load_entry_points=False)
    for d in dialects:
        kernel.add_dialect(d)
    return kernel


def test_every_dialect_discovers_in_install_order_and_entries_join_the_kernel(
        tmp_path: Path) -> None:
    home, proj = tmp_path / "home", tmp_path / "proj"
    write(home / ".alpha" / "hooks", "a-user\n")
    write(proj / ".alpha" / "hooks", "a-project\n?weird\n")
    write(proj / ".beta" / "hooks", "b-project\n")
    alpha, beta = FileDialect("alpha"), FileDialect("beta")
    kernel = kernel_with(alpha, beta)
    kernel.add_hooks([alpha.entry("tool_pre", "named-first")])
    found = discover(kernel, proj, home=home)
    assert [name for name, _ in found] == ["alpha", "beta"]
    assert [e.command for e in found[0][1].entries] == ["a-user", "a-project"]
    assert [p.message for p in found[0][1].problems] == ["odd line '?weird'"]
    # added after what was there, in discovery order, with the provenance each layer gave
    assert [(e.dialect, e.command, e.provenance, e.order) for e in kernel.hooks] == [
        ("alpha", "named-first", Provenance.USER, 0),
        ("alpha", "a-user", Provenance.LIVE, 1),
        ("alpha", "a-project", Provenance.PROJECT, 2),
        ("beta", "b-project", Provenance.PROJECT, 3)]
    assert kernel.hooks[1].location.file == str(home / ".alpha" / "hooks")
    assert alpha.calls == [(proj, home)] and beta.calls == [(proj, home)]


def test_named_dialects_only_in_the_order_given(tmp_path: Path) -> None:
    proj = tmp_path / "proj"
    write(proj / ".alpha" / "hooks", "a\n")
    write(proj / ".beta" / "hooks", "b\n")
    alpha, beta = FileDialect("alpha"), FileDialect("beta")
    kernel = kernel_with(alpha, beta)
    found = discover(kernel, str(proj), dialects=["beta"], home=str(tmp_path / "nohome"))
    assert [name for name, _ in found] == ["beta"]
    assert [e.command for e in kernel.hooks] == ["b"]
    assert alpha.calls == []
    assert beta.calls == [(proj, tmp_path / "nohome")]  # strings become paths


def test_an_unknown_named_dialect_fails_before_anything_is_added(tmp_path: Path) -> None:
    proj = tmp_path / "proj"
    write(proj / ".alpha" / "hooks", "a\n")
    kernel = kernel_with(FileDialect("alpha"))
    with pytest.raises(UnknownDialectError, match="nope"):
        discover(kernel, proj, dialects=["alpha", "nope"])
    assert kernel.hooks == ()


def test_a_missing_home_and_project_find_nothing_without_error(tmp_path: Path) -> None:
    kernel = kernel_with(FileDialect("alpha"))
    found = discover(kernel, tmp_path / "absent", home=tmp_path / "no-such-home")
    assert found == [("alpha", ConfigResult())]
    assert kernel.hooks == ()


def test_an_unreadable_file_is_an_error_problem_and_other_dialects_still_load(
        tmp_path: Path) -> None:
    proj = tmp_path / "proj"
    bad = write(proj / ".alpha" / "hooks", "ok\n!broken\n")
    write(proj / ".beta" / "hooks", "b\n")
    kernel = kernel_with(FileDialect("alpha"), FileDialect("beta"))
    found = dict(discover(kernel, proj, home=tmp_path / "home"))
    (problem,) = found["alpha"].problems
    assert problem.severity == "error" and "cannot parse" in problem.message
    assert problem.location.file == str(bad) and problem.location.line == 2
    assert found["alpha"].entries == ()
    assert [e.command for e in kernel.hooks] == ["b"]


def test_a_dialect_without_discovery_finds_nothing(tmp_path: Path) -> None:
    plain = EchoDialect()  # does not override Dialect.discover
    kernel = kernel_with(plain)
    assert discover(kernel, tmp_path) == [("echo", ConfigResult())]
    assert Dialect().discover(tmp_path, home=tmp_path) == ConfigResult()


@pytest.mark.anyio
async def test_discovered_hooks_run(tmp_path: Path) -> None:
    proj = tmp_path / "proj"
    write(proj / ".alpha" / "hooks", "echo refused >&2; exit 2\n")
    kernel = kernel_with(FileDialect("alpha"))
    discover(kernel, proj, home=tmp_path / "home")
    async with kernel.session(cwd=str(proj)) as session:
        verdict = await session.tool_pre("Bash", {"command": "ls"})
    assert verdict.denied and "refused" in (verdict.reason or "")


def test_a_dialect_without_discover_says_which_files_it_did_not_read(tmp_path: Path) -> None:
    """The contract gap of issue 24: a dialect with ``read_config`` and ``config_paths`` but no
    ``discover`` was found by ``Kernel.discover`` to have no hooks, without a word. Each of
    its native files that exists is now a warning naming the file and the missing method."""

    class ReaderOnly(EchoDialect):
        name = "readeronly"

        def config_paths(self, project_dir: Path, home: Path | None = None) -> list[Path]:
            return [project_dir / ".toy" / "hooks.json", project_dir / ".toy" / "absent.json"]

    (tmp_path / ".toy").mkdir()
    (tmp_path / ".toy" / "hooks.json").write_text("{}")
    kernel = Kernel(load_entry_points=False)
    kernel.add_dialect(ReaderOnly())
    [(name, result)] = kernel.discover(tmp_path, dialects=["readeronly"])
    assert name == "readeronly" and result.entries == ()
    [problem] = result.problems
    assert problem.location.file == str(tmp_path / ".toy" / "hooks.json")
    assert problem.severity == "warning" and "does not implement Dialect.discover" in \
        problem.message
    # a dialect that implements discover gets no such note, even when it finds nothing
    kernel.add_dialect(FileDialect("quiet"))
    [(_, quiet)] = kernel.discover(tmp_path, dialects=["quiet"])
    assert quiet.problems == ()


def test_a_broken_tools_mapping_keeps_the_hooks_and_every_session_names_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A hooks file whose ``tools:`` mapping cannot be made still loads its hooks, and the
    problem reaches ``session.problems`` even when the host ignores discover's result."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    proj = tmp_path / "proj"
    (proj / ".hookwire").mkdir(parents=True)
    (proj / ".hookwire" / "hooks.yaml").write_text(
        "version: 1\ntools:\n  run_shell: {as: NoSuchTool}\nhooks:\n"
        "  - {dialect: claude, event: PreToolUse, matcher: Bash, type: command, "
        "command: [/bin/true]}\n")
    kernel = Kernel()
    kernel.discover(proj, home=tmp_path / "home")
    assert [h.display for h in kernel.hooks] == ["/bin/true"]

    async def go() -> tuple[object, ...]:
        async with kernel.session(cwd=str(proj)) as session:
            return tuple(str(p) for p in session.problems)
    problems = anyio.run(go)
    assert any("NoSuchTool" in p and "hooks.yaml" in p for p in problems), problems
