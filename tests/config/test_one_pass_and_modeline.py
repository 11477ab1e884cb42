"""A hooks file's problems all in one pass (with "did you mean" for keys), and the files
``import`` writes: the editor modeline, and a comment-only file's comment kept."""

from __future__ import annotations

import json
from importlib import resources

import pytest

from hookwire.config import ConfigFileError, Scope, load_text
from hookwire.config.writer import MODELINE, append_entries

ENTRY = {"dialect": "claude", "event": "Stop", "type": "command", "command": ["./a.sh"],
         "source": "imported:claude"}


def problems(text: str) -> list[tuple[int | None, str]]:
    with pytest.raises(ConfigFileError) as info:
        load_text(text, file="hooks.yaml", scope=Scope.PROJECT)
    return [(e.line, e.message) for e in info.value.errors]


def test_structural_and_value_problems_come_together_in_file_order() -> None:
    found = problems(
        "version: 2\n"
        "hooks:\n"
        "  - {dialect: claude, event: Stop, type: command, command: [a], timout: 5}\n"
        "  - {dialect: claude, event: Stop, type: command, command: ['']}\n"
        "  - {dialect: '', event: Stop, type: command, command: [b], timeout: 'x'}\n")
    assert [line for line, _ in found] == [1, 3, 4, 5, 5]
    messages = [m for _, m in found]
    assert messages[0].startswith("unsupported version 2")
    assert messages[1] == "unknown field 'timout' @ $.hooks[0] (did you mean 'timeout'?)"
    assert messages[2] == "argv elements must not be empty @ $.hooks[1].command[0]"
    assert {m.split(" @ ")[0] for m in messages[3:]} == {
        "expected a number, got 'x'", "`dialect` must not be empty"}


@pytest.mark.parametrize(("key", "hint"), [("comand", "command"), ("matchr", "matcher"),
                                           ("onfailure", "onFailure")])
def test_misspelt_hook_keys_suggest_the_file_spelling(key: str, hint: str) -> None:
    ((_, message),) = problems(
        f"hooks:\n  - {{dialect: c, event: e, type: command, command: [a], {key}: x}}\n")
    assert message.endswith(f"(did you mean {hint!r}?)")


def test_an_unrelated_key_gets_no_suggestion() -> None:
    ((_, message),) = problems(
        "hooks:\n  - {dialect: c, event: e, type: command, command: [a], zzzz: x}\n")
    assert message == "unknown field 'zzzz' @ $.hooks[0]"


def test_a_new_file_carries_the_schema_modeline(tmp_path) -> None:  # type: ignore[no-untyped-def]
    target = tmp_path / "hooks.yaml"
    assert append_entries(target, [ENTRY]) == 1
    text = target.read_text()
    assert f"# {MODELINE}\n" in text
    schema = resources.files("hookwire.config").joinpath("schema.json").read_text()
    schema_id = json.loads(schema)["$id"]
    assert f"yaml-language-server: $schema={schema_id}" == MODELINE
    assert schema_id.startswith("https://")


def test_a_comment_only_file_keeps_its_comment(tmp_path) -> None:  # type: ignore[no-untyped-def]
    target = tmp_path / "hooks.yaml"
    target.write_text("# team hooks: ask Ana before adding one\n")
    assert append_entries(target, [ENTRY], comment="imported") == 1
    text = target.read_text()
    assert text.startswith("# team hooks: ask Ana before adding one\n")
    assert f"# {MODELINE}\n" in text
    (spec,) = load_text(text, file=str(target)).document.hooks
    assert list(spec.command) == ["./a.sh"]
