"""Codex config parsing rules, layering order, trust keys/hashes and ``trusted_hash`` records."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hookwire import ProblemKind, Provenance
from hookwire.dialects.codex import CodexDialect, config, trust
from hookwire.errors import ConfigError

Fire = Any


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def write(path: Path, doc: Any) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(doc if isinstance(doc, str) else json.dumps(doc, indent=2))
    return path


def cmd(command: str, **more: Any) -> dict[str, Any]:
    return {"type": "command", "command": command, **more}


def read(path: Path) -> Any:
    return config.read_file(path)


def test_root_key_other_than_description_and_hooks_fails_the_file(tmp_path: Path) -> None:
    path = write(tmp_path / "hooks.json", {"$schema": "x", "hooks": {"Stop": [
        {"hooks": [cmd("echo")]}]}})
    result = read(path)
    assert result.entries == ()
    (problem,) = result.problems
    assert problem.message.startswith(f"failed to parse hooks config {path}: unknown field "
                                      "`$schema`, expected `description` or `hooks`")


def test_unknown_events_and_unknown_keys_are_ignored(tmp_path: Path) -> None:
    path = write(tmp_path / "hooks.json", {"description": "d", "hooks": {
        "Notification": [{"hooks": [cmd("a")]}],
        "Stop": [{"extra": 1, "hooks": [cmd("b", args=["x"], timeoutSec=5)]}]}})
    result = read(path)
    assert result.problems == ()
    (entry,) = result.entries
    assert entry.event == "Stop" and entry.command == "b" and entry.timeout == 600


@pytest.mark.parametrize("bad", [
    {"Stop": {"hooks": []}},                              # event value not an array
    {"Stop": [{"hooks": [{"type": "http", "url": "x"}]}]},  # http handler
    {"Stop": [{"hooks": [{"command": "x"}]}]},            # no type
    {"Stop": [{"hooks": [cmd("x", timeout=1.5)]}]},       # not u64
    {"Stop": [{"hooks": [cmd("x", timeout=-1)]}]},
    {"Stop": [{"hooks": [cmd("x", **{"async": "yes"})]}]},
    {"Stop": [{"matcher": 3, "hooks": [cmd("x")]}]},
    {"Stop": [{"hooks": [{"type": "command"}]}]},          # command required
])
def test_type_errors_fail_the_whole_file(tmp_path: Path, bad: dict[str, Any]) -> None:
    path = write(tmp_path / "hooks.json", {"hooks": {
        "PreToolUse": [{"hooks": [cmd("fine")]}], **bad}})
    result = read(path)
    assert result.entries == ()
    assert result.problems[0].message.startswith("failed to parse hooks config")
    assert result.problems[0].severity == "error"


def test_http_message_names_the_variants(tmp_path: Path) -> None:
    path = write(tmp_path / "hooks.json", {"hooks": {"Stop": [{"hooks": [{"type": "http"}]}]}})
    assert "unknown variant `http`, expected one of `command`, `mcp_tool`, `prompt`, `agent`" \
        in read(path).problems[0].message


def test_prompt_agent_and_empty_are_skipped_with_warnings_and_mcp_tool_loads(
        tmp_path: Path) -> None:
    path = write(tmp_path / "hooks.json", {"hooks": {"Stop": [{"hooks": [
        {"type": "prompt", "prompt": "x"}, {"type": "agent"}, cmd("  "),
        {"type": "mcp_tool", "server": "s", "tool": "t"}, cmd("kept")]}]}})
    result = read(path)
    assert [p.message for p in result.problems] == [
        f"skipping prompt hook in {path}: prompt hooks are not supported yet",
        f"skipping agent hook in {path}: agent hooks are not supported yet",
        f"skipping empty hook command in {path}"]
    assert [p.kind for p in result.problems] == [
        ProblemKind.UNSUPPORTED, ProblemKind.UNSUPPORTED, ProblemKind.INVALID_HANDLER]
    mcp, entry = result.entries
    assert mcp.display == "s:t" and mcp.handler.type == "mcp_tool"
    assert [mcp.handler.display_order, entry.handler.display_order] == [0, 1]
    assert entry.handler.handler_index == 4  # skipped handlers keep their positions
    assert entry.location.line is not None and entry.location.pointer == \
        "$.hooks.Stop[0].hooks[4]"


def test_timeouts_normalised_and_clamped(tmp_path: Path) -> None:
    path = write(tmp_path / "hooks.json", {"hooks": {
        "Stop": [{"hooks": [cmd("a", timeout=0), cmd("b"), cmd("c", timeout=30)]}],
        "SessionEnd": [{"hooks": [cmd("d"), cmd("e", timeout=10, **{"async": True}),
                                  cmd("f", timeout=0)]}]}})
    result = read(path)
    assert [(e.command, e.timeout, e.background) for e in result.entries] == [
        ("a", 1, False), ("b", 600, False), ("c", 30, False),
        ("d", 1, False), ("e", 3, False), ("f", 1, False)]
    assert [p.message for p in result.problems] == [
        f"clamping SessionEnd hook timeout to 3s in {path}",
        f"running async SessionEnd hook synchronously in {path}"]


def test_invalid_matcher_skips_the_group_and_matcherless_events_drop_it(tmp_path: Path) -> None:
    path = write(tmp_path / "hooks.json", {"hooks": {
        "PreToolUse": [{"matcher": "[", "hooks": [cmd("a")]}, {"matcher": "Bash",
                                                                 "hooks": [cmd("b")]}],
        "Stop": [{"matcher": "[", "hooks": [cmd("c")]}]}})
    result = read(path)
    assert [(e.command, e.matcher, e.handler.group_index) for e in result.entries] == [
        ("b", "Bash", 1), ("c", None, 0)]
    assert result.problems[0].message.startswith(f'invalid matcher "[" in {path}: regex parse')
    assert {p.kind for p in result.problems} == {ProblemKind.INVALID_MATCHER}


def test_toml_hooks_and_both_representations_warn(tmp_path: Path) -> None:
    home = tmp_path / "home"
    write(home / "hooks.json", {"hooks": {"Stop": [{"hooks": [cmd("json")]}]}})
    write(home / "config.toml", '[[hooks.Stop]]\n[[hooks.Stop.hooks]]\ntype = "command"\n'
                                'command = "toml"\n')
    result = config.discover(tmp_path / "ws", codex_home=home, system_dir=None)
    assert [e.command for e in result.entries] == ["json", "toml"]
    assert any("prefer a single representation" in p.message for p in result.problems)
    assert all(e.provenance is Provenance.LIVE for e in result.entries)


def test_layering_order_system_user_project_plugin(tmp_path: Path) -> None:
    home, system = tmp_path / "home", tmp_path / "etc"
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    cwd = repo / "sub"
    for folder, name in ((system, "system"), (home, "user"), (repo / ".codex", "root"),
                         (cwd / ".codex", "sub")):
        write(folder / "hooks.json", {"hooks": {"Stop": [{"hooks": [cmd(name)]}]}})
    write(home / "config.toml", f'[projects."{repo}"]\ntrust_level = "trusted"\n')
    plugin = tmp_path / "plug"
    write(plugin / "hooks" / "hooks.json", {"hooks": {"Stop": [{"hooks": [
        cmd("${PLUGIN_ROOT}/run.sh")]}]}})
    result = config.discover(cwd, codex_home=home, system_dir=system,
                             plugins=[("demo@local", plugin)])
    assert [e.command for e in result.entries] == ["system", "user", "root", "sub",
                                                   f"{plugin}/run.sh"]
    assert [e.handler.layer for e in result.entries] == [
        "system", "user", "project", "project", "plugin"]
    plug = result.entries[-1]
    assert plug.handler.key == "demo@local:hooks/hooks.json:stop:0:0"
    # Codex's display order runs on across the files of the session (hook_run_id's number)
    assert [e.handler.display_order for e in result.entries] == [0, 1, 2, 3, 4]
    assert plug.handler.raw_command == "${PLUGIN_ROOT}/run.sh"
    assert plug.handler.env["CLAUDE_PLUGIN_ROOT"] == str(plugin)


def test_display_order_counts_json_then_toml_and_untrusted_or_disabled_hooks(
        tmp_path: Path) -> None:
    home = tmp_path / "home"
    write(home / "hooks.json", {"hooks": {"Stop": [{"hooks": [cmd("a")]}],
                                          "SessionStart": [{"hooks": [cmd("b")]}]}})
    key = f"{home / 'hooks.json'}:session_start:0:0"
    write(home / "config.toml", f'[hooks.state.{json.dumps(key)}]\nenabled = false\n\n'
                                '[[hooks.Stop]]\n[[hooks.Stop.hooks]]\n'
                                'type = "command"\ncommand = "c"\n')
    result = config.discover(tmp_path, codex_home=home, system_dir=None)
    assert [(e.command, e.handler.display_order) for e in result.entries] == [
        ("a", 1), ("b", 0), ("c", 2)]  # SessionStart comes before Stop in Codex's order
    assert not result.entries[1].handler.enabled


def test_display_order_puts_the_model_request_events_first(tmp_path: Path) -> None:
    """The order Codex 0.171.0's ``hooks/list`` gave for one hook of each event, whatever
    the document's order: the model-request events, then the others as in its source."""
    order = ["PreModelRequest", "PostModelRequest", "PreToolUse", "PermissionRequest",
             "PostToolUse", "PreCompact", "PostCompact", "SessionStart", "SessionEnd",
             "UserPromptSubmit", "SubagentStart", "SubagentStop", "Stop", "Interrupt"]
    path = write(tmp_path / "hooks.json", {"hooks": {
        event: [{"hooks": [cmd(event)]}] for event in reversed(order)}})
    result = config.read_file(path)
    assert sorted((e.handler.display_order, e.command) for e in result.entries) == list(
        enumerate(order))


@pytest.mark.parametrize(("trusted", "loaded"), [
    ("repo", ["root", "mid", "sub"]), ("sub", ["sub"]), ("mid", ["mid"]), (None, [])])
def test_each_project_layer_is_trusted_by_its_own_entry_or_the_roots(
        tmp_path: Path, trusted: str | None, loaded: list[str]) -> None:
    """As Codex 0.171.0 loaded them (``hooks/list``, and ``codex exec`` for the last case),
    cwd in a subfolder of a git repository: a layer's own ``[projects]`` entry, else the
    repository root's. An open policy (``never`` + ``danger-full-access``) trusts nothing."""
    home, repo = tmp_path / "home", tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    folders = {"root": repo, "mid": repo / "a", "sub": repo / "a" / "b"}
    for name, folder in folders.items():
        write(folder / ".codex" / "hooks.json", {"hooks": {"Stop": [{"hooks": [cmd(name)]}]}})
    entry = "" if trusted is None else (
        f'[projects."{folders["root" if trusted == "repo" else trusted]}"]\n'
        'trust_level = "trusted"\n')
    write(home / "config.toml", 'approval_policy = "never"\n'
                                'sandbox_mode = "danger-full-access"\n' + entry)
    result = config.discover(folders["sub"], codex_home=home, system_dir=None)
    assert [e.command for e in result.entries] == loaded
    assert len(result.problems) == 3 - len(loaded)
    assert {p.kind for p in result.problems} <= {ProblemKind.UNTRUSTED}


def test_untrusted_project_layer_is_not_loaded(tmp_path: Path) -> None:
    home, repo = tmp_path / "home", tmp_path / "repo"
    home.mkdir()
    (repo / ".git").mkdir(parents=True)
    write(repo / ".codex" / "hooks.json", {"hooks": {"Stop": [{"hooks": [cmd("p")]}]}})
    result = config.discover(repo, codex_home=home, system_dir=None)
    assert result.entries == () and "not trusted" in result.problems[0].message
    assert result.problems[0].kind is ProblemKind.UNTRUSTED


def test_a_file_that_does_not_parse_is_a_config_error(tmp_path: Path) -> None:
    path = write(tmp_path / "hooks.json", {"hooks": {"Stop": [{"hooks": [{"type": "x"}]}]},
                                           "extra": 1})
    (problem,) = config.read_file(path).problems
    assert (problem.kind, problem.severity) == (ProblemKind.CONFIG, "error")


# -- trust ---------------------------------------------------------------------------------------

def by_hand(identity: str) -> str:
    return "sha256:" + hashlib.sha256(identity.encode("utf-8")).hexdigest()


HASH_CASES = [
    ({"hooks": {"PreToolUse": [{"hooks": [cmd("python3 /tmp/lab/hook.py PreToolUse")]}]}},
     '{"event_name":"pre_tool_use","hooks":[{"async":false,"command":'
     '"python3 /tmp/lab/hook.py PreToolUse","timeout":600,"type":"command"}]}'),
    ({"hooks": {"PostToolUse": [{"matcher": "Bash|Edit", "hooks": [
        cmd("x", timeout=0, statusMessage="checking", additionalContextLimit=2500)]}]}},
     '{"event_name":"post_tool_use","hooks":[{"async":false,"command":"x",'
     '"statusMessage":"checking","timeout":1,"type":"command"}],"matcher":"Bash|Edit"}'),
    # Stop takes no additionalContextLimit (ignored, as 0.171.0's hooks/list showed)
    ({"hooks": {"Stop": [{"matcher": "ignored", "hooks": [
        cmd("échö ✓", additionalContextLimit=100, **{"async": True})]}]}},
     '{"event_name":"stop","hooks":[{"async":true,'
     '"command":"échö ✓","timeout":600,"type":"command"}]}'),
    ({"hooks": {"UserPromptSubmit": [{"hooks": [cmd("ctx", additionalContextLimit=100)]}]}},
     '{"event_name":"user_prompt_submit","hooks":[{"additionalContextLimit":100,'
     '"async":false,"command":"ctx","timeout":600,"type":"command"}]}'),
    ({"hooks": {"SessionEnd": [{"hooks": [cmd("bye", timeout=99)]}]}},
     '{"event_name":"session_end","hooks":[{"async":false,"command":"bye","timeout":3,'
     '"type":"command"}]}'),
]


@pytest.mark.parametrize(("doc", "identity"), HASH_CASES)
def test_trust_hash_reproduces_hand_computed_identity(tmp_path: Path, doc: Any,
                                                      identity: str) -> None:
    path = write(tmp_path / "hooks.json", doc)
    (entry,) = read(path).entries
    assert entry.handler.hash == by_hand(identity)
    event = next(iter(doc["hooks"]))
    label = {"PreToolUse": "pre_tool_use", "PostToolUse": "post_tool_use", "Stop": "stop",
             "SessionEnd": "session_end", "UserPromptSubmit": "user_prompt_submit"}[event]
    assert entry.handler.key == f"{path}:{label}:0:0"


def test_json_and_toml_converge_on_one_hash(tmp_path: Path) -> None:
    j = write(tmp_path / "a" / "hooks.json", {"hooks": {"Stop": [{"hooks": [cmd("z")]}]}})
    t = write(tmp_path / "b" / "config.toml",
              '[[hooks.Stop]]\n[[hooks.Stop.hooks]]\ntype = "command"\ncommand = "z"\n')
    assert read(j).entries[0].handler.hash == read(t).entries[0].handler.hash


@pytest.mark.anyio
async def test_trusted_hash_is_honoured_for_discovered_hooks(tmp_path: Path) -> None:
    from hookwire import Kernel

    home = tmp_path / "home"
    ws = tmp_path / "ws"
    ws.mkdir()
    hooks = write(home / "hooks.json", {"hooks": {"UserPromptSubmit": [{"hooks": [
        cmd("echo trusted-one"), cmd("echo untrusted-two"), cmd("echo modified-three"),
        cmd("echo disabled-four")]}]}})
    first = read(hooks).entries
    h = [e.handler.hash for e in first]
    k = [e.handler.key for e in first]
    write(home / "config.toml", trust.trust_snippet(k[0], h[0])
          + f'[hooks.state."{k[2]}"]\ntrusted_hash = "sha256:00"\n'
          + f'[hooks.state."{k[3]}"]\ntrusted_hash = "{h[3]}"\nenabled = false\n')
    dialect = CodexDialect(codex_home=home)
    result = dialect.discover(ws, system_dir=None)
    statuses = [dialect.trust_status(e).value for e in result.entries]
    assert statuses == ["trusted", "untrusted", "modified", "trusted"]
    runs = [dialect.will_run(e) for e in result.entries]
    assert [r for r, _ in runs] == [True, False, False, False]
    assert "printf" in runs[1][1] and k[1] in runs[1][1]
    kernel = Kernel(load_entry_points=False)
    kernel.add_dialect(dialect)
    kernel.add_hooks(result.entries)
    async with kernel.session(cwd=str(ws)) as s:
        with s.turn():
            verdict = await s.prompt_submit("hi")
    assert [c.text for c in verdict.contexts] == ["trusted-one"]
    # a file named by the user runs as user-authored, whatever its trust; disabled stays off
    named = dialect.read_config(hooks)
    assert [dialect.will_run(e)[0] for e in named.entries] == [True, True, True, False]


def test_trust_command_appends_a_record_codex_reads(tmp_path: Path) -> None:
    import subprocess

    home = tmp_path / "home"
    home.mkdir()
    write(home / "config.toml", 'model = "m"\n')
    subprocess.run(trust.trust_command("/x/hooks.json:stop:0:0", "sha256:ab", home),
                   shell=True, check=True)
    states = trust.load_states(home / "config.toml")
    assert states["/x/hooks.json:stop:0:0"].trusted_hash == "sha256:ab"


# -- converter round trip ------------------------------------------------------------------------

EVENTS = st.sampled_from(["PreToolUse", "PostToolUse", "Stop", "SessionStart", "SessionEnd",
                          "UserPromptSubmit", "PreCompact"])
HANDLER = st.fixed_dictionaries(
    {"type": st.just("command"),
     "command": st.text(min_size=1, max_size=20).filter(lambda s: s.strip() != "")},
    optional={"timeout": st.integers(1, 3), "statusMessage": st.text(max_size=5),
              "async": st.booleans()})
GROUP = st.fixed_dictionaries({"hooks": st.lists(HANDLER, min_size=1, max_size=3)},
                              optional={"matcher": st.sampled_from(["Bash", "^B", "a|b"])})


@settings(max_examples=60, deadline=None)
@given(doc=st.dictionaries(EVENTS, st.lists(GROUP, min_size=1, max_size=3), max_size=4))
def test_hooks_json_round_trip(tmp_path_factory: pytest.TempPathFactory,
                               doc: dict[str, Any]) -> None:
    folder = tmp_path_factory.mktemp("rt")
    first = read(write(folder / "a.json", {"hooks": doc})).entries
    again = read(write(folder / "b.json", config.to_hooks_json(first))).entries

    def shape(e: Any) -> tuple[Any, ...]:
        return (e.event, e.matcher, e.command, e.timeout, e.background,
                e.handler.status_message, e.handler.hash)

    assert [shape(e) for e in again] == [shape(e) for e in first]


# -- what 0.171.0's hooks/list showed for odd handlers --------------------------------------

def test_an_async_session_end_hook_is_hashed_as_written(tmp_path: Path) -> None:
    """It runs synchronously (with a warning), yet Codex hashes the ``async: true`` it has."""
    path = write(tmp_path / "hooks.json", {"hooks": {"SessionEnd": [{"hooks": [
        {"type": "command", "command": "c", "async": True}]}]}})
    (entry,) = config.read_file(path).entries
    assert not entry.background
    assert entry.handler.hash == trust.hook_hash("SessionEnd", None,
                                                 {"command": "c", "timeout": 1, "async": True})
    assert entry.handler.hash.startswith("sha256:50266e4")  # what 0.171.0 listed


@pytest.mark.parametrize("event", ["Stop", "SubagentStop", "PermissionRequest", "Interrupt"])
def test_additional_context_limit_is_ignored_where_no_context_is_emitted(
        tmp_path: Path, event: str) -> None:
    path = write(tmp_path / "hooks.json", {"hooks": {event: [{"hooks": [
        {"type": "command", "command": "c", "additionalContextLimit": 5}]}]}})
    result = config.read_file(path)
    (entry,) = result.entries
    assert entry.handler.context_limit is None
    assert [p.message for p in result.problems] == [
        f"ignoring additionalContextLimit for {event} hook in {path}: this event cannot "
        "emit additionalContext"]
    timeout = 1 if event == "Interrupt" else 600
    assert entry.handler.hash == trust.hook_hash(event, None, {
        "command": "c", "timeout": timeout, "async": False})


@pytest.mark.parametrize(("handler", "message"), [
    ({"type": "command", "command": "c", "timeout": -1},
     "invalid value: integer `-1`, expected u64"),
    ({"type": "command", "command": "c", "timeout": 1.5}, "invalid type: map, expected u64"),
    ({"type": "command", "command": 1.5}, "invalid type: map, expected a string"),
    (1.5, "missing field `type`")])
def test_serdes_words_for_a_wrong_number(tmp_path: Path, handler: Any, message: str) -> None:
    """Codex's serde_json keeps a non-integer number as a one-key map (arbitrary_precision):
    among a handler's fields a float is "a map", and a float handler has no `type`."""
    path = write(tmp_path / "hooks.json", {"hooks": {"Stop": [{"hooks": [handler]}]}})
    (problem,) = config.read_file(path).problems
    assert problem.message.startswith(f"failed to parse hooks config {path}: {message}")
    matcher = write(tmp_path / "m.json", {"hooks": {"PreToolUse": [{"matcher": 1.5,
                                                                   "hooks": []}]}})
    (problem,) = config.read_file(matcher).problems
    assert "invalid type: number, expected a string" in problem.message  # outside a handler


@pytest.mark.parametrize("field", ["timeout", "additionalContextLimit"])
def test_an_integer_codex_cannot_hash_fails_the_discovery(tmp_path: Path, field: str) -> None:
    path = write(tmp_path / "hooks.json", {"hooks": {"PreToolUse": [{"hooks": [
        {"type": "command", "command": "c", field: 2**63}]}]}})
    with pytest.raises(ConfigError, match=f"{field} 9223372036854775808 is above"):
        config.read_file(path)


REQUIRED = """
[hooks]
{managed_dir}
[[hooks.Stop]]
[[hooks.Stop.hooks]]
type = "command"
command = "req"
[[hooks.PreToolUse]]
matcher = "Bash"
[[hooks.PreToolUse.hooks]]
type = "command"
command = "req-pre"
timeout = 9
"""


@pytest.mark.parametrize("managed_dir", [None, "/opt/hooks"])
@pytest.mark.parametrize("managed_only", [False, True])
def test_requirements_hooks_are_managed_and_numbered_first(
        tmp_path: Path, managed_dir: str | None, managed_only: bool) -> None:
    """As 0.171.0's hooks/list gave them for /etc/codex/requirements.toml: its [hooks] are
    managed, keyed by an absolute managed_dir or else the file, numbered before the system
    layer; allow_managed_hooks_only leaves out the user's hooks (and the projects' and
    plugins'). Codex says nothing of that; hookwire names what it leaves out."""
    system, home = tmp_path / "etc", tmp_path / "home"
    system.mkdir()
    (system / "requirements.toml").write_text(
        ("allow_managed_hooks_only = true\n" if managed_only else "")
        + REQUIRED.format(managed_dir="" if managed_dir is None
                          else f'managed_dir = "{managed_dir}"'))
    (system / "config.toml").write_text('[[hooks.Stop]]\n[[hooks.Stop.hooks]]\n'
                                        'type = "command"\ncommand = "sys"\n')
    write(home / "hooks.json", {"hooks": {"Stop": [{"hooks": [cmd("user")]}]}})
    result = config.discover(tmp_path, codex_home=home, system_dir=system)
    key = managed_dir or str(system / "requirements.toml")
    rows = sorted(((e.handler.key, e.handler.display_order, e.handler.managed,
                    e.handler.hash[:14]) for e in result.entries),
                  key=lambda row: row[1])  # hooks/list's order
    assert rows[:3] == [
        (f"{key}:pre_tool_use:0:0", 0, True, "sha256:b95f0be"),  # hashes 0.171.0 listed
        (f"{key}:stop:0:0", 1, True, "sha256:6a655ef"),
        (f"{system / 'config.toml'}:stop:0:0", 2, True, "sha256:5a097b7")]
    assert [e.command for e in result.entries if e.handler.layer == "user"] == (
        [] if managed_only else ["user"])
    assert len(result.entries) == (3 if managed_only else 4)
    if managed_only:
        (problem,) = result.problems
        assert problem.kind is ProblemKind.DISABLED
        assert problem.message.endswith(f"leaves out {home / 'hooks.json'}")
    else:
        assert result.problems == ()
