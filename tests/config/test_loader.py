"""hookwire's own hooks file: layering, concatenation, validation with file and line."""

from __future__ import annotations

import textwrap
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import attrs
import pytest

from hookwire import ConfigError, Kernel, Provenance
from hookwire.config import ConfigFileError, Scope, collect, install, load, load_text
from hookwire.config.loader import global_file, user_dir
from hookwire.testing import EchoDialect


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text).lstrip())
    return path


def hook(event: str, *argv: str, extra: str = "") -> str:
    return (f"  - dialect: echo\n    event: {event}\n    type: command\n"
            f"    command: [{', '.join(argv)}]\n{extra}")


@attrs.frozen(kw_only=True)
class EchoHandler:
    if_: str | None = None
    on_failure: str = "continue"


class TypedEcho(EchoDialect):
    """The echo dialect with a typed handler: ``if`` and ``onFailure``, nothing else."""

    handler_type = EchoHandler

    def handler_from_options(self, options: Mapping[str, Any]) -> EchoHandler:
        unknown = set(options) - {"if", "onFailure"}
        if unknown:
            raise ConfigError(f"unknown echo option {sorted(unknown)[0]!r}")
        return EchoHandler(if_=options.get("if"),
                           on_failure=options.get("onFailure", "continue"))


@pytest.fixture
def kernel() -> Kernel:
    k = Kernel(load_entry_points=False)
    k.add_dialect(TypedEcho())
    return k


def test_user_dir_respects_xdg_and_falls_back_to_home(tmp_path: Path) -> None:
    assert user_dir({"XDG_CONFIG_HOME": str(tmp_path / "x"), "HOME": "/h"}) == (
        tmp_path / "x" / "hookwire")
    assert user_dir({"HOME": str(tmp_path)}) == tmp_path / ".config" / "hookwire"
    # a relative XDG_CONFIG_HOME is ignored, as the XDG spec says
    assert user_dir({"XDG_CONFIG_HOME": "rel", "HOME": str(tmp_path)}) == (
        tmp_path / ".config" / "hookwire")


def test_layers_concatenate_global_then_project(home: Path, tmp_path: Path,
                                                 kernel: Kernel) -> None:
    write(global_file(), "hooks:\n" + hook("tool_pre", "g1") + hook("stop", "g2"))
    project = tmp_path / "proj"
    write(project / ".hookwire" / "hooks.yaml", "hooks:\n" + hook("tool_pre", "p1"))
    deep = project / "a" / "b"
    deep.mkdir(parents=True)

    config = load(deep)  # found walking up from a subdirectory
    assert [f.scope for f in config.files] == [Scope.GLOBAL, Scope.PROJECT]
    assert config.project_root == str(project)

    install(kernel, deep)
    hooks = kernel.hooks
    assert [h.command for h in hooks] == [("g1",), ("g2",), ("p1",)]
    assert [h.provenance for h in hooks] == [Provenance.USER, Provenance.USER,
                                             Provenance.PROJECT]
    assert [h.order for h in hooks] == [0, 1, 2]
    assert hooks[2].location.file == str(project / ".hookwire" / "hooks.yaml")
    assert hooks[2].location.line == 2


def test_a_project_cannot_remove_a_global_entry(home: Path, tmp_path: Path,
                                                kernel: Kernel) -> None:
    write(global_file(), "hooks:\n" + hook("tool_pre", "guard"))
    # an empty project file, and one with the same entry: the global one is always kept
    write(tmp_path / "p" / ".hookwire" / "hooks.yaml", "hooks: []\n")
    install(kernel, tmp_path / "p")
    assert [h.command for h in kernel.hooks] == [("guard",)]


def test_nearest_project_file_wins(home: Path, tmp_path: Path) -> None:
    write(tmp_path / "outer" / ".hookwire" / "hooks.yaml", "hooks:\n" + hook("stop", "outer"))
    write(tmp_path / "outer" / "inner" / ".hookwire" / "hooks.yaml",
          "hooks:\n" + hook("stop", "inner"))
    config = load(tmp_path / "outer" / "inner")
    assert [f.document.hooks[0].command for f in config.files] == [("inner",)]


def test_no_files_is_an_empty_config(home: Path, tmp_path: Path) -> None:
    assert load(tmp_path).files == ()


def test_entry_fields_and_source_provenance(home: Path, tmp_path: Path,
                                            kernel: Kernel) -> None:
    write(tmp_path / ".hookwire" / "hooks.yaml", """
        version: 1
        hooks:
          - dialect: echo
            event: tool_pre
            matcher: Bash
            type: command
            command: [./guard.sh, --strict]
            timeout: 5
            onFailure: block
            async: true
            options: {if: "Bash(git *)"}
            source: imported:claude
          - dialect: echo
            event: stop
            type: command
            command: [x]
            source: plugin:formatter
        """)
    install(kernel, tmp_path)
    first, second = kernel.hooks
    assert first.command == ("./guard.sh", "--strict")
    assert first.matcher == "Bash" and first.timeout == 5.0 and first.background
    assert first.handler == EchoHandler(if_="Bash(git *)", on_failure="block")
    assert second.handler == EchoHandler()
    assert (first.source, second.source) == ("imported:claude", "plugin:formatter")
    assert first.provenance is Provenance.IMPORTED
    assert second.provenance is Provenance.PLUGIN


def test_an_option_the_dialect_rejects_makes_the_entry_invalid_with_its_place(
        home: Path, tmp_path: Path, kernel: Kernel) -> None:
    path = write(tmp_path / ".hookwire" / "hooks.yaml", """
        version: 1
        hooks:
          - dialect: echo
            event: stop
            type: command
            command: [ok]
          - dialect: echo
            event: stop
            type: command
            command: [x]
            options: {bogus: 1}
        """)
    found = collect(kernel, load(tmp_path))
    assert [e.command for e in found.entries] == [("ok",)]
    (bad,) = found.invalid
    assert (bad.file, bad.line, bad.event, bad.dialect) == (str(path), 7, "stop", "echo")
    assert bad.problem == "unknown echo option 'bogus' @ $.hooks[1].options"


def test_live_sources_are_read_by_their_dialect(home: Path, tmp_path: Path) -> None:
    class Reading(EchoDialect):
        def read_config(self, path, *, provenance=Provenance.USER):  # type: ignore[override]
            from hookwire import ConfigResult, Location
            return ConfigResult(entries=(self.entry("stop", ["from", path.name],
                                                    provenance=provenance,
                                                    location=Location(file=str(path), line=3)),))

    k = Kernel(load_entry_points=False)
    k.add_dialect(Reading())
    (tmp_path / "foreign.json").write_text("{}")
    write(tmp_path / ".hookwire" / "hooks.yaml", """
        sources:
          - {dialect: echo, path: foreign.json}
          - {dialect: echo, path: missing.json, optional: true}
        hooks:
          - {dialect: echo, event: stop, type: command, command: [own]}
        """)
    found = install(k, tmp_path)
    assert [h.command for h in k.hooks] == [("own",), ("from", "foreign.json")]
    assert k.hooks[1].provenance is Provenance.LIVE
    assert any("missing.json" in w.message for w in found.warnings)


def test_invalid_entries_against_installed_dialects(home: Path, tmp_path: Path,
                                                    kernel: Kernel) -> None:
    path = write(tmp_path / ".hookwire" / "hooks.yaml", """
        sources:
          - {dialect: echo, path: nowhere.json}
        hooks:
          - {dialect: nope, event: stop, type: command, command: [a]}
          - {dialect: echo, event: Nope, type: command, command: [a]}
        """)
    found = collect(kernel, load(tmp_path))
    problems = [(i.line, i.problem) for i in found.invalid]
    assert problems[0][0] == 4 and "unknown dialect 'nope'" in problems[0][1]
    assert problems[1][0] == 5 and "has no event 'Nope'" in problems[1][1]
    assert problems[2][0] == 2 and "nowhere.json does not exist" in problems[2][1]
    with pytest.raises(ConfigFileError) as info:
        install(kernel, tmp_path)
    assert {e.line for e in info.value.errors} == {2, 4, 5}
    assert all(e.file == str(path) for e in info.value.errors)


@pytest.mark.parametrize(("text", "line", "needle", "event"), [
    ("hooks:\n  - dialect: echo\n    event: stop\n    type: command\n    command: ls -l\n",
     5, "expected a list, got 'ls -l' @ $.hooks[0].command", "stop"),
    ("hooks:\n  - dialect: echo\n    event: stop\n    type: command\n    command: []\n",
     5, "shell text is not accepted) @ $.hooks[0].command", "stop"),
    ("hooks:\n  - dialect: echo\n    event: stop\n    type: command\n    command: [a, '']\n",
     5, "must not be empty @ $.hooks[0].command[1]", "stop"),
    ("hooks:\n  - dialect: echo\n    event: stop\n    type: command\n    command: [a, 3]\n",
     5, "expected a string, got 3 @ $.hooks[0].command[1]", "stop"),
    ("hooks:\n  - dialect: echo\n    event: stop\n    type: http\n    command: [a]\n",
     4, "must be 'command', not 'http' @ $.hooks[0].type", "stop"),
    ("hooks:\n  - dialect: echo\n    event: stop\n    type: wasm\n    command: [a]\n",
     4, "must be 'command', not 'wasm' @ $.hooks[0].type", "stop"),
    ("hooks:\n  - dialect: echo\n    event: stop\n    type: command\n    command: ['  ']\n",
     5, "argv[0]) is blank: '  ' names no file @ $.hooks[0].command[0]", "stop"),
    ("hooks:\n  - dialect: echo\n    event: stop\n    command: [a]\n",
     2, "required field missing @ $.hooks[0].type", "stop"),
    ("hooks:\n  - dialect: echo\n    event: stop\n    type: command\n    command: [a]\n"
     "    timeout: -3\n", 6, "positive number of seconds @ $.hooks[0].timeout", "stop"),
    ("hooks:\n  - dialect: echo\n    event: stop\n    type: command\n    command: [a]\n"
     "    timeout: '3'\n", 6, "expected a number", "stop"),
    ("hooks:\n  - dialect: echo\n    event: stop\n    type: command\n    command: [a]\n"
     "    comand: x\n", 2, "unknown field 'comand' @ $.hooks[0]", "stop"),
    ("hooks:\n  - dialect: echo\n    event: stop\n    type: command\n    command: [a]\n"
     "    source: user\n", 6, "`source` must be", "stop"),
    ("hooks:\n  - dialect: echo\n    event: stop\n    type: command\n    command: [a]\n"
     "    onFailure: explode\n", 6, "must be 'continue' or 'block', not 'explode'", "stop"),
    ("version: 2\n", 1, "unsupported version 2", None),
    ("hooks: {a: 1}\n", 1, "expected a list, got a mapping @ $.hooks", None),
    ("- 1\n", 1, "must be a mapping", None),
    ("hooks:\n  - [\n", 3, "invalid YAML", None),
    ("a: 1\na: 2\n", 2, "invalid YAML", None),
    ("when: 2024-01-01\n", 1, "unsupported YAML value", None),
])
def test_every_error_names_file_line_event_and_entry(text: str, line: int, needle: str,
                                                     event: str | None) -> None:
    with pytest.raises(ConfigError) as info:
        load_text(text, file="hooks.yaml")
    err = info.value
    assert isinstance(err, ConfigFileError)
    assert any(needle in e.message for e in err.errors), [e.message for e in err.errors]
    first = next(e for e in err.errors if needle in e.message)
    assert first.file == "hooks.yaml"
    assert first.line == line
    assert first.event == event
    if "$.hooks[0]" in first.message:
        assert first.entry == "hooks[0]"
    assert str(first).startswith(f"hooks.yaml:{line}: ")


def test_all_errors_of_a_file_are_collected() -> None:
    text = ("hooks:\n"
            "  - {dialect: echo, event: stop, type: command, command: x}\n"
            "  - {dialect: echo, event: stop, type: command, command: [a], bad: 1}\n")
    with pytest.raises(ConfigFileError) as info:
        load_text(text, file="f.yaml")
    assert [(e.line, e.entry) for e in info.value.errors] == [(2, "hooks[0]"), (3, "hooks[1]")]
    assert "and 1 more problem" in str(info.value)


def test_alias_bombs_and_recursion_are_config_errors() -> None:
    bomb = "a: &a [x, x, x, x, x, x, x, x, x, x]\n"
    prev = "a"
    for i in range(8):
        bomb += f"b{i}: &b{i} [" + ", ".join([f"*{prev}"] * 10) + "]\n"
        prev = f"b{i}"
    with pytest.raises(ConfigFileError, match="too large"):
        load_text(bomb, file="f.yaml")
