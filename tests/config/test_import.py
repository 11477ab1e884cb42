"""``hookwire import``: report rows for each reason, comment-preserving round trips."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest

from hookwire import Kernel, Provenance
from hookwire.config import load_file
from hookwire.config._shellwords import Unsafe, split
from hookwire.config.importer import translate
from hookwire.config.model import Scope
from hookwire.config.writer import append_entries, existing_keys

claude_only = pytest.mark.skipif("claude" not in Kernel().dialects,
                                 reason="the claude dialect is not installed")


@pytest.mark.parametrize(("text", "argv"), [
    ("a b  c", ["a", "b", "c"]),
    ("'a b' \"c d\" e\\ f", ["a b", "c d", "e f"]),
    ('"$CLAUDE_PROJECT_DIR"/h.sh --x', ["${CLAUDE_PROJECT_DIR}/h.sh", "--x"]),
    ("${CLAUDE_PROJECT_DIR}/h.sh", ["${CLAUDE_PROJECT_DIR}/h.sh"]),
    ("x ''", ["x", ""]),
    ("echo 'a|b;c'", ["echo", "a|b;c"]),
])
def test_split_safe(text: str, argv: list[str]) -> None:
    assert split(text, {"CLAUDE_PROJECT_DIR": "${CLAUDE_PROJECT_DIR}"}) == argv


@pytest.mark.parametrize("text", [
    "a | b", "a && b", "a; b", "a > f", "a < f", "(a)", "a `b`", "a $(b)", "echo $HOME",
    "echo *.py", "~/x", "FOO=1 a", "a # c", "a {b,c}", "'open", '"open', "a\nb", "a \\",
    '"${X:-y}"',
])
def test_split_unsafe(text: str) -> None:
    with pytest.raises(Unsafe):
        split(text, {"CLAUDE_PROJECT_DIR": "/p"})


SETTINGS = {
    "hooks": {
        "PreToolUse": [{"matcher": "Bash", "hooks": [
            {"type": "command", "command": '"$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.sh -v',
             "timeout": 5, "onFailure": "block"},
            {"type": "command", "command": "cat | jq ."},
            {"type": "prompt", "prompt": "ok?"},
            {"type": "command", "command": "  "},
        ]}],
        "Setup": [{"hooks": [{"type": "command", "command": "echo setup"}]}],
        "Bogus": [{"hooks": [{"type": "command", "command": "echo bogus"}]}],
        "SubagentStop": [{"hooks": [{"type": "command", "command": "echo sub",
                                     "async": True}]}],
    },
}


def _settings(tmp_path: Path) -> Path:
    path = tmp_path / ".claude" / "settings.json"
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps(SETTINGS, indent=2))
    return path


@claude_only
def test_report_rows_for_each_reason(tmp_path: Path) -> None:
    kernel = Kernel()
    result = translate(kernel, "claude", _settings(tmp_path), host=kernel.hosts["reference"])
    rows = {(r.status, r.event, r.command): r for r in result.rows}
    by_reason = [(r.status, r.reason or "") for r in result.rows]
    assert ("imported", "") in [(s, r) for s, r in by_reason]
    assert any(s == "rejected" and "cannot be tokenised safely" in r and "'|'" in r
               for s, r in by_reason)
    assert any(s == "rejected" and "unsupported handler type 'prompt'" in r
               for s, r in by_reason)
    assert any(s == "rejected" and r == "empty command" for s, r in by_reason)
    assert any(s == "rejected" and "no seam maps the event 'Setup'" in r for s, r in by_reason)
    assert any(s == "rejected" and "no seam maps the event 'Bogus'" in r for s, r in by_reason)
    sub = rows[("imported", "SubagentStop", "echo sub")]
    assert any("does not emit subagent_stop" in w for w in sub.warnings)
    assert all(r.location.file == str(tmp_path / ".claude" / "settings.json")
               and r.location.line for r in result.rows)
    guard, echo = result.entries
    assert guard == {"dialect": "claude", "event": "PreToolUse", "matcher": "Bash",
                     "type": "command",
                     "command": ["${CLAUDE_PROJECT_DIR}/.claude/hooks/guard.sh", "-v"],
                     "timeout": 5.0, "onFailure": "block", "source": "imported:claude"}
    assert echo["async"] is True


EXISTING = """\
# my hooks — keep this comment
version: 1   # the format

sources:
- dialect: claude          # read live
  path: .claude/settings.local.json
  optional: true

hooks:
# the formatter runs after every edit
- dialect: claude
  event: PostToolUse
  matcher: Edit|Write
  type: command
  command: [ruff, format]   # argv, not shell
"""


@claude_only
def test_import_round_trip_keeps_comments_and_does_not_duplicate(tmp_path: Path) -> None:
    kernel = Kernel()
    target = tmp_path / ".hookwire" / "hooks.yaml"
    target.parent.mkdir()
    target.write_text(EXISTING)
    settings = _settings(tmp_path)

    result = translate(kernel, "claude", settings, present=existing_keys(target))
    assert append_entries(target, result.entries, comment="imported from claude") == 2
    text = target.read_text()
    assert text.startswith(EXISTING)  # every byte of the original survives, comments included
    assert "# imported from claude" in text

    loaded = load_file(target, Scope.PROJECT)
    assert [h.source for h in loaded.document.hooks] == [None, "imported:claude",
                                                         "imported:claude"]
    assert loaded.lines[("hooks", 1)] > EXISTING.count("\n")

    again = translate(kernel, "claude", settings, present=existing_keys(target))
    assert not again.entries
    assert {r.status for r in again.rows} >= {"present", "rejected"}
    assert append_entries(target, again.entries) == 0
    assert target.read_text() == text


@claude_only
def test_imported_entries_load_as_imported_and_keep_options(tmp_path: Path) -> None:
    from hookwire.config import collect
    from hookwire.config.model import Config

    kernel = Kernel()
    target = tmp_path / ".hookwire" / "hooks.yaml"
    append_entries(target, translate(kernel, "claude", _settings(tmp_path)).entries)
    loaded = load_file(target, Scope.PROJECT)
    entries = collect(kernel, Config(files=(loaded,))).entries
    assert [e.provenance for e in entries] == [Provenance.IMPORTED, Provenance.IMPORTED]
    assert entries[0].handler.onFailure == "block"
    assert entries[0].source == "imported:claude"
    assert textwrap.dedent(target.read_text()).startswith("# hookwire hooks file")


codex_only = pytest.mark.skipif("codex" not in Kernel().dialects,
                                reason="the codex dialect is not installed")


@codex_only
def test_codex_import_keeps_what_runs_and_drops_codex_trust_state(tmp_path: Path,
                                                                   monkeypatch) -> None:
    monkeypatch.setenv("CODEX_HOME", str(tmp_path / "codex-home"))
    path = tmp_path / ".codex" / "hooks.json"
    path.parent.mkdir()
    path.write_text(json.dumps({"hooks": {
        "PreToolUse": [{"matcher": "Bash", "hooks": [
            {"type": "command", "command": "./guard.sh --strict", "statusMessage": "checking",
             "additionalContextLimit": 100}]}],
        "Stop": [{"hooks": [{"type": "command", "command": "./stop.sh"}]}],
    }}))
    (tmp_path / "codex-home").mkdir()
    (tmp_path / "codex-home" / "config.toml").write_text(
        f'[hooks.state.{json.dumps(f"{path}:stop:0:0")}]\nenabled = false\n')
    result = translate(Kernel(), "codex", path)
    (guard,) = result.entries
    assert guard == {"dialect": "codex", "event": "PreToolUse", "matcher": "Bash",
                     "type": "command", "command": ["./guard.sh", "--strict"],
                     "timeout": 600.0,
                     "options": {"status_message": "checking", "context_limit": 100},
                     "source": "imported:codex"}
    stop = [r for r in result.rows if r.event == "Stop"]
    assert [(r.status, "enabled = false" in (r.reason or "")) for r in stop] == [
        ("rejected", True)]


def test_import_asks_the_dialect_and_decides_problems_by_kind(tmp_path: Path) -> None:
    """A dialect core does not know: its export decides what is kept or refused, and its
    problems are rejected or reported by kind and severity, never by their wording."""
    from hookwire import ConfigProblem, ConfigResult, HookEntry, Location
    from hookwire.dialect import Export, ProblemKind
    from hookwire.testing import EchoDialect

    def at(i: int) -> Location:
        return Location(file=str(tmp_path / "native.json"), line=i + 1, pointer=f"$.h[{i}]")

    class Native(EchoDialect):
        def read_config(self, path, *, provenance=Provenance.USER):  # type: ignore[override]
            entries = tuple(HookEntry(dialect="echo", event="tool_pre", command=f"./h{i}.sh x",
                                      matcher="Bash", provenance=provenance, location=at(i),
                                      timeout=3.0 if i == 0 else None, handler=i)
                            for i in range(3))
            problems = (
                ConfigProblem(message="wording that says nothing", location=at(3),
                              kind=ProblemKind.UNSUPPORTED),
                ConfigProblem(message="a note about the file", location=at(4)),
                ConfigProblem(message="odd", location=at(5), kind=ProblemKind.INVALID_HANDLER),
            )
            return ConfigResult(entries=entries, problems=problems)

        def config_paths(self, project_dir, home=None):  # type: ignore[override]
            return [Path(project_dir) / "native.json"]

        def export(self, entry):  # type: ignore[override]
            return [Export(options={"onFailure": "block", "label": "zero"}, warnings=("w",)),
                    Export(rejected="the harness switched it off"),
                    Export()][entry.handler]

    kernel = Kernel(load_entry_points=False)
    kernel.add_dialect(Native())
    from hookwire.config.importer import default_path

    assert default_path(kernel.dialect("echo"), tmp_path) == tmp_path / "native.json"
    result = translate(kernel, "echo", tmp_path / "native.json")
    rows = [(r.status, r.command, r.reason, r.warnings) for r in result.rows]
    assert rows == [
        ("imported", "./h0.sh x", None, ("w",)),
        ("rejected", "./h1.sh x", "the harness switched it off", ()),
        ("imported", "./h2.sh x", None, ()),
        ("rejected", None, "wording that says nothing", ()),
        ("warning", None, "a note about the file", ()),  # CONFIG: only a warning
        ("rejected", None, "odd", ()),
    ]
    assert result.entries == (
        {"dialect": "echo", "event": "tool_pre", "matcher": "Bash", "type": "command",
         "command": ["./h0.sh", "x"], "timeout": 3.0, "onFailure": "block",
         "options": {"label": "zero"}, "source": "imported:echo"},
        {"dialect": "echo", "event": "tool_pre", "matcher": "Bash", "type": "command",
         "command": ["./h2.sh", "x"], "source": "imported:echo"},
    )


@codex_only
def test_codex_import_rejects_what_the_reader_left_out_by_kind(tmp_path: Path,
                                                               monkeypatch) -> None:
    monkeypatch.setenv("CODEX_HOME", str(tmp_path / "codex-home"))
    path = tmp_path / ".codex" / "hooks.json"
    path.parent.mkdir()
    path.write_text(json.dumps({"hooks": {
        "Stop": [{"hooks": [{"type": "prompt", "prompt": "ok?"},
                            {"type": "command", "command": "  "},
                            {"type": "command", "command": "./stop.sh"}]}],
        "PreToolUse": [{"matcher": "[", "hooks": [{"type": "command", "command": "./x"}]}],
    }}))
    rows = [(r.status, r.reason or "") for r in translate(Kernel(), "codex", path).rows]
    assert ("imported", "") in rows
    assert any(s == "rejected" and r.startswith("skipping prompt hook") for s, r in rows)
    assert any(s == "rejected" and r.startswith("skipping empty hook command") for s, r in rows)
    # an invalid matcher is reported, not a rejected handler (the reader's own note)
    assert any(s == "warning" and r.startswith('invalid matcher "["') for s, r in rows)


@claude_only
def test_an_invalid_claude_matcher_is_a_warning_and_its_handlers_are_imported(
        tmp_path: Path) -> None:
    path = tmp_path / ".claude" / "settings.json"
    path.parent.mkdir()
    path.write_text(json.dumps({"hooks": {"PreToolUse": [
        {"matcher": "(?i)bash", "hooks": [{"type": "command", "command": "./guard.sh"}]}]}}))
    rows = [(r.status, r.command) for r in translate(Kernel(), "claude", path).rows]
    assert rows == [("warning", None), ("imported", "./guard.sh")]
