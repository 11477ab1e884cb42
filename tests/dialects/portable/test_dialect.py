"""Running portable hooks: observe-only, isolation, order, placeholders, the environment,
the context-result bound, the payload envelope, and exactly one pre/post per tool attempt
under the reference host (real scripts, real processes)."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import anyio
import pytest

from hookwire import Answer, Decision, Kernel, hookimpl
from hookwire.dialects.portable import PortableDialect, event_from_wire, plugin
from hookwire.errors import EventDataError, UnknownEventError
from hookwire.events import PromptSubmit, SessionStart, ToolFailure, ToolPost, ToolPre
from hookwire.reference import Agent, ModelTurn, ScriptedModel, ToolCall


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def kernel_for(root: Path, *plugins: object) -> Kernel:
    kernel = Kernel(load_entry_points=False, plugins=[plugin, *plugins])
    result = kernel.add_config("portable", root / "hooks.json")
    assert not result.problems, result.problems
    return kernel


def rec(label: str, log: Path, **extra: Any) -> dict[str, Any]:
    return {"command": "./bin/rec", "args": [label], "env": {"LOG": str(log)}, **extra}


ALL_EVENTS = ("session-start", "turn-start", "pre-tool-use", "post-tool-use", "turn-end",
              "session-end")


class DenyRm:
    name = "deny-rm"

    @hookimpl
    def tool_pre(self, event: Any) -> Answer | None:
        if "rm " in str(event.tool_input.get("command", "")):
            return Answer(decision=Decision.DENY, reason="no deleting")
        return None


@pytest.mark.anyio
async def test_one_pre_and_one_post_per_attempt_under_the_reference_host(
        read_log, recorder, make_plugin, tmp_path: Path, schema_check) -> None:
    log = tmp_path / "log.jsonl"
    root = make_plugin({e: [rec(e, log)] for e in ALL_EVENTS}, scripts={"bin/rec": recorder})
    model = ScriptedModel([
        ModelTurn(tool_calls=(ToolCall(name="Bash", input={"command": "rm -rf x"}, id="t1"),)),
        ModelTurn(tool_calls=(ToolCall(name="Bash", input={"command": "sleep 5",
                                                           "timeout": 200}, id="t2"),)),
        ModelTurn(tool_calls=(ToolCall(name="Bash", input={"command": "echo hi"}, id="t3"),
                              ToolCall(name="Nope", input={}, id="t4"),
                              ToolCall(name="Bash", input={"cmd": "x"}, id="t5"))),
        ModelTurn(text="done"),
    ])
    async with Agent(kernel_for(root, DenyRm()), model, cwd=str(tmp_path)) as agent:
        result = await agent.run("go")
    assert result.terminal_reason == "completed"
    records = read_log(log)
    events = [r["payload"]["event"] for r in records]
    assert events[0] == "session-start" and events[1] == "turn-start"
    assert events[-2:] == ["turn-end", "session-end"]
    by_id: dict[str, list[str]] = {}
    status: dict[str, str] = {}
    for r in records:
        p = r["payload"]
        assert not schema_check("payload", p), schema_check("payload", p)
        if "tool" in p:
            by_id.setdefault(p["tool"]["use_id"], []).append(p["event"])
            if p["event"] == "post-tool-use":
                status[p["tool"]["use_id"]] = p["result"]["status"]
    for use_id in ("t1", "t2", "t3", "t4", "t5"):
        assert by_id[use_id] == ["pre-tool-use", "post-tool-use"], use_id
    # t4: no such tool, t5: fails the tool's schema: refused by the host, not by a hook
    assert status == {"t1": "denied", "t2": "failed", "t3": "succeeded", "t4": "denied",
                      "t5": "denied"}
    assert records[0]["payload"]["client"]["name"] == "hookwire"
    # the native tool name passes through unnormalised
    assert {r["payload"]["tool"]["name"] for r in records if "tool" in r["payload"]} >= {"Bash"}


@pytest.mark.anyio
async def test_a_cancelled_attempt_still_gets_its_post(
        read_log, recorder, make_plugin, tmp_path: Path) -> None:
    log = tmp_path / "log.jsonl"
    root = make_plugin({"pre-tool-use": [rec("pre", log)], "post-tool-use": [rec("post", log)]},
                       scripts={"bin/rec": recorder})
    kernel = kernel_for(root)
    async with kernel.session(cwd=str(tmp_path)) as session:
        await session.tool_pre("Bash", {"command": "sleep 9"}, "c1")
        with anyio.move_on_after(0.05):
            await anyio.sleep(5)  # the host's tool, interrupted by the user
        await session.tool_failure("Bash", {"command": "sleep 9"}, "interrupted", "c1",
                                   is_interrupt=True)
        await session.tool_failure("Bash", {"command": "x"}, "took too long", "c2",
                                   extra={"status": "timed_out"})
    posts = [r["payload"]["result"] for r in read_log(log) if r["argv"][1] == "post"]
    assert [p["status"] for p in posts] == ["cancelled", "timed_out"]
    assert posts[0]["error"] == "interrupted"


@pytest.mark.anyio
async def test_exit_status_and_output_never_change_behaviour(
        read_log, recorder, make_plugin, tmp_path: Path) -> None:
    deny = ('#!/bin/sh\necho \'{"decision":"block","hookSpecificOutput":'
            '{"permissionDecision":"deny"},"continue":false}\'\necho no >&2\nexit 2\n')
    root = make_plugin({e: [{"command": "./bin/deny"}] for e in ALL_EVENTS},
                       scripts={"bin/deny": deny})
    kernel = kernel_for(root)
    async with kernel.session(cwd=str(tmp_path)) as session:
        verdicts = [
            await session.session_start(),
            await session.user_prompt("hi"),
            await session.tool_pre("Bash", {"command": "ls"}),
            await session.tool_post("Bash", {"command": "ls"}, "ok"),
            await session.stop(),
            await session.session_end(),
        ]
    for v in verdicts:
        assert v.decision is Decision.NONE and v.halt is None and not v.contexts
        assert not v.denied and not v.continue_turn and not v.input_rewritten
        assert v.hooks[0].diagnostics == ("exited 2 (ignored: portable hooks are observe-only)",)


@pytest.mark.anyio
async def test_failures_are_isolated_and_order_is_declaration_order(
        read_log, recorder, make_plugin, tmp_path: Path) -> None:
    log = tmp_path / "log.jsonl"
    slow = "#!/bin/sh\nsleep 0.3\nexec \"$PLUGIN_ROOT/bin/rec\" slow\n"
    root = make_plugin({"turn-start": [
        {"command": "./bin/slow", "env": {"LOG": str(log)}},
        {"command": "./bin/crash"},
        {"command": "./bin/missing"},
        {"command": "./bin/hang", "timeout": 0.2},
        rec("last", log),
    ]}, scripts={"bin/rec": recorder, "bin/slow": slow, "bin/crash": "#!/bin/sh\nkill -9 $$\n",
                 "bin/hang": "#!/bin/sh\nsleep 30\n"})
    kernel = kernel_for(root)
    async with kernel.session(cwd=str(tmp_path)) as session:
        verdict = await session.user_prompt("hi")
    assert [r["argv"][1] for r in read_log(log)] == ["slow", "last"]
    assert [h.outcome for h in verdict.hooks] == [
        "exited", "signaled", "failed_to_start", "timed_out", "exited"]
    assert verdict.decision is Decision.NONE


@pytest.mark.anyio
async def test_placeholders_expand_only_in_args_env_and_cwd(
        read_log, recorder, make_plugin, tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("SECRET_TOKEN", "s3cret")
    log = tmp_path / "log.jsonl"
    root = make_plugin({"session-start": [{
        "command": "./bin/rec",
        "args": ["${PLUGIN_ROOT}/x", "${PLUGIN_DATA}", "$HOME", "${PLUGIN_ROOT}${PLUGIN_DATA}",
                 "${PLUGIN_ROOTX}"],
        "env": {"LOG": str(log), "A": "${PLUGIN_DATA}/a", "B": "${HOME}", "PATHX": "~"},
        "cwd": "${PLUGIN_DATA}",
    }]}, scripts={"bin/rec": recorder}, name="My Plugin")
    (root / "plugin.json").write_text(json.dumps({"name": "acme"}))
    kernel = kernel_for(root)
    async with kernel.session(cwd=str(tmp_path)) as session:
        await session.session_start()
    (r,) = read_log(log)
    real_root = os.path.realpath(root)
    data = os.path.realpath(tmp_path / "xdg-data" / "hookwire" / "plugin-data" / "acme")
    assert r["argv"][1:] == [f"{real_root}/x", data, "$HOME", real_root + data, "${PLUGIN_ROOTX}"]
    assert r["argv"][0] == f"{real_root}/bin/rec"
    assert r["cwd"] == data
    env = r["env"]
    assert env["A"] == f"{data}/a" and env["B"] == "${HOME}" and env["PATHX"] == "~"
    assert env["PLUGIN_ROOT"] == real_root and env["PLUGIN_DATA"] == data
    assert "SECRET_TOKEN" not in env and "PATH" in env


@pytest.mark.anyio
async def test_a_symlink_swapped_after_loading_is_refused_at_run_time(
        read_log, recorder, make_plugin, tmp_path: Path) -> None:
    root = make_plugin({"turn-end": [{"command": "./bin/x"}]}, scripts={"bin/x": "#!/bin/sh\n"})
    kernel = kernel_for(root)
    (root / "bin" / "x").unlink()
    (root / "bin" / "x").symlink_to("/bin/true")
    async with kernel.session(cwd=str(tmp_path)) as session:
        verdict = await session.stop()
    (report,) = verdict.hooks
    assert report.outcome == "error" and "outside" in report.diagnostics[0]


def context_hook(size: int) -> str:
    return f'#!/bin/sh\nprintf \'{{"context": "%s", "metadata": {{"n": 1}}}}\' ' \
           f'"$(head -c {size} /dev/zero | tr "\\\\0" "x")"\n'


@pytest.mark.anyio
async def test_context_mode_is_opt_in_and_bounded(
        read_log, recorder, make_plugin, tmp_path: Path, schema_check) -> None:
    root = make_plugin({"turn-start": [
        {"command": "./bin/fits", "result": "context"},
        {"command": "./bin/over", "result": "context"},
        {"command": "./bin/fits"},  # not opted in: stdout ignored
        {"command": "./bin/junk", "result": "context"},
        {"command": "./bin/multi", "result": "context"},
    ]}, scripts={"bin/fits": context_hook(100), "bin/over": context_hook(101),
                 "bin/junk": "#!/bin/sh\necho not json\n",
                 # 34 three-byte characters: 102 bytes of UTF-8 (over), 34 code points
                 "bin/multi": "#!/bin/sh\necho '{\"context\": \"" + "€" * 34 + "\"}'\n"})
    kernel = kernel_for(root)
    kernel.dialect("portable").context_limit = 100  # type: ignore[attr-defined]
    async with kernel.session(cwd=str(tmp_path)) as session:
        verdict = await session.user_prompt("hi")
    assert [c.text for c in verdict.contexts] == ["x" * 100]
    assert verdict.contexts[0].source.dialect == "portable"
    assert verdict.contexts[0].source.event == "turn-start"
    diags = [h.diagnostics for h in verdict.hooks]
    assert diags[1] == ("context of 101 bytes exceeds the client's limit of 100 bytes: dropped",)
    assert diags[2] == () and "not JSON" in diags[3][0]
    assert "102 bytes" in diags[4][0]
    assert not schema_check("result", {"context": "x", "metadata": {"n": 1}})
    assert verdict.decision is Decision.NONE


@pytest.mark.anyio
async def test_subagent_events_do_not_fire(
        read_log, recorder, make_plugin, tmp_path: Path) -> None:
    log = tmp_path / "log.jsonl"
    root = make_plugin({"pre-tool-use": [rec("pre", log)]}, scripts={"bin/rec": recorder})
    async with kernel_for(root).session(cwd=str(tmp_path)) as session:
        await session.tool_pre("Bash", {"command": "ls"}, agent_id="sub-1", agent_type="x")
    assert read_log(log) == []


def test_event_from_wire() -> None:
    assert isinstance(event_from_wire("portable", "session-start", {}), SessionStart)
    ev = event_from_wire("portable", "turn-start", {"prompt": "hi", "turn_id": "p1"})
    assert isinstance(ev, PromptSubmit) and ev.prompt_id == "p1"
    pre = event_from_wire("portable", "pre-tool-use",
                          {"tool": {"name": "Shell", "input": {"command": "ls"}}})
    assert isinstance(pre, ToolPre) and pre.tool_name == "Shell"
    post = event_from_wire("portable", "post-tool-use", {"tool": {"name": "Shell"},
                                                          "result": {"output": "ok"}})
    assert isinstance(post, ToolPost) and post.tool_response == "ok"
    failed = event_from_wire("portable", "post-tool-use",
                             {"tool": {"name": "Shell"}, "result": {"status": "denied"}})
    assert isinstance(failed, ToolFailure) and failed.extra["status"] == "denied"
    assert PortableDialect().native_event(failed) == "post-tool-use/failed"
    with pytest.raises(UnknownEventError):
        event_from_wire("portable", "PreToolUse", {})
    with pytest.raises(EventDataError, match=r"\$\.tool\.name"):
        event_from_wire("portable", "pre-tool-use", {})
    with pytest.raises(EventDataError, match="status"):
        event_from_wire("portable", "post-tool-use",
                        {"tool": {"name": "x"}, "result": {"status": "exploded"}})


@pytest.mark.anyio
async def test_cancelling_the_pre_hook_kills_it_and_the_post_still_fires(
        read_log, recorder, make_plugin, tmp_path: Path) -> None:
    from hookwire.testing import pid_alive

    log = tmp_path / "log.jsonl"
    pidfile = tmp_path / "pid"
    slow = f"#!/bin/sh\necho $$ > {pidfile}\nsleep 30\n"
    root = make_plugin({"pre-tool-use": [{"command": "./bin/slow"}],
                        "post-tool-use": [rec("post", log)]},
                       scripts={"bin/rec": recorder, "bin/slow": slow})
    kernel = kernel_for(root)
    async with kernel.session(cwd=str(tmp_path)) as session:
        with anyio.move_on_after(0.5):
            await session.tool_pre("Bash", {"command": "ls"}, "k1")  # the user hits stop
        await session.tool_failure("Bash", {"command": "ls"}, "cancelled", "k1",
                                   is_interrupt=True)
    assert not pid_alive(int(pidfile.read_text()))
    (post,) = read_log(log)
    assert post["payload"]["result"]["status"] == "cancelled"
    assert post["payload"]["tool"]["use_id"] == "k1"


class AskAll:
    name = "ask-all"

    @hookimpl
    def tool_pre(self, event: Any) -> Answer:
        return Answer(decision=Decision.ASK, reason="confirm")


@pytest.mark.anyio
async def test_an_ask_the_host_approver_refuses_is_closed_as_denied(
        read_log, recorder, make_plugin, tmp_path: Path) -> None:
    log = tmp_path / "log.jsonl"
    root = make_plugin({"pre-tool-use": [rec("pre", log)], "post-tool-use": [rec("post", log)]},
                       scripts={"bin/rec": recorder})
    model = ScriptedModel([
        ModelTurn(tool_calls=(ToolCall(name="Bash", input={"command": "ls"}, id="a1"),)),
        ModelTurn(text="ok"),
    ])
    async with Agent(kernel_for(root, AskAll()), model, cwd=str(tmp_path),
                     approver=lambda call, reason: False) as agent:
        await agent.run("go")
    pre, post = read_log(log)
    assert pre["argv"][1] == "pre" and post["argv"][1] == "post"
    assert post["payload"]["result"] == {"status": "denied", "error": "denied by the user",
                                         "duration_ms": None}
