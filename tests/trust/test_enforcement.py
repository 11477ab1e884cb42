"""Enforcement modes, run-wide (#22): one scenario, a Claude Code guard that times out and a
guard that denies, under ``enforce``, ``fail-closed`` and ``shadow``; where the mode comes
from (host, environment, hooks files) and that a repository cannot weaken it. Real hooks."""

from __future__ import annotations

import json
from pathlib import Path

import anyio
import pytest

from hookwire import Decision, Kernel, hookimpl
from hookwire.config import ConfigFileError, load_text
from hookwire.dialects.claude.testing import write_settings
from hookwire.plugins.runlog.recorder import RunLog


@pytest.fixture(autouse=True)
def _no_env_mode(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("HOOKWIRE_ENFORCEMENT", raising=False)


def _settings(tmp_path: Path, command: str, timeout: int | None = None) -> Path:
    hook: dict[str, object] = {"type": "command", "command": command}
    if timeout is not None:
        hook["timeout"] = timeout
    path = tmp_path / "settings.json"
    write_settings(path, {"PreToolUse": [{"matcher": "Bash", "hooks": [hook]}]})
    return path


SLOW = "sleep 5"
DENY = "echo 'no rm here' >&2; exit 2"


def _call(kernel: Kernel, tmp_path: Path) -> tuple[Decision, str, tuple[str, ...]]:
    async def go() -> tuple[Decision, str, tuple[str, ...]]:
        async with kernel.session(cwd=str(tmp_path)) as session:
            verdict = await session.tool_pre("Bash", {"command": "rm -rf build"})
        return verdict.decision, verdict.reason or "", verdict.diagnostics
    return anyio.run(go)


def _kernel(tmp_path: Path, command: str, **kwargs: object) -> Kernel:
    kernel = Kernel(**kwargs)  # type: ignore[arg-type]
    kernel.add_config("claude", _settings(tmp_path, command, 1 if command == SLOW else None))
    return kernel


@pytest.mark.parametrize(("mode", "slow", "deny"), [
    ("enforce", Decision.NONE, Decision.DENY),       # Claude Code: a timeout lets it go ahead
    ("fail-closed", Decision.DENY, Decision.DENY),   # the timeout now blocks
    ("shadow", Decision.NONE, Decision.NONE),        # nothing is enforced
])
def test_a_timeout_and_a_deny_under_each_mode(tmp_path: Path, mode: str, slow: Decision,
                                              deny: Decision) -> None:
    decision, reason, _ = _call(_kernel(tmp_path, SLOW, enforcement=mode), tmp_path)
    assert decision is slow
    if mode == "fail-closed":
        assert "timed out" in reason and "fail-closed" in reason
    decision, reason, diagnostics = _call(_kernel(tmp_path, DENY, enforcement=mode), tmp_path)
    assert decision is deny
    if mode == "shadow":
        assert any("would have given deny" in d and "no rm here" in d for d in diagnostics)


def test_shadow_records_both_verdicts_in_the_run_log(tmp_path: Path) -> None:
    logs = tmp_path / "runs"
    for command in (SLOW, DENY):
        kernel = _kernel(tmp_path, command, enforcement="shadow")
        kernel.register(RunLog(logs), name="runlog-under-test")
        decision, _, _ = _call(kernel, tmp_path)
        assert decision is Decision.NONE
    records = [json.loads(line) for f in sorted(logs.rglob("*.jsonl"))
               for line in f.read_text().splitlines()]
    assert [r["enforcement"] for r in records if r["type"] == "session"] == ["shadow"] * 2
    results = [r for r in records if r["type"] == "result"]
    assert sorted(r["outcome"] for r in results) == ["exited", "timed_out"]
    assert [r["decision"] for r in results if r["outcome"] == "exited"] == ["deny"]
    verdicts = [r for r in records if r["type"] == "seam"]
    assert any("would have given deny" in " ".join(r["verdict"]["diagnostics"])
               for r in verdicts), verdicts


@pytest.mark.parametrize("failure", ["exit 1", "printf '{\"continue\": 5}'", "kill -9 $$",
                                     "/no/such/guard"])
def test_fail_closed_blocks_every_kind_of_no_answer(tmp_path: Path, failure: str) -> None:
    enforce, _, _ = _call(_kernel(tmp_path, failure), tmp_path)
    assert enforce is Decision.NONE  # Claude Code's policy: a broken guard lets the call go
    closed, reason, _ = _call(_kernel(tmp_path, failure, enforcement="fail-closed"), tmp_path)
    assert closed is Decision.DENY and "fail-closed" in reason


def test_fail_closed_leaves_a_clean_allow_alone(tmp_path: Path) -> None:
    decision, _, _ = _call(_kernel(tmp_path, "exit 0", enforcement="fail-closed"), tmp_path)
    assert decision is Decision.NONE


def test_fail_closed_closes_a_raising_plugin(tmp_path: Path) -> None:
    class Broken:
        @hookimpl
        def tool_pre(self, event: object, session: object) -> None:
            raise RuntimeError("plugin bug")

    for mode, expected in (("enforce", Decision.NONE), ("fail-closed", Decision.DENY)):
        kernel = Kernel(enforcement=mode, plugins=[Broken()])
        assert _call(kernel, tmp_path)[0] is expected


def test_where_the_mode_comes_from(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    kernel = Kernel()
    assert kernel.dispatcher.mode() == "enforce"
    kernel.dispatcher.file_enforcement = "fail-closed"
    assert kernel.dispatcher.mode() == "fail-closed"
    monkeypatch.setenv("HOOKWIRE_ENFORCEMENT", "shadow")
    assert kernel.dispatcher.mode() == "shadow"         # the environment over the file
    assert Kernel(enforcement="enforce").dispatcher.mode() == "enforce"  # the host over both
    with pytest.raises(ValueError, match="fail-closed"):
        Kernel(enforcement="closed")


def test_a_project_file_can_tighten_but_never_weaken(tmp_path: Path) -> None:
    from hookwire.config import Config, LoadedFile, Scope

    def config(global_mode: str | None, project_mode: str | None) -> Config:
        files: list[LoadedFile] = []
        for scope, mode in ((Scope.GLOBAL, global_mode), (Scope.PROJECT, project_mode)):
            text = "version: 1\n" + (f"enforcement: {mode}\n" if mode else "")
            files.append(load_text(text, file=str(tmp_path / f"{scope.value}.yaml"),
                                   scope=scope, base=str(tmp_path)))
        return Config(files=tuple(files))

    assert config(None, "fail-closed").enforcement == "fail-closed"
    assert config(None, "shadow").enforcement is None
    assert config("shadow", "enforce").enforcement == "shadow"
    assert config("shadow", "fail-closed").enforcement == "fail-closed"
    assert config("fail-closed", "shadow").enforcement == "fail-closed"


def test_an_unknown_mode_in_a_hooks_file_is_a_located_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigFileError) as info:
        load_text("version: 1\nenforcement: lenient\n", file=str(tmp_path / "hooks.yaml"))
    assert info.value.line == 2 and "enforcement" in str(info.value)
