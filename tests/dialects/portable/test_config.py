"""The hooks.json format: what loads, what is rejected and why, and that the published JSON
Schema agrees with the reader on every case it can express."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from hookwire import ProblemKind
from hookwire.dialects.portable import PortableDialect
from hookwire.dialects.portable.config import load
from hookwire.errors import ConfigError

SCHEMA_URL = "https://hookwire.dev/schemas/portable-hooks/0.1.0/hooks.schema.json"
OK = "#!/bin/sh\nexit 0\n"


def doc(hooks: dict[str, Any]) -> dict[str, Any]:
    return {"$schema": SCHEMA_URL, "hooks": hooks}


def test_valid_file_loads_in_declaration_order_with_a_failure_shadow(make_plugin) -> None:
    root = make_plugin({
        "session-start": [{"command": "./bin/a"}],
        "post-tool-use": [{"command": "./bin/a", "args": ["x"]}, {"command": "true"}],
    }, scripts={"bin/a": OK})
    result = PortableDialect().read_config(root / "hooks.json")
    assert not result.problems
    assert [(e.event, e.command) for e in result.entries] == [
        ("session-start", ("./bin/a",)),
        ("post-tool-use", ("./bin/a", "x")),
        ("post-tool-use/failed", ("./bin/a", "x")),
        ("post-tool-use", ("true",)),
        ("post-tool-use/failed", ("true",)),
    ]
    assert result.entries[0].location.pointer == "$.hooks.session-start[0]"
    assert result.settings["root"] == str(root)


def test_a_plugin_directory_reads_its_hooks_json(make_plugin) -> None:
    root = make_plugin({"turn-end": [{"command": "true"}]})
    assert load(root).events == ("turn-end",)


BAD_COMMANDS = [
    ("echo hello", "one executable token"),
    ("sh -c 'rm -rf /'", "one executable token"),
    ("${PLUGIN_ROOT}/bin/a", "no placeholder is expanded in command"),
    ("/usr/bin/env", "must start with ./"),
    ("../outside", "must start with ./"),
    ("bin/a", "must start with ./"),
    ("~/bin/a", "one executable token"),
    ("./bin/a;reboot", "one executable token"),
    ("./a b", "one executable token"),
    ("$(whoami)", "no placeholder|one executable token"),
    ("", "must not be empty"),
]


@pytest.mark.parametrize(("command", "why"), BAD_COMMANDS)
def test_bad_command_is_rejected_and_the_others_load(make_plugin, schema_check, command: str,
                                                     why: str) -> None:
    hooks = {"pre-tool-use": [{"command": command}, {"command": "./bin/a"}]}
    root = make_plugin(hooks, scripts={"bin/a": OK})
    result = PortableDialect().read_config(root / "hooks.json")
    assert [e.command for e in result.entries] == [("./bin/a",)]
    (problem,) = result.problems
    assert problem.severity == "error"
    assert problem.location.pointer == "$.hooks.pre-tool-use[0].command"
    assert any(w in problem.message for w in why.split("|")), problem.message
    assert schema_check("hooks", doc(hooks)), "the schema must reject it too"


def test_containment_rejects_dotdot_and_symlinks_out_of_the_root(make_plugin,
                                                                 tmp_path: Path) -> None:
    outside = tmp_path / "outside.sh"
    outside.write_text(OK)
    outside.chmod(0o755)
    root = make_plugin({"pre-tool-use": [
        {"command": "./../outside.sh"},
        {"command": "./link"},
        {"command": "./inner-link"},
        {"command": "true", "cwd": "./dirlink"},
        {"command": "true", "cwd": "${PLUGIN_ROOT}/../"},
    ]}, scripts={"bin/a": OK})
    (root / "link").symlink_to(outside)
    (root / "inner-link").symlink_to(root / "bin" / "a")  # a link whose target is inside
    (root / "dirlink").symlink_to(tmp_path)
    result = PortableDialect().read_config(root / "hooks.json")
    assert [e.command for e in result.entries] == [("./inner-link",)]
    assert len(result.problems) == 4
    assert all("outside" in p.message for p in result.problems), result.problems


@pytest.mark.parametrize("name", ["PLUGIN_ROOT", "PLUGIN_DATA", "plugin_root", "Plugin_Data"])
def test_reserved_env_names_invalidate_the_handler(make_plugin, schema_check, name: str) -> None:
    hooks = {"turn-start": [{"command": "true", "env": {name: "x"}}]}
    result = PortableDialect().read_config(make_plugin(hooks) / "hooks.json")
    assert not result.entries
    assert "reserved" in result.problems[0].message
    assert schema_check("hooks", doc(hooks))


@pytest.mark.parametrize(("raw", "why"), [
    ({"$schema": "https://hookwire.dev/schemas/portable-hooks/9.0.0/hooks.schema.json",
      "hooks": {}}, "unsupported $schema"),
    ({"hooks": {}}, "unsupported $schema"),
    ({"$schema": SCHEMA_URL, "hooks": {}, "extra": 1}, "unknown key"),
    ({"$schema": SCHEMA_URL, "hooks": []}, "hooks must be an object"),
    ({"$schema": SCHEMA_URL, "hooks": {"turn-end": [{"command": "true"}] * 8,
                                       "turn-start": [{"command": "true"}] * 8,
                                       "session-start": [{"command": "true"}] * 8,
                                       "session-end": [{"command": "true"}] * 8,
                                       "pre-tool-use": [{"command": "true"}]}},
     "at most 32 handlers"),
])
def test_file_level_violations_reject_the_whole_file(make_plugin, raw: dict[str, Any],
                                                     why: str) -> None:
    result = PortableDialect().read_config(make_plugin({}, raw=raw) / "hooks.json")
    assert not result.entries
    assert why in result.problems[0].message


HANDLER_CASES: list[tuple[dict[str, Any], bool]] = [
    ({"command": "true", "args": ["a", "${PLUGIN_ROOT}"], "env": {"A": "${PLUGIN_DATA}"},
      "cwd": "${PLUGIN_DATA}/work", "timeout": 2.5, "result": "context"}, True),
    ({"command": "true", "cwd": "."}, True),
    ({"command": "true", "args": "a b"}, False),
    ({"command": "true", "args": [1]}, False),
    ({"command": "true", "env": {"A": 1}}, False),
    ({"command": "true", "env": {"1A": "x"}}, False),
    ({"command": "true", "cwd": "/tmp"}, False),
    ({"command": "true", "cwd": "$HOME"}, False),
    ({"command": "true", "timeout": 0}, False),
    ({"command": "true", "timeout": 601}, False),
    ({"command": "true", "result": "block"}, False),
    ({"command": "true", "shell": True}, False),
    ({"args": ["x"]}, False),
    ({"command": "true", "args": ["x"] * 65}, False),
]


@pytest.mark.parametrize(("handler", "valid"), HANDLER_CASES)
def test_reader_and_schema_agree(make_plugin, schema_check, handler: dict[str, Any],
                                 valid: bool) -> None:
    hooks = {"turn-start": [handler]}
    result = PortableDialect().read_config(make_plugin(hooks) / "hooks.json")
    assert bool(result.entries) is valid, result.problems
    assert (not schema_check("hooks", doc(hooks))) is valid


def test_unknown_event_and_too_many_handlers_are_reported(make_plugin, schema_check) -> None:
    hooks = {"PreToolUse": [{"command": "true"}], "turn-end": [{"command": "true"}] * 9,
             "post-tool-use/failed": [{"command": "true"}], "session-end": [{"command": "true"}]}
    result = PortableDialect().read_config(make_plugin(hooks) / "hooks.json")
    assert [e.event for e in result.entries] == ["session-end"]
    messages = [p.message for p in result.problems]
    assert sum("unknown event" in m for m in messages) == 2
    assert any("1 to 8" in m for m in messages)
    kinds = {p.event: p.kind for p in result.problems}
    assert kinds == {"PreToolUse": ProblemKind.UNKNOWN_EVENT,
                     "post-tool-use/failed": ProblemKind.UNKNOWN_EVENT,
                     "turn-end": ProblemKind.INVALID_HANDLER}
    assert schema_check("hooks", doc(hooks))


def test_context_mode_on_session_end_is_a_warning(make_plugin) -> None:
    hooks = {"session-end": [{"command": "true", "result": "context"}]}
    result = PortableDialect().read_config(make_plugin(hooks) / "hooks.json")
    assert result.entries and not result.entries[0].handler.context
    assert result.problems[0].severity == "warning"


def test_a_bad_handler_is_an_invalid_handler_and_a_bad_file_a_config_error(make_plugin) -> None:
    hooks = {"session-end": [{"command": "true", "timeout": -1}, {"command": "true"}]}
    result = PortableDialect().read_config(make_plugin(hooks) / "hooks.json")
    assert len(result.entries) == 1
    assert [(p.kind, p.severity) for p in result.problems] == [
        (ProblemKind.INVALID_HANDLER, "error")]
    root = make_plugin(hooks)
    (root / "hooks.json").write_text(json.dumps({"hooks": {}}))  # no $schema
    assert [(p.kind, p.severity) for p in PortableDialect().read_config(
        root / "hooks.json").problems] == [(ProblemKind.CONFIG, "error")]


def test_unreadable_files_raise_config_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="no such hooks file"):
        load(tmp_path / "missing.json")
    bad = tmp_path / "hooks.json"
    bad.write_text('{"$schema": ')
    with pytest.raises(ConfigError, match="invalid JSON") as info:
        load(bad)
    assert info.value.line == 1


def test_problem_lines_point_into_the_file(make_plugin) -> None:
    root = make_plugin({"turn-start": [{"command": "true"}], "turn-end": [{"command": "a b"}]})
    (problem,) = PortableDialect().read_config(root / "hooks.json").problems
    text = (root / "hooks.json").read_text().splitlines()
    assert problem.location.line is not None
    assert '"a b"' in text[problem.location.line - 1]  # the handler's field itself


def test_plugin_name_comes_from_the_manifest(make_plugin) -> None:
    root = make_plugin({"turn-end": [{"command": "true"}]}, name="Some Dir")
    assert load(root).name == "some-dir"
    (root / "plugin.json").write_text(json.dumps({"name": "acme.recorder"}))
    assert load(root).name == "acme.recorder"
    assert os.path.isabs(str(load(root).root))
