"""Reading settings files: entries, problems with file and line, merging, plugins."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hookwire import ConfigError, ProblemKind, Provenance
from hookwire.dialects.claude import ClaudeDialect
from hookwire.dialects.claude._jsonpos import loads_with_lines
from hookwire.dialects.claude.config import CONVERTER, CommandHandler, discover, scope_of

SETTINGS = """\
{
  "permissions": {"allow": []},
  "hooks": {
    "PreToolUse": [
      {
        "matcher": "Bash",
        "hooks": [
          {"type": "command", "command": "./ok.sh", "timeout": 5, "if": "Bash(git *)"},
          {"type": "command", "command": "./bad.sh", "timeout": "soon"},
          {"type": "command", "command": "./tool.sh", "args": ["a b", "${CLAUDE_PROJECT_DIR}"]},
          {"type": "prompt", "prompt": "is this ok? $ARGUMENTS"},
          {"type": "http", "url": "http://127.0.0.1:1/hook"}
        ]
      }
    ],
    "Bash": [{"hooks": [{"type": "command", "command": "legacy"}]}],
    "CwdChanged": [{"hooks": [{"type": "command", "command": "./batch.sh"}]}],
    "Stop": [{"hooks": [{"type": "command", "command": "./stop.sh", "async": true,
                         "onFailure": "block", "statusMessage": "checking"}]}],
    "SessionStart": "nope"
  }
}
"""


def test_reads_entries_and_reports_problems_with_lines(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    path.write_text(SETTINGS)
    result = ClaudeDialect().read_config(path)
    commands = [e.command for e in result.entries]
    assert commands == ["./ok.sh", ("./tool.sh", "a b", "${CLAUDE_PROJECT_DIR}"),
                        "is this ok? $ARGUMENTS", "http://127.0.0.1:1/hook", "./batch.sh",
                        "./stop.sh"]
    ok, _tool, judged, http, _batch, stop = result.entries
    assert judged.handler.type == "prompt" and judged.location.line == 11
    assert http.handler.type == "http" and http.location.line == 12
    assert ok.matcher == "Bash" and ok.timeout == 5 and ok.handler.if_ == "Bash(git *)"
    assert ok.location.file == str(path) and ok.location.line == 8
    assert ok.location.pointer == "$.hooks.PreToolUse[0].hooks[0]"
    assert stop.background and stop.handler.onFailure == "block"
    assert stop.handler.statusMessage == "checking"
    problems = {(p.location.line, p.event): p.message for p in result.problems}
    assert "expected float" in problems[(9, "PreToolUse")]
    assert "$.hooks.PreToolUse[0].hooks[1].timeout" in problems[(9, "PreToolUse")]
    assert (11, "PreToolUse") not in problems                    # a prompt handler runs
    assert (12, "PreToolUse") not in problems
    assert "unknown event 'Bash'" in problems[(16, "Bash")]
    assert "not emitted" in problems[(17, "CwdChanged")]
    assert "array of matcher groups" in problems[(20, "SessionStart")]
    for p in result.problems:
        assert str(p).startswith(f"{path}:")


def test_each_problem_says_its_kind(tmp_path: Path) -> None:
    """``hookwire import`` and ``check`` decide by the kind, never by the message."""
    path = tmp_path / "settings.json"
    path.write_text(SETTINGS)
    kinds = {(p.location.line, p.event): p.kind
             for p in ClaudeDialect().read_config(path).problems}
    assert kinds == {
        (9, "PreToolUse"): ProblemKind.INVALID_HANDLER,    # timeout of the wrong type
        (16, "Bash"): ProblemKind.UNKNOWN_EVENT,
        (17, "CwdChanged"): ProblemKind.NO_SEAM,
        (20, "SessionStart"): ProblemKind.INVALID_HANDLER,  # not an array of groups
    }
    path.write_text(json.dumps({"hooks": {"PreToolUse": [
        {"matcher": "(?i)bash", "extra": 1, "hooks": [
            {"type": "command", "command": "x", "timout": 3}]}],
        "SessionStart": [{"hooks": [{"type": "http", "url": "http://h"}]}]},
        "disableAllHooks": "yes"}))
    kinds = {p.location.pointer: (p.kind, p.severity)
             for p in ClaudeDialect().read_config(path).problems}
    assert kinds == {
        "$.hooks.PreToolUse[0].matcher": (ProblemKind.INVALID_MATCHER, "warning"),
        "$.hooks.PreToolUse[0].extra": (ProblemKind.UNSUPPORTED, "warning"),
        "$.hooks.PreToolUse[0].hooks[0].timout": (ProblemKind.UNSUPPORTED, "warning"),
        "$.hooks.SessionStart[0].hooks[0]": (ProblemKind.UNSUPPORTED, "warning"),
        "$.disableAllHooks": (ProblemKind.CONFIG, "error"),
    }


def test_an_unreadable_file_found_by_discovery_is_a_config_error(tmp_path: Path) -> None:
    project = tmp_path / "proj"
    (project / ".claude").mkdir(parents=True)
    (project / ".claude" / "settings.json").write_text("{not json")
    result = ClaudeDialect().discover(project, home=tmp_path / "home")
    (problem,) = result.problems
    assert (problem.kind, problem.severity) == (ProblemKind.CONFIG, "error")


def test_problem_strings_name_file_line_and_pointer(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    path.write_text('{"hooks": {"PreToolUse": [{"hooks": [{"type": "command"}]}]}}')
    (problem,) = ClaudeDialect().read_config(path).problems
    assert str(problem).startswith(f"{path}:1 @ $.hooks.PreToolUse[0].hooks[0]")
    assert "required field missing" in problem.message


def test_invalid_json_raises_with_line(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    path.write_text('{\n  "hooks": {\n    "Stop": [,]\n  }\n}\n')
    with pytest.raises(ConfigError) as err:
        ClaudeDialect().read_config(path)
    assert err.value.line == 3 and err.value.file == str(path)
    path.write_text("[1]")
    with pytest.raises(ConfigError):
        ClaudeDialect().read_config(path)


def test_unknown_handler_keys_warn_but_load(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    path.write_text(json.dumps({"hooks": {"PreToolUse": [{"hooks": [
        {"type": "command", "command": "x", "timout": 3, "rewakeMessage": "quiet"}]}]}}))
    result = ClaudeDialect().read_config(path)
    assert len(result.entries) == 1
    assert [p.message for p in result.problems] == ["unknown handler key 'timout': ignored"]


def test_legacy_shape_is_an_unknown_event(tmp_path: Path) -> None:
    # trailofbits' old {"hooks": {"Bash": [{type, command}]}}: ignored, file still valid.
    path = tmp_path / "settings.json"
    path.write_text(json.dumps({"hooks": {"Bash": [{"type": "command", "command": "x"}]},
                                "model": "opus"}))
    result = ClaudeDialect().read_config(path)
    assert result.entries == () and "unknown event" in result.problems[0].message


def test_scopes(tmp_path: Path) -> None:
    home = tmp_path / "home"
    assert scope_of(home / ".claude" / "settings.json", home) == "user"
    assert scope_of(tmp_path / "p" / ".claude" / "settings.json", home) == "project"
    assert scope_of(tmp_path / "p" / ".claude" / "settings.local.json", home) == "local"
    assert scope_of(tmp_path / "managed-settings.json", home) == "managed"
    assert scope_of(tmp_path / "x.json", home) == "cli"
    assert scope_of(tmp_path / "plug" / "hooks" / "hooks.json", home) == "plugin"


def test_discover_lists_existing_files_in_claude_order(tmp_path: Path) -> None:
    home, proj = tmp_path / "home", tmp_path / "proj"
    for p in (home / ".claude" / "settings.json", proj / ".claude" / "settings.local.json",
              proj / ".claude" / "settings.json"):
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text("{}")
    found = discover(proj, home=home)
    assert [p for p, _ in found] == [home / ".claude" / "settings.json",
                                     proj / ".claude" / "settings.json",
                                     proj / ".claude" / "settings.local.json"]
    assert [prov for _, prov in found] == [Provenance.USER, Provenance.PROJECT,
                                           Provenance.PROJECT]


def test_plugin_hooks_json_substitutes_plugin_placeholders(tmp_path: Path) -> None:
    root = tmp_path / "my-plugin"
    (root / ".claude-plugin").mkdir(parents=True)
    (root / ".claude-plugin" / "plugin.json").write_text('{"name": "guard"}')
    (root / "hooks").mkdir()
    hooks = root / "hooks" / "hooks.json"
    hooks.write_text(json.dumps({"description": "d", "hooks": {"PreToolUse": [{"hooks": [
        {"type": "command", "command": 'python3 "${CLAUDE_PLUGIN_ROOT}/g.py"'}]}]}}))
    (entry,) = ClaudeDialect().read_config(hooks, provenance=Provenance.PLUGIN).entries
    assert entry.command == f'python3 "{root}/g.py"'
    assert entry.provenance is Provenance.PLUGIN
    assert entry.handler.scope == "plugin"
    assert entry.handler.plugin["CLAUDE_PLUGIN_DATA"].endswith("/plugins/data/guard")
    # plugin.json may point at the hooks file
    (root / ".claude-plugin" / "plugin.json").write_text(
        '{"name": "guard", "hooks": "./hooks/hooks.json"}')
    result = ClaudeDialect().read_config(root / ".claude-plugin" / "plugin.json")
    assert [e.command for e in result.entries] == [entry.command]


def test_disable_all_hooks_precedence(tmp_path: Path) -> None:
    home, proj = tmp_path / "home", tmp_path / "proj"
    user = home / ".claude" / "settings.json"
    project = proj / ".claude" / "settings.json"
    for p in (user, project):
        p.parent.mkdir(parents=True)
    user.write_text('{"disableAllHooks": true}')
    project.write_text('{"disableAllHooks": false}')
    d = ClaudeDialect()
    d.read_config(user)
    assert d.hooks_disabled()
    d.read_config(project)  # project (higher) sets it back
    assert not d.hooks_disabled()
    assert not d.hooks_disabled("managed")


@given(st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner,
                                                                 max_size=3),
    max_leaves=12))
def test_position_parser_agrees_with_json(value: object) -> None:
    text = json.dumps(value, indent=1)
    parsed, lines = loads_with_lines(text)
    assert parsed == json.loads(text)
    assert lines[()] == 1


@given(st.builds(
    dict, type=st.just("command"), command=st.text(min_size=1, max_size=20),
    timeout=st.floats(min_value=0.001, max_value=1e6), onFailure=st.sampled_from(
        ["continue", "block"]),
    args=st.lists(st.text(max_size=8), max_size=3)))
def test_converter_round_trip(raw: dict[str, object]) -> None:
    handler = CONVERTER.structure(raw, CommandHandler)
    assert handler.command == raw["command"] and handler.args == tuple(raw["args"])  # type: ignore[arg-type]
    assert handler.timeout == raw["timeout"] and handler.onFailure == raw["onFailure"]
    with pytest.raises(Exception):  # noqa: B017 - cattrs' grouped validation error
        CONVERTER.structure({**raw, "async": "yes"}, CommandHandler)
