"""Tool vocabulary: a runtime tool mapped once reaches each dialect's hooks in its harness's name
and shape, and a rewrite comes back in the runtime's argument names. Real hook scripts."""

from __future__ import annotations

import json
import logging
import os
from pathlib import Path

import anyio
import pytest

from hookwire import Kernel
from hookwire.config import ConfigFileError, install
from hookwire.dialects.claude.testing import group, write_settings
from hookwire.dialects.codex.tools import edit_patch, parse_patch, write_patch
from hookwire.errors import ConfigError
from hookwire.problems import ProblemKind
from hookwire.tools import ToolMapping, mcp_name

#: A Claude Code hook suite as people write it: a Bash guard (exit 2 on rm -rf, rewrite of
#: `echo old`) and a Write hook that logs the path it was given.
GUARD = r'''#!/usr/bin/env python3
import json, os, sys
data = json.load(sys.stdin)
with open(os.environ["HOOK_LOG"], "a") as fh:
    fh.write(json.dumps(data) + "\n")
cmd = data["tool_input"].get("command", "")
if "rm -rf" in cmd:
    print("Blocked: rm -rf is not allowed", file=sys.stderr); sys.exit(2)
if cmd.startswith("echo old"):
    print(json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse",
        "permissionDecision": "allow",
        "updatedInput": {**data["tool_input"], "command": cmd.replace("old", "new", 1)}}}))
'''
WRITE = r'''#!/bin/sh
python3 -c 'import json,sys; print(json.load(sys.stdin)["tool_input"]["file_path"])' \
  >> "$HOOK_LOG.paths"
'''


@pytest.fixture
def suite(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    guard = tmp_path / "guard.py"
    guard.write_text(GUARD)
    write = tmp_path / "write.sh"
    write.write_text(WRITE)
    for script in (guard, write):
        script.chmod(0o755)
    monkeypatch.setenv("HOOK_LOG", str(tmp_path / "log"))
    return write_settings(tmp_path / ".claude" / "settings.json", {"PreToolUse": [
        group(str(guard), matcher="Bash"), group(str(write), matcher="Write|Edit")]})


def _logged(tmp_path: Path) -> list[dict[str, object]]:
    path = tmp_path / "log"
    return [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []


def _kernel(settings: Path, **tools: object) -> Kernel:
    kernel = Kernel()
    kernel.add_config("claude", settings)
    if tools:
        kernel.map_tools(tools)
    return kernel


SHELL = {"run_shell": {"as": "Bash", "input": {"command": "cmd"}}}
WRITE_TOOL = {"write_file": {"as": "Write", "input": {"file_path": "path", "content": "text"}}}


def test_mapped_shell_tool_meets_the_bash_guard(suite: Path, tmp_path: Path) -> None:
    kernel = _kernel(suite, **SHELL)

    async def main() -> None:
        async with kernel.session(cwd=str(tmp_path)) as session:
            denied = await session.tool_pre("run_shell", {"cmd": "rm -rf /", "cwd": "/"})
            assert denied.denied and "Blocked: rm -rf is not allowed" in (denied.reason or "")
            rewritten = await session.tool_pre("run_shell", {"cmd": "echo old", "cwd": "/"})
            assert not rewritten.denied
            # the rewrite comes back in the runtime's argument names, other arguments kept
            assert rewritten.effective_input == {"cmd": "echo new", "cwd": "/"}
            assert rewritten.original_input == {"cmd": "echo old", "cwd": "/"}

    anyio.run(main)
    seen = _logged(tmp_path)
    assert [d["tool_name"] for d in seen] == ["Bash", "Bash"]
    assert seen[0]["tool_input"] == {"command": "rm -rf /", "cwd": "/"}


def test_unmapped_tool_keeps_its_name_and_the_guard_does_not_fire(suite: Path,
                                                                   tmp_path: Path) -> None:
    kernel = _kernel(suite)

    async def main() -> None:
        async with kernel.session(cwd=str(tmp_path)) as session:
            verdict = await session.tool_pre("run_shell", {"cmd": "rm -rf /"})
            assert not verdict.denied

    anyio.run(main)
    assert _logged(tmp_path) == []


def test_mapped_write_tool_shows_file_path(suite: Path, tmp_path: Path) -> None:
    kernel = _kernel(suite, **WRITE_TOOL)

    async def main() -> None:
        async with kernel.session(cwd=str(tmp_path)) as session:
            await session.tool_pre("write_file", {"path": "notes.txt", "text": "hi"})

    anyio.run(main)
    assert (tmp_path / "log.paths").read_text().split() == ["notes.txt"]


def test_rewrite_drops_harness_fields_the_runtime_tool_lacks(tmp_path: Path,
                                                             hook_script: object) -> None:
    script = tmp_path / "desc.sh"
    script.write_text('#!/bin/sh\necho \'{"hookSpecificOutput": {"hookEventName": "PreToolUse",'
                      ' "permissionDecision": "allow", "updatedInput": {"command": "ls",'
                      ' "description": "list"}}}\'\n')
    script.chmod(0o755)
    settings = write_settings(tmp_path / "s.json", {"PreToolUse": [group(str(script),
                                                                         matcher="Bash")]})
    kernel = _kernel(settings, **SHELL)

    async def main() -> None:
        async with kernel.session(cwd=str(tmp_path)) as session:
            verdict = await session.tool_pre("run_shell", {"cmd": "pwd"})
            assert verdict.effective_input == {"cmd": "ls"}

    anyio.run(main)


def test_post_and_batch_events_are_mapped_too(tmp_path: Path) -> None:
    log = tmp_path / "post.log"
    script = tmp_path / "post.sh"
    script.write_text(f'#!/bin/sh\ncat >> {log}\necho >> {log}\n')
    script.chmod(0o755)
    settings = write_settings(tmp_path / "s.json", {
        "PostToolUse": [group(str(script), matcher="Bash")],
        "PostToolBatch": [group(str(script))]})
    kernel = _kernel(settings, **SHELL)

    async def main() -> None:
        async with kernel.session(cwd=str(tmp_path)) as session:
            await session.tool_post("run_shell", {"cmd": "ls"}, "a\n", "t1")
            await session.tool_batch([{"tool_name": "run_shell", "tool_input": {"cmd": "ls"},
                                       "tool_use_id": "t1", "tool_response": "a\n"}])

    anyio.run(main)
    post, batch = [json.loads(line) for line in log.read_text().split("\n") if line.strip()]
    assert (post["tool_name"], post["tool_input"]) == ("Bash", {"command": "ls"})
    assert batch["tool_calls"][0]["tool_name"] == "Bash"
    assert batch["tool_calls"][0]["tool_input"] == {"command": "ls"}


def test_native_plugins_see_the_runtime_call(suite: Path, tmp_path: Path) -> None:
    from hookwire import hookimpl

    seen: list[tuple[str, dict[str, object]]] = []

    class Observer:
        @hookimpl
        def tool_pre(self, event: object) -> None:
            seen.append((event.tool_name, dict(event.tool_input)))  # type: ignore[attr-defined]

    kernel = _kernel(suite, **SHELL)
    kernel.register(Observer())

    async def main() -> None:
        async with kernel.session(cwd=str(tmp_path)) as session:
            await session.tool_pre("run_shell", {"cmd": "echo old"})

    anyio.run(main)
    assert seen == [("run_shell", {"cmd": "echo new"})]


def test_codex_hooks_see_apply_patch_for_a_mapped_write(tmp_path: Path) -> None:
    log = tmp_path / "codex.log"
    script = tmp_path / "patch.sh"
    script.write_text(f"#!/bin/sh\ncat >> {log}\n")
    script.chmod(0o755)
    hooks = tmp_path / "hooks.json"
    hooks.write_text(json.dumps({"hooks": {"PreToolUse": [
        {"matcher": "Write", "hooks": [{"type": "command", "command": str(script)}]}]}}))
    kernel = Kernel()
    kernel.add_config("codex", hooks)
    kernel.map_tools(WRITE_TOOL)

    async def main() -> None:
        async with kernel.session(cwd=str(tmp_path)) as session:
            await session.tool_pre("write_file", {"path": "a.txt", "text": "one\ntwo\n"})

    anyio.run(main)
    data = json.loads(log.read_text())
    assert data["tool_name"] == "apply_patch"
    assert data["tool_input"] == {"command": write_patch("a.txt", "one\ntwo\n")}


def test_codex_patch_round_trip() -> None:
    assert parse_patch(write_patch("a.txt", "x\ny\n")) == (
        "Write", {"file_path": "a.txt", "content": "x\ny\n"})
    assert parse_patch(edit_patch("b.py", "old", "new")) == (
        "Edit", {"file_path": "b.py", "old_string": "old", "new_string": "new"})
    assert parse_patch("*** Begin Patch\n*** Delete File: a\n*** End Patch\n") is None


def test_mapping_errors_name_the_tool_and_the_fix() -> None:
    kernel = Kernel()
    with pytest.raises(ConfigError, match="did you mean 'Bash'"):
        kernel.map_tool("run_shell", "bash")
    with pytest.raises(ConfigError, match="'cmd', which Bash does not take"):
        kernel.map_tool("run_shell", "Bash", input={"cmd": "cmd"})
    kernel.map_tool("search", mcp_name("github", "search"))
    assert kernel.tools.get("search") == ToolMapping(runtime="search",
                                                     harness="mcp__github__search")


def test_hooks_file_tools_key(suite: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                              ) -> None:
    project = tmp_path / "proj"
    (project / ".hookwire").mkdir(parents=True)
    (project / ".hookwire" / "hooks.yaml").write_text(
        "version: 1\n"
        "tools:\n"
        "  run_shell: {as: Bash, input: {command: cmd}}\n"
        f"sources:\n  - {{dialect: claude, path: {suite}}}\n")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.delenv("XDG_CONFIG_HOME", raising=False)
    kernel = Kernel()
    install(kernel, cwd=project)
    assert kernel.tools.get("run_shell") is not None


def test_hooks_file_bad_mapping_is_located(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                           ) -> None:
    project = tmp_path / "proj"
    (project / ".hookwire").mkdir(parents=True)
    (project / ".hookwire" / "hooks.yaml").write_text(
        "version: 1\ntools:\n  run_shell: {as: Bsh, input: {command: cmd}}\n")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    with pytest.raises(ConfigFileError) as info:
        install(Kernel(), cwd=project)
    assert info.value.line == 3 and "did you mean 'Bash'" in info.value.message
    (project / ".hookwire" / "hooks.yaml").write_text(
        "version: 1\ntools:\n  run_shell: {as: Bash, inputs: {command: cmd}}\n")
    with pytest.raises(ConfigFileError, match="unknown key"):
        install(Kernel(), cwd=project)


# -- loud, not silent -------------------------------------------------------------------------


def test_unmatchable_matcher_is_logged_with_the_fix(suite: Path, tmp_path: Path,
                                                    caplog: pytest.LogCaptureFixture) -> None:
    kernel = _kernel(suite)

    async def main() -> None:
        async with kernel.session(cwd=str(tmp_path), host="reference",
                                  tools=["run_shell", "read_file"]) as session:
            await session.session_start()
            return session.problems

    with caplog.at_level(logging.WARNING, logger="hookwire"):
        problems = anyio.run(main)
    unmatched = [p for p in problems if p.kind is ProblemKind.NO_TOOL_MATCHES]
    assert len(unmatched) == 2  # the Bash guard and the Write|Edit hook
    text = " ".join(r.getMessage() for r in caplog.records)
    assert "matcher 'Bash'" in text and "run_shell" in text
    assert "tools: {run_shell: {as: Bash, input: {command:" in text
    # logged once, not once per session
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="hookwire"):
        anyio.run(main)
    assert not [r for r in caplog.records if "run_shell" in r.getMessage()]


def test_mapping_silences_the_warning(suite: Path, tmp_path: Path) -> None:
    kernel = _kernel(suite, **SHELL, **WRITE_TOOL)

    async def main() -> None:
        async with kernel.session(cwd=str(tmp_path)) as session:
            session.declare_tools(["run_shell", "write_file"])
            return session.problems

    assert anyio.run(main) == ()


def test_events_the_host_never_emits_and_config_problems(tmp_path: Path,
                                                         caplog: pytest.LogCaptureFixture
                                                         ) -> None:
    settings = write_settings(tmp_path / "s.json", {
        "PreCompact": [group("true")], "Setup": [group("true")],
        "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command"}]}]})
    kernel = Kernel()
    kernel.add_config("claude", settings)

    async def main() -> None:
        async with kernel.session(cwd=str(tmp_path), host="reference") as session:
            return session.problems

    with caplog.at_level(logging.WARNING, logger="hookwire"):
        problems = anyio.run(main)
    kinds = sorted(str(p.kind) for p in problems)
    # the readers give each problem its kind; Setup is said once per file, not once per hook
    assert kinds == ["invalid handler", "no seam", "not emitted"]
    assert any("PreCompact" in r.getMessage() and "reference" in r.getMessage()
               for r in caplog.records)


def test_prompt_submit_outside_a_turn_says_so(tmp_path: Path, hook_script: object,
                                              caplog: pytest.LogCaptureFixture) -> None:
    marker = tmp_path / "fired"
    settings = write_settings(tmp_path / "s.json", {
        "UserPromptSubmit": [group(f"touch {marker}")]})
    kernel = Kernel()
    kernel.add_config("claude", settings)

    async def main() -> None:
        async with kernel.session(cwd=str(tmp_path)) as session:
            await session.prompt_submit("hello")
            return session.problems

    with caplog.at_level(logging.WARNING, logger="hookwire"):
        problems = anyio.run(main)
    assert not marker.exists()
    assert [p.kind for p in problems] == [ProblemKind.PROMPT_OUTSIDE_TURN]
    assert "session.turn()" in caplog.text


def test_session_start_in_background_gates_the_first_prompt(tmp_path: Path) -> None:
    order = tmp_path / "order"
    settings = write_settings(tmp_path / "s.json", {
        "SessionStart": [group(f"sleep 0.3; echo start >> {order}")],
        "UserPromptSubmit": [group(f"echo prompt >> {order}")]})
    kernel = Kernel()
    kernel.add_config("claude", settings)

    async def main() -> None:
        async with kernel.session(cwd=str(tmp_path)) as session, anyio.create_task_group() as tg:
            tg.start_soon(session.session_start)
            await session.user_prompt("hi")

    anyio.run(main)
    assert order.read_text().split() == ["start", "prompt"]
    os.remove(order)

    async def soon() -> None:
        async with kernel.session(cwd=str(tmp_path)) as session:
            session.session_start_soon()
            await session.user_prompt("hi")

    anyio.run(soon)
    assert order.read_text().split() == ["start", "prompt"]
