"""The gemini dialect's parts on their own: matchers, config reading and layers, payload and
command, outcomes, the tool vocabulary, the writer (real hook processes where one runs)."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from hookwire import Decision, Kernel
from hookwire.dialect import ProblemKind, Provenance
from hookwire.dialects.gemini import GeminiDialect, config, matcher, outcome, payload
from hookwire.dialects.gemini.tools import VOCABULARY
from hookwire.events import SessionInfo, ToolPre
from hookwire.render import Placement, Subject, render
from hookwire.runner import Outcome, OutcomeKind


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def _settings(path: Path, doc: dict[str, Any]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(doc, indent=2))
    return path


def test_d1_matcher_is_a_python_regex_search_with_a_literal_fallback() -> None:
    """D1: tool matchers are searched with Python's ``re`` (JavaScript's RegExp in Gemini
    CLI); a pattern that does not compile is compared as a literal name, as Gemini does."""
    assert matcher.matches("run_.*", "BeforeTool", "run_shell_command")
    assert matcher.matches("shell", "BeforeTool", "run_shell_command")  # unanchored
    assert not matcher.matches("read_.*", "BeforeTool", "run_shell_command")
    assert matcher.matches("write_file|replace", "AfterTool", "replace")
    assert matcher.matches("foo(", "BeforeTool", "foo(")  # invalid regex: literal
    assert not matcher.matches("foo(", "BeforeTool", "foo")
    assert matcher.matches(" * ", "BeforeTool", "anything") and matcher.matches(
        "", "BeforeTool", "x")
    assert matcher.matches("startup", "SessionStart", "startup")
    assert not matcher.matches("start", "SessionStart", "startup")  # triggers: exact
    assert matcher.matches("anything", "BeforeAgent", None)  # no matcher context


def test_config_reports_bad_parts_and_loads_the_rest(tmp_path: Path) -> None:
    path = _settings(tmp_path / "settings.json", {"hooks": {
        "enabled": True, "disabled": [],
        "BeforeTool": [{"matcher": "run_shell_command", "hooks": [
            {"type": "command", "command": "./guard.sh", "timeout": 1500, "name": "g"},
            {"type": "command"}, {"type": "runtime", "name": "r"}]}, {"matcher": "x"}],
        "Bogus": [], "AfterTool": {}, "BeforeModel": [{"hooks": [
            {"type": "command", "command": "m"}]}]}})
    result = config.read_file(path)
    [guard, model] = result.entries
    assert (guard.event, guard.command, guard.matcher, guard.timeout) == (
        "BeforeTool", "./guard.sh", "run_shell_command", 1.5)
    assert guard.handler.name == "g" and guard.location.line == 9
    assert guard.location.pointer == "$.hooks.BeforeTool[0].hooks[0]"
    assert model.event == "BeforeModel"
    kinds = sorted((p.kind.value, p.location.pointer) for p in result.problems)
    assert kinds == [
        ("config", "$.hooks.AfterTool"),
        ("invalid handler", "$.hooks.BeforeTool[0].hooks[1]"),
        ("invalid handler", "$.hooks.BeforeTool[1]"),
        ("no seam", "$.hooks.BeforeModel"),
        ("unknown event", "$.hooks.Bogus"),
        ("unsupported", "$.hooks.BeforeTool[0].hooks[2]")]


def test_settings_comments_are_allowed(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    path.write_text('{\n  // a comment\n  "hooks": {"SessionEnd": [{"hooks": [\n'
                    '    {"type": "command", "command": "echo \\"//x\\""} /* c */]}]}}\n')
    [entry] = config.read_file(path).entries
    assert entry.command == 'echo "//x"'


def test_discover_layers_extensions_and_switches(tmp_path: Path, monkeypatch: Any) -> None:
    home, project = tmp_path / "home", tmp_path / "project"
    monkeypatch.setenv("GEMINI_CLI_SYSTEM_SETTINGS_PATH", str(tmp_path / "system.json"))
    monkeypatch.setenv("GEMINI_CLI_SYSTEM_DEFAULTS_PATH", str(tmp_path / "defaults.json"))
    one = {"type": "command", "command": "x"}
    _settings(home / ".gemini" / "settings.json", {
        "hooksConfig": {"disabled": ["off"]},
        "hooks": {"BeforeTool": [{"hooks": [{**one, "name": "user"}]}]}})
    _settings(project / ".gemini" / "settings.json", {
        "hooks": {"BeforeTool": [{"hooks": [{**one, "name": "project"},
                                            {**one, "name": "off"}]}]}})
    _settings(tmp_path / "system.json", {"hooks": {"BeforeTool": [{"hooks": [
        {**one, "name": "system"}]}]}})
    ext = home / ".gemini" / "extensions" / "e1"
    _settings(ext / "gemini-extension.json", {"name": "e1"})
    _settings(ext / "hooks" / "hooks.json", {"hooks": {"BeforeTool": [{"hooks": [
        {"type": "command", "command": "${extensionPath}${/}run ${workspacePath}",
         "name": "ext"}]}]}})
    result = GeminiDialect().discover(project, home=home)
    names = [e.handler.name for e in result.entries]
    assert names == ["user", "project", "off", "system", "ext"]
    # the user's own, the repository's (pending until trusted: docs/trust.md), the
    # administrator's, an extension the user installed
    assert [e.provenance for e in result.entries] == [
        Provenance.USER, Provenance.PROJECT, Provenance.PROJECT, Provenance.MANAGED,
        Provenance.USER]
    assert [e.project for e in result.entries] == [
        None, str(project.resolve()), str(project.resolve()), None, None]
    ext_entry = result.entries[-1]
    assert ext_entry.command == f"{ext}{os.sep}run {project.resolve()}"
    off = result.entries[2]
    trust = GeminiDialect().harness_trust(off)
    assert trust.runs is False and trust.kind is ProblemKind.DISABLED
    # hooksConfig.enabled false: nothing runs
    _settings(tmp_path / "system.json", {"hooksConfig": {"enabled": False}})
    result = GeminiDialect().discover(project, home=home)
    assert all(e.handler.disabled for e in result.entries)


def test_untrusted_folder_runs_no_settings_hook(tmp_path: Path, monkeypatch: Any) -> None:
    home, project = tmp_path / "home", tmp_path / "project"
    monkeypatch.setenv("GEMINI_CLI_SYSTEM_SETTINGS_PATH", str(tmp_path / "none.json"))
    _settings(home / ".gemini" / "settings.json", {
        "security": {"folderTrust": {"enabled": True}},
        "hooks": {"BeforeTool": [{"hooks": [{"type": "command", "command": "u"}]}]}})
    _settings(project / ".gemini" / "settings.json", {
        "hooks": {"BeforeTool": [{"hooks": [{"type": "command", "command": "p"}]}]}})
    result = GeminiDialect().discover(project, home=home)
    assert result.entries == ()
    assert {p.kind for p in result.problems} == {ProblemKind.UNTRUSTED}
    _settings(home / ".gemini" / "trustedFolders.json", {str(project): "TRUST_FOLDER"})
    result = GeminiDialect().discover(project, home=home)
    assert [e.command for e in result.entries] == ["u", "p"]


def test_placeholders_are_quoted_in_shell_text_and_plain_in_an_argv(tmp_path: Path) -> None:
    d = GeminiDialect(home=tmp_path)
    info = SessionInfo(session_id="s1", cwd="/a b/c", project_dir="/a b/c")
    entry = config.read_hooks({"hooks": {"BeforeTool": [{"hooks": [{
        "type": "command", "command": "$GEMINI_PROJECT_DIR/g.sh $GEMINI_SESSION_ID"}]}]}},
        {}, file="f", provenance=Provenance.USER).entries[0]
    cmd = d.command(entry, ToolPre(tool_name="t"), "BeforeTool", info)
    assert cmd.shell == "'/a b/c'/g.sh s1" and cmd.shell_argv == ("bash", "-c")
    assert cmd.env is not None and cmd.env["GEMINI_PLANS_DIR"] == str(
        tmp_path / ".gemini" / "tmp" / "c" / "s1" / "plans")
    argv_entry = entry.__class__(dialect="gemini", event="BeforeTool",
                                 command=("${GEMINI_PROJECT_DIR}/g.sh", "$GEMINI_CWD"))
    cmd = d.command(argv_entry, ToolPre(tool_name="t"), "BeforeTool", info)
    assert cmd.argv == ("/a b/c/g.sh", "/a b/c")
    assert payload.quote("plain/path-1.txt") == "plain/path-1.txt"
    assert payload.quote("it's") == '"it\'s"'


@pytest.mark.parametrize(("stdout", "stderr", "code", "want"), [
    (b'{"decision":"deny"}', b"", 2, {"decision": "deny"}),  # JSON whatever the exit code
    (b"", b'{"decision":"block"}', 0, {"decision": "block"}),  # stderr when stdout is empty
    (b'"{\\"reason\\":\\"x\\"}"', b"", 0, {"reason": "x"}),  # a string holding JSON
    (b"hi", b"", 0, {"decision": "allow", "systemMessage": "hi"}),
    (b"", b"careful", 1, {"decision": "allow", "systemMessage": "Warning: careful"}),
    (b"no", b"", 7, {"decision": "deny", "reason": "no"}),
    (b"", b"", 2, None), (b"42", b"", 0, None), (b"[1]", b"", 0, {}),
])
def test_outputs_by_exit_code(stdout: bytes, stderr: bytes, code: int,
                              want: dict[str, Any] | None) -> None:
    got, _ = outcome.parse(Outcome(kind=OutcomeKind.EXITED, exit_code=code, stdout=stdout,
                                   stderr=stderr))
    assert got == want


def test_a_timed_out_hook_has_no_output() -> None:
    got, diags = outcome.parse(Outcome(kind=OutcomeKind.TIMED_OUT, exit_code=None, signal=15,
                                       stdout=b'{"decision":"deny"}'))
    assert got is None and "timed out" in diags[0]


def test_vocabulary_views_claude_names_as_gemini_tools() -> None:
    assert VOCABULARY.view("Bash", {"command": "ls", "timeout": 5}) == (
        "run_shell_command", {"command": "ls"})
    assert VOCABULARY.view("Grep", {"pattern": "x", "path": "src"}) == (
        "grep_search", {"pattern": "x", "dir_path": "src"})
    assert VOCABULARY.view("mcp__gh__issues", {"q": 1}) == ("mcp_gh_issues", {"q": 1})
    assert VOCABULARY.unview("Grep", "grep_search", {"dir_path": "lib"}) == {"path": "lib"}
    assert VOCABULARY.knows("run_shell_command") and VOCABULARY.knows("replace")


def test_write_config_round_trips(tmp_path: Path) -> None:
    path = _settings(tmp_path / "settings.json", {"hooks": {"BeforeTool": [
        {"matcher": "run_.*", "sequential": True, "hooks": [
            {"type": "command", "command": "./g", "name": "g", "timeout": 2000}]}],
        "SessionStart": [{"hooks": [{"type": "command", "command": "./s"}]}]}})
    entries = config.read_file(path).entries
    written = GeminiDialect().write_config(entries)
    again = config.read_file(_settings(tmp_path / "again.json", written)).entries
    assert [(e.event, e.command, e.matcher, e.timeout, e.handler.name, e.handler.sequential)
            for e in again] == [(e.event, e.command, e.matcher, e.timeout, e.handler.name,
                                 e.handler.sequential) for e in entries]


@pytest.mark.anyio
async def test_run_shell_guard_blocks_a_mapped_tool_in_gemini_wording(
        tmp_path: Path, hook_script: Any) -> None:
    """An unmodified Gemini CLI BeforeTool guard on run_shell_command blocks ``rm -rf`` for a
    runtime tool ``run_shell(cmd)`` mapped through ``tools:``; the model reads Gemini's
    wording."""
    guard = hook_script('input=$(cat)\ncase "$input" in *"rm -rf"*) '
                        'echo "Blocked: rm -rf" >&2; exit 2;; esac\nexit 0\n',
                        shebang="#!/bin/bash")
    path = _settings(tmp_path / "settings.json", {"hooks": {"BeforeTool": [
        {"matcher": "run_shell_command", "hooks": [{"type": "command",
                                                    "command": str(guard)}]}]}})
    kernel = Kernel(load_entry_points=False)
    kernel.add_dialect(GeminiDialect())
    kernel.add_config("gemini", path)
    kernel.map_tools({"run_shell": {"as": "run_shell_command", "input": {"command": "cmd"}}})
    async with kernel.session(cwd=str(tmp_path)) as s:
        bad = await s.tool_pre("run_shell", {"cmd": "rm -rf /"})
        good = await s.tool_pre("run_shell", {"cmd": "ls"})
    assert bad.decision is Decision.DENY and good.decision is Decision.NONE
    [text] = render(bad, kernel.dialect, Subject(tool_name="run_shell",
                                                 tool_input={"cmd": "rm -rf /"}))
    assert text.text == "Tool execution blocked: Blocked: rm -rf"
    assert text.placement is Placement.TOOL_RESULT and text.is_error


@pytest.mark.anyio
async def test_model_events_load_but_never_fire(tmp_path: Path, hook_script: Any) -> None:
    """D5: BeforeModel, AfterModel and BeforeToolSelection load (a ``no seam`` problem) and no
    seam runs them; ``event_from_wire`` refuses them."""
    log = tmp_path / "ran"
    spy = hook_script(f"cat > {log}")
    path = _settings(tmp_path / "settings.json", {"hooks": {
        name: [{"hooks": [{"type": "command", "command": str(spy)}]}]
        for name in ("BeforeModel", "AfterModel", "BeforeToolSelection")}})
    kernel = Kernel(load_entry_points=False)
    dialect = GeminiDialect()
    kernel.add_dialect(dialect)
    result = kernel.add_config("gemini", path)
    assert len(result.entries) == 3
    assert [p.kind for p in result.problems] == [ProblemKind.NO_SEAM] * 3
    async with kernel.session(cwd=str(tmp_path)) as s:
        await s.session_start()
        with s.turn():
            await s.prompt_submit("hi")
            await s.tool_pre("run_shell_command", {"command": "ls"})
            await s.stop("done")
    assert not log.exists()
    from hookwire.errors import EventDataError

    with pytest.raises(EventDataError, match="no hookwire host emits"):
        dialect.event_from_wire("BeforeModel", {})


def test_extension_enablement_decides_per_folder(tmp_path: Path, monkeypatch: Any) -> None:
    """``~/.gemini/extensions/extension-enablement.json``: the last override matching the
    project folder wins (``!`` disables, a trailing ``*`` covers subfolders); none: on."""
    from hookwire.dialects.gemini.layers import _enabled

    home, project = tmp_path / "home", (tmp_path / "work" / "proj").resolve()
    project.mkdir(parents=True)
    monkeypatch.setenv("GEMINI_CLI_SYSTEM_SETTINGS_PATH", str(tmp_path / "none.json"))
    ext = home / ".gemini" / "extensions" / "folder-name"
    _settings(ext / "gemini-extension.json", {"name": "probe"})
    _settings(ext / "hooks" / "hooks.json", {"hooks": {"SessionEnd": [{"hooks": [
        {"type": "command", "command": "x"}]}]}})
    assert [e.command for e in GeminiDialect().discover(project, home=home).entries] == ["x"]
    work = str(tmp_path / "work")
    _settings(home / ".gemini" / "extensions" / "extension-enablement.json",
              {"probe": {"overrides": [f"!{work}/*"]}})
    result = GeminiDialect().discover(project, home=home)
    assert result.entries == () and [p.kind for p in result.problems] == [ProblemKind.DISABLED]
    assert _enabled({"overrides": [f"!{work}/*", f"{project}/"]}, project)
    assert not _enabled({"overrides": [f"{project}/", f"!{work}/*"]}, project)
    assert _enabled({"overrides": [f"!{work}/"]}, project)  # not its subfolders
    assert _enabled(None, project)


@pytest.mark.anyio
async def test_two_rewrites_the_later_configured_wins_with_one_notice(
        tmp_path: Path, hook_script: Any) -> None:
    """D2: hooks of one event run concurrently; of two rewrites, the later in configuration
    order wins (Gemini merges ``hookSpecificOutput`` in that order), and the model reads one
    notice after the result."""
    first = hook_script("sleep 0.2; echo '{\"hookSpecificOutput\": {\"tool_input\": "
                        "{\"command\": \"echo first\"}}}'")
    second = hook_script("echo '{\"hookSpecificOutput\": {\"tool_input\": "
                         "{\"command\": \"echo second\"}}}'")
    path = _settings(tmp_path / "settings.json", {"hooks": {"BeforeTool": [{"hooks": [
        {"type": "command", "command": str(first)},
        {"type": "command", "command": str(second)}]}]}})
    kernel = Kernel(load_entry_points=False)
    kernel.add_dialect(GeminiDialect())
    kernel.add_config("gemini", path)
    async with kernel.session(cwd=str(tmp_path)) as s:
        verdict = await s.tool_pre("run_shell_command", {"command": "ls"})
    assert verdict.effective_input == {"command": "echo second"}
    texts = render(verdict, kernel.dialect, Subject(tool_name="run_shell_command"))
    assert [(t.text, t.placement) for t in texts] == [
        (outcome.REWRITE_NOTICE, Placement.AFTER_TOOL_RESULT)]
