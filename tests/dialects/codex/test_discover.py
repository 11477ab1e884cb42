"""``CodexDialect.discover`` through the core discovery call: the Codex home from the dialect,
``$CODEX_HOME`` or ``<home>/.codex``; layers in Codex's order; project-folder trust and
per-hook trust from the user ``config.toml`` honoured when the hooks fire (real processes)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from hookwire import Kernel, Provenance
from hookwire.dialects.codex import CodexDialect, trust
from hookwire.discovery import discover


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(autouse=True)
def _no_codex_home(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CODEX_HOME", raising=False)


def stop_hooks(*commands: str) -> dict[str, Any]:
    return {"hooks": {"UserPromptSubmit": [{"hooks": [
        {"type": "command", "command": c} for c in commands]}]}}


def write(path: Path, data: Any) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(data if isinstance(data, str) else json.dumps(data))
    return path


def kernel_with(dialect: CodexDialect) -> Kernel:
    kernel = Kernel(load_entry_points=False)
    kernel.add_dialect(dialect)
    return kernel


class NoSystem(CodexDialect):
    """The Codex dialect with no system layer (``/etc/codex`` is not the test's to write)."""

    def discover(self, project_dir: str | Path, *, home: Path | None = None,
                 **kw: Any) -> Any:
        return super().discover(project_dir, home=home, system_dir=None, **kw)


@pytest.mark.anyio
async def test_trust_state_decides_which_discovered_hooks_run(tmp_path: Path) -> None:
    home, repo = tmp_path / "home", tmp_path / "repo"
    codex = home / ".codex"
    log = tmp_path / "ran.log"
    (repo / ".git").mkdir(parents=True)

    def hook(name: str) -> str:
        return f"echo {name} >> '{log}'"

    user = write(codex / "hooks.json", stop_hooks(hook("user-trusted"), hook("user-untrusted")))
    write(repo / ".codex" / "hooks.json", stop_hooks(hook("project-trusted")))
    # first pass, before any trust: the project folder is not loaded, the user hooks load
    # untrusted, with the keys and hashes Codex computes
    first = NoSystem().discover(repo, home=home)
    assert [e.handler.trust for e in first.entries] == ["untrusted", "untrusted"]
    states = "".join(trust.trust_snippet(e.handler.key, e.handler.hash)
                     for e in first.entries if "user-untrusted" not in str(e.command))
    write(codex / "config.toml", f'[projects."{repo}"]\ntrust_level = "trusted"\n' + states)
    # the project layer was not loaded before its folder was trusted: trust it now
    project = NoSystem().discover(repo, home=home).entries[-1]
    with (codex / "config.toml").open("a") as fh:
        fh.write(trust.trust_snippet(project.handler.key, project.handler.hash))

    kernel = kernel_with(NoSystem())
    ((name, result),) = discover(kernel, repo, home=home)
    assert name == "codex"
    assert [e.handler.layer for e in result.entries] == ["user", "user", "project"]
    assert [e.handler.trust for e in result.entries] == ["trusted", "untrusted", "trusted"]
    assert all(e.provenance is Provenance.LIVE for e in result.entries)
    assert result.entries[0].location.file == str(user)
    async with kernel.session(cwd=str(repo)) as session:
        with session.turn():
            await session.prompt_submit("hi")
    # Codex runs the hooks of one event in parallel: which one writes first is not fixed
    assert sorted(log.read_text().split()) == ["project-trusted", "user-trusted"]


def test_an_untrusted_project_folder_is_not_loaded_and_says_so(tmp_path: Path) -> None:
    home, repo = tmp_path / "home", tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    write(home / ".codex" / "hooks.json", stop_hooks("user"))
    write(repo / ".codex" / "hooks.json", stop_hooks("project"))
    result = NoSystem().discover(repo, home=home)
    assert [e.command for e in result.entries] == ["user"]
    assert any("not trusted" in p.message for p in result.problems)


def test_the_codex_home_comes_from_the_dialect_then_codex_home_then_home(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    for folder, name in ((tmp_path / "home" / ".codex", "home"), (tmp_path / "env", "env"),
                         (tmp_path / "given", "given")):
        write(folder / "hooks.json", stop_hooks(name))
    home = tmp_path / "home"
    assert [e.command for e in NoSystem().discover(ws, home=home).entries] == ["home"]
    monkeypatch.setenv("CODEX_HOME", str(tmp_path / "env"))
    assert [e.command for e in NoSystem().discover(ws, home=home).entries] == ["env"]
    given = NoSystem(codex_home=tmp_path / "given")
    assert [e.command for e in given.discover(ws, home=home).entries] == ["given"]


def test_a_missing_home_finds_nothing(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    kernel = kernel_with(NoSystem())
    ((_, result),) = discover(kernel, ws, home=tmp_path / "no-such-home")
    assert result.entries == () and result.problems == ()
    assert kernel.hooks == ()


def test_a_broken_user_config_is_an_error_problem(tmp_path: Path) -> None:
    home, ws = tmp_path / "home", tmp_path / "ws"
    ws.mkdir()
    write(home / ".codex" / "config.toml", "this is = = not toml")
    kernel = kernel_with(NoSystem())
    ((_, result),) = discover(kernel, ws, home=home)
    (problem,) = result.problems
    assert problem.severity == "error" and "config.toml" in (problem.location.file or "")
