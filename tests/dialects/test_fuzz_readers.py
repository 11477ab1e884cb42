"""Hypothesis: no reader of wire text crashes. Each dialect's config readers and hook-output
interpreters get generated documents, mutated JSON/TOML, deep nesting, huge numbers, bad
bytes and wrong types; the only exception allowed is the reader's documented
:class:`~hookwire.errors.ConfigError` (with a file), and an interpreter always answers.

``HOOKWIRE_FUZZ_EXAMPLES`` sets the examples per reader (``nox -s fuzz``: 10,000); the suite
runs a modest number.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hookwire import HookEntry, Outcome, OutcomeKind
from hookwire import events as ev
from hookwire.dialects.claude import config as claude_config
from hookwire.dialects.claude.outcome import interpret as claude_interpret
from hookwire.dialects.codex import config as codex_config
from hookwire.dialects.codex.outcome import interpret as codex_interpret
from hookwire.dialects.portable import config as portable_config
from hookwire.dialects.portable.handler import PortableHandler
from hookwire.dialects.portable.outcome import interpret as portable_interpret
from hookwire.errors import ConfigError
from hookwire.verdicts import Answer

EXAMPLES = int(os.environ.get("HOOKWIRE_FUZZ_EXAMPLES", "40"))
FUZZ = settings(max_examples=EXAMPLES, deadline=None, database=None,
                suppress_health_check=list(HealthCheck))

KEYS = ["hooks", "PreToolUse", "Stop", "SessionStart", "pre-tool-use", "turn-end", "matcher",
        "type", "command", "args", "timeout", "async", "if", "shell", "onFailure", "env", "cwd",
        "result", "$schema", "description", "name", "disableAllHooks", "enabledPlugins",
        "decision", "reason", "continue", "hookSpecificOutput", "hookEventName",
        "permissionDecision", "additionalContext", "updatedInput", "context", "systemMessage",
        "statusMessage", "commandWindows", "server", "tool", "state", "x"]
scalars = st.one_of(
    st.none(), st.booleans(), st.integers(), st.integers(min_value=2**64 - 2, max_value=2**70),
    st.floats(allow_nan=False, allow_infinity=False), st.text(max_size=10),
    st.sampled_from(["command", "http", "prompt", "mcp_tool", "true", "./x.sh", "Bash", "",
                     "continue", "block", "deny", "allow", "PreToolUse", "none", "context",
                     portable_config.SCHEMA_ID, ".claude-plugin/plugin.json", "hooks/hooks.json",
                     "[", "(?P<", "*"]))
values = st.recursive(
    scalars, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                     st.dictionaries(st.sampled_from(KEYS), inner, max_size=5)),
    max_leaves=25)


def _deep(depth: int, opener: str = "[", inner: str = "1") -> str:
    closer = {"[": "]", "{": "}"}[opener[0]]
    return opener * depth + inner + closer * depth


def _mutate(text: str, data: Any) -> str:
    if not text:
        return text
    i = data.draw(st.integers(0, len(text) - 1))
    op = data.draw(st.sampled_from(["drop", "dup", "insert", "cut"]))
    if op == "drop":
        return text[:i] + text[i + 1:]
    if op == "dup":
        return text[:i] + text[i] * 2 + text[i + 1:]
    if op == "insert":
        return text[:i] + data.draw(st.sampled_from(list('{}[],:"\\ \n0aé\x00'))) + text[i:]
    return text[:i]


@st.composite
def json_texts(draw: Any) -> bytes:
    kind = draw(st.sampled_from(["doc", "doc", "mutated", "deep", "deepobj", "raw", "bytes",
                                 "bignum"]))
    if kind == "doc":
        return json.dumps(draw(values)).encode()
    if kind == "mutated":
        return _mutate(json.dumps(draw(values)), draw(st.data())).encode("utf-8", "surrogatepass")
    if kind == "deep":
        depth = draw(st.sampled_from([100, 127, 128, 129, 256, 257, 1000, 5000, 100_000]))
        return ('{"hooks": ' + _deep(depth) + "}").encode()
    if kind == "deepobj":
        depth = draw(st.integers(200, 20_000))
        return ('{"hooks": ' + '{"a":' * depth + "1" + "}" * depth + "}").encode()
    if kind == "bignum":
        return ('{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "x", '
                '"timeout": ' + "9" * draw(st.integers(1, 6000)) + "}]}]}}").encode()
    if kind == "bytes":
        return draw(st.binary(max_size=60))
    return draw(st.text(max_size=60)).encode("utf-8", "surrogatepass")


@st.composite
def toml_texts(draw: Any) -> bytes:
    kind = draw(st.sampled_from(["doc", "mutated", "deep", "raw", "bytes"]))
    events = st.dictionaries(st.sampled_from(["PreToolUse", "Stop", "x"]), values, max_size=3)
    if kind in ("doc", "mutated"):
        groups = draw(events)
        text = "[hooks]\n" + "".join(f"{k} = {json.dumps(v)}\n" for k, v in groups.items()
                                     if not isinstance(v, dict) and v is not None)
        text += "[[hooks.PreToolUse]]\nmatcher = \"Bash\"\n[[hooks.PreToolUse.hooks]]\n" \
                f"type = \"command\"\ncommand = {json.dumps(draw(st.text(max_size=8)))}\n"
        return (_mutate(text, draw(st.data())) if kind == "mutated" else text).encode(
            "utf-8", "surrogatepass")
    if kind == "deep":
        return ("[hooks]\nStop = " + _deep(draw(st.sampled_from([50, 129, 300, 50_000])))
                ).encode()
    if kind == "bytes":
        return draw(st.binary(max_size=60))
    return draw(st.text(max_size=60)).encode("utf-8", "surrogatepass")


def _config_error(exc: ConfigError, file: Path) -> None:
    assert (exc.file is not None and Path(exc.file).name == file.name) or \
        str(file) in str(exc), exc


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("fuzz")


@FUZZ
@given(json_texts())
def test_claude_settings_reader(folder: Path, data: bytes) -> None:
    path = folder / ".claude" / "settings.json"
    path.parent.mkdir(exist_ok=True)
    path.write_bytes(data)
    try:
        claude_config.read_file(path)
    except ConfigError as exc:
        _config_error(exc, path)


@FUZZ
@given(json_texts(), st.sampled_from(["hooks/hooks.json", ".claude-plugin/plugin.json",
                                      ["hooks/hooks.json", ".claude-plugin/plugin.json"],
                                      "../x.json", 3]))
def test_claude_plugin_manifest_reader(folder: Path, data: bytes, names: Any) -> None:
    root = folder / "plugin"
    (root / ".claude-plugin").mkdir(parents=True, exist_ok=True)
    (root / "hooks").mkdir(exist_ok=True)
    manifest = root / ".claude-plugin" / "plugin.json"
    manifest.write_text(json.dumps({"name": "p", "hooks": names}))
    (root / "hooks" / "hooks.json").write_bytes(data)
    files, _ = claude_config.plugin_hook_files(root)
    for file in [*files, manifest]:
        try:
            claude_config.read_file(file, provenance=claude_config.Provenance.PLUGIN)
        except ConfigError as exc:
            _config_error(exc, file)


def test_a_manifest_naming_itself_is_reported_not_followed(tmp_path: Path) -> None:
    manifest = tmp_path / ".claude-plugin" / "plugin.json"
    manifest.parent.mkdir()
    manifest.write_text(json.dumps({"name": "p", "hooks": ".claude-plugin/plugin.json"}))
    result = claude_config.read_file(manifest)
    assert "a loop" in result.problems[0].message
    assert result.problems[0].location.pointer == "$.hooks"


@FUZZ
@given(json_texts())
def test_codex_hooks_json_reader(folder: Path, data: bytes) -> None:
    path = folder / "hooks.json"
    path.write_bytes(data)
    try:
        result = codex_config.read_file(path)
    except ConfigError as exc:
        _config_error(exc, path)
        return
    for problem in result.problems:
        assert problem.location.file == str(path.absolute())


@FUZZ
@given(toml_texts())
def test_codex_config_toml_reader(folder: Path, data: bytes) -> None:
    path = folder / "config.toml"
    path.write_bytes(data)
    try:
        codex_config.read_file(path)
    except ConfigError as exc:
        _config_error(exc, path)


@FUZZ
@given(toml_texts())
def test_codex_discover_with_a_broken_user_config(folder: Path, data: bytes) -> None:
    home = folder / "codex-home"
    home.mkdir(exist_ok=True)
    (home / "config.toml").write_bytes(data)
    try:
        codex_config.discover(folder, codex_home=home, system_dir=None)
    except ConfigError as exc:
        _config_error(exc, home / "config.toml")


@FUZZ
@given(json_texts())
def test_portable_hooks_json_reader(folder: Path, data: bytes) -> None:
    root = folder / "portable"
    root.mkdir(exist_ok=True)
    (root / "hooks.json").write_bytes(data)
    (root / "plugin.json").write_bytes(data)
    try:
        portable_config.read_config(root / "hooks.json")
    except ConfigError as exc:
        _config_error(exc, root / "hooks.json")


@FUZZ
@given(st.dictionaries(st.sampled_from([*sorted(portable_config.HANDLER_KEYS), "x"]), values,
                       max_size=6), values)
def test_portable_wrong_types_are_problems(folder: Path, handler: dict[str, Any],
                                           schema: Any) -> None:
    root = folder / "portable-typed"
    root.mkdir(exist_ok=True)
    (root / "hooks.json").write_text(json.dumps(
        {"$schema": portable_config.SCHEMA_ID if schema is None else schema,
         "hooks": {"pre-tool-use": [handler]}}))
    portable_config.read_config(root / "hooks.json")  # problems, never an exception


# -- hook stdout: untrusted input too -------------------------------------------------------

PRE = ev.ToolPre(tool_name="Bash", tool_input={"command": "ls"}, tool_use_id="t1")
NATIVE = {"PreToolUse": PRE, "Stop": ev.Stop(), "UserPromptSubmit": ev.PromptSubmit(prompt="p"),
          "PostToolUse": ev.ToolPost(tool_name="Bash", tool_input={}, tool_response={}),
          "SessionStart": ev.SessionStart(source="startup")}
PORTABLE = {"pre-tool-use": PRE, "turn-end": ev.Stop(), "session-start":
            ev.SessionStart(source="startup")}


@st.composite
def stdouts(draw: Any) -> bytes:
    if draw(st.booleans()):
        event = draw(st.sampled_from(sorted(NATIVE)))
        doc = {"hookSpecificOutput": {"hookEventName": event, **draw(
            st.dictionaries(st.sampled_from(KEYS), values, max_size=4))}}
        doc.update(draw(st.dictionaries(st.sampled_from(KEYS), values, max_size=3)))
        return json.dumps(doc).encode()
    return draw(json_texts())


def _outcome(data: bytes, code: int) -> Outcome:
    return Outcome(kind=OutcomeKind.EXITED, exit_code=code, stdout=data, stderr=b"e")


@FUZZ
@given(stdouts(), st.sampled_from(sorted(NATIVE)), st.sampled_from([0, 1, 2]))
def test_claude_hook_output(data: bytes, native: str, code: int) -> None:
    entry = HookEntry(dialect="claude", event=native, command="./h.sh")
    assert isinstance(claude_interpret(entry, NATIVE[native], native, _outcome(data, code)),
                      Answer)


@FUZZ
@given(stdouts(), st.sampled_from(sorted(NATIVE)), st.sampled_from([0, 1, 2]))
def test_codex_hook_output(data: bytes, native: str, code: int) -> None:
    entry = HookEntry(dialect="codex", event=native, command="./h.sh")
    assert isinstance(codex_interpret(entry, NATIVE[native], native, _outcome(data, code)),
                      Answer)


@FUZZ
@given(stdouts(), st.sampled_from(sorted(PORTABLE)), st.sampled_from([0, 1, 2]))
def test_portable_hook_output(data: bytes, native: str, code: int) -> None:
    entry = HookEntry(dialect="portable", event=native, command=("./h",),
                      handler=PortableHandler(root="/tmp", plugin="p", context=True))
    assert isinstance(portable_interpret(entry, PORTABLE[native], native,
                                         _outcome(data, code)), Answer)
