"""``trust: {strict: true}`` in a hooks file (#13): a gated hook pinned by command text only is
refused even when approved, a project file cannot weaken a global ``strict: true``, the key is
validated with a located error, and ``hookwire check`` agrees. Real hooks files, real hooks."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import anyio
import pytest

from hookwire import Decision, Kernel, ToolPre, trust
from hookwire.config import ConfigFileError, install, load_text
from hookwire.testing import EchoDialect

TEXT_PINNED = f"[{sys.executable}, -c, 'print(1)']"


def _files(home: Path, project: Path, global_trust: str | None,
           project_trust: str | None) -> None:
    project.mkdir(exist_ok=True)
    hooks = ("hooks:\n  - {dialect: echo, event: tool_pre, type: command, "
             f"command: {TEXT_PINNED}, source: 'imported:claude'}}\n")
    if global_trust is not None:
        (home / ".config" / "hookwire").mkdir(parents=True, exist_ok=True)
        (home / ".config" / "hookwire" / "hooks.yaml").write_text(
            f"version: 1\ntrust: {global_trust}\n")
    (project / ".hookwire").mkdir(exist_ok=True)
    (project / ".hookwire" / "hooks.yaml").write_text(
        "version: 1\n" + (f"trust: {project_trust}\n" if project_trust is not None else "")
        + hooks)


def _fire(home: Path, project: Path) -> tuple[Decision, str]:
    kernel = Kernel(load_entry_points=False)
    kernel.add_dialect(EchoDialect())
    store = trust.TrustStore(home / "trust.json")
    found = install(kernel, cwd=project, env=os.environ, store=store)
    (entry,) = found.entries
    cmd = trust.sample_command(entry, kernel.dialect("echo"), project_dir=str(project))
    trust.approve(entry, store, trust.resolve(cmd)[0])
    event = ToolPre(tool_name="Bash", tool_input={"command": "ls"})

    async def go() -> tuple[Decision, str]:
        async with kernel.session(cwd=str(project), project_dir=str(project)) as session:
            verdict = await session.dispatch(event)
        return verdict.decision, verdict.reason or ""

    return anyio.run(go)


@pytest.fixture(autouse=True)
def _no_env_strict(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("HOOKWIRE_TRUST_STRICT", raising=False)


@pytest.mark.parametrize(("global_trust", "project_trust", "refused"), [
    (None, None, False),
    (None, "{strict: false}", False),
    ("{strict: true}", None, True),
    (None, "{strict: true}", True),
    ("{strict: true}", "{strict: false}", True),   # the project cannot weaken the global
    ("{strict: false}", "{strict: true}", True),   # but it may tighten
])
def test_strict_from_the_hooks_files(home: Path, tmp_path: Path, global_trust: str | None,
                                     project_trust: str | None, refused: bool) -> None:
    _files(home, tmp_path / "p", global_trust, project_trust)
    decision, reason = _fire(home, tmp_path / "p")
    if refused:
        assert decision is Decision.DENY and "trust is strict" in reason
    else:
        assert decision is not Decision.DENY


def test_environment_still_tightens_a_file_saying_false(
        home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOOKWIRE_TRUST_STRICT", "1")
    _files(home, tmp_path / "p", "{strict: false}", "{strict: false}")
    decision, reason = _fire(home, tmp_path / "p")
    assert decision is Decision.DENY and "trust is strict" in reason


@pytest.mark.parametrize(("text", "message"), [
    ("trust: {strict: 1}\n", "@ $.trust.strict"),
    ("trust: {strikt: true}\n", "did you mean 'strict'"),
    ("trust: yes\n", "@ $.trust"),
])
def test_the_key_is_validated_with_its_location(text: str, message: str) -> None:
    with pytest.raises(ConfigFileError) as info:
        load_text("version: 1\n" + text, file="hooks.yaml")
    (error,) = info.value.errors
    assert message in error.message and error.line == 2 and error.file == "hooks.yaml"


@pytest.mark.parametrize(("global_trust", "status"), [("{strict: true}", "untrusted"),
                                                     ("{strict: false}", "runs")])
def test_check_agrees(home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                      capsys: pytest.CaptureFixture[str], global_trust: str, status: str) -> None:
    from hookwire.cli import main
    from hookwire.config import collect, load

    project = tmp_path / "p"
    _files(home, project, global_trust, "{strict: false}")
    text = (project / ".hookwire" / "hooks.yaml").read_text()
    (project / ".hookwire" / "hooks.yaml").write_text(
        text.replace("dialect: echo, event: tool_pre", "dialect: portable, event: pre-tool-use"))
    monkeypatch.chdir(project)
    kernel = Kernel()
    (entry,) = collect(kernel, load(project)).entries
    cmd = trust.sample_command(entry, kernel.dialect("portable"), project_dir=str(project))
    trust.approve(entry, trust.TrustStore(), trust.resolve(cmd)[0])
    main(["check", "--json"])
    (row,) = json.loads(capsys.readouterr().out)["hooks"]
    assert row["status"] == status, row
    assert ("trust is strict" in row["detail"]) is (status == "untrusted")
