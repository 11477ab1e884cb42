"""Conformance scenarios through real processes: one per row of the observed tables.

Every hook is a real script in ``tmp_path``, run by the real runner through the kernel.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from hookwire import Decision, Kernel
from hookwire.dialects.claude.outcome import NO_VERDICT
from hookwire.dialects.claude.testing import group

ScriptFactory = Callable[..., Path]
KernelFactory = Callable[..., Kernel]


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def session(kernel: Kernel, project: Path, **kw: Any) -> Any:
    kw.setdefault("session_id", "sess-1")
    kw.setdefault("transcript_path", str(project / "t.jsonl"))
    return kernel.session(cwd=str(project), project_dir=str(project), **kw)


def emit(obj: Any) -> str:
    """A shell line that prints ``obj`` as JSON."""
    return f"cat <<'EOF'\n{json.dumps(obj)}\nEOF\n"


def pre(decision: str | None = None, **more: Any) -> dict[str, Any]:
    hso: dict[str, Any] = {"hookEventName": "PreToolUse", **more}
    if decision:
        hso["permissionDecision"] = decision
    return {"hookSpecificOutput": hso}


# -- stdin, env, cwd ---------------------------------------------------------------------------

@pytest.mark.anyio
async def test_stdin_bytes_env_and_cwd(hook_script: ScriptFactory,
                                       claude_kernel: KernelFactory, project: Path,
                                       tmp_path: Path) -> None:
    out = tmp_path / "rec"
    rec = hook_script(f'cat > {out}; env > {out}.env; pwd > {out}.cwd')
    kernel = claude_kernel({"PreToolUse": [group(str(rec), f'echo "$0" > {out}.argv',
                                                 matcher="Bash")]})
    sub = project / "sub"
    sub.mkdir()
    async with session(kernel, project) as s:
        s.set_cwd(str(sub))
        await s.tool_pre("Bash", {"command": "echo é ✓"}, tool_use_id="toolu_1",
                         extra={"effort": {"level": "medium"}})
    assert out.read_bytes() == (
        '{"session_id":"sess-1","transcript_path":"' + str(project / "t.jsonl") + '",'
        '"cwd":"' + str(sub) + '","permission_mode":"default","effort":{"level":"medium"},'
        '"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"echo é ✓"},'
        '"tool_use_id":"toolu_1"}\n').encode()
    env = dict(line.split("=", 1) for line in out.with_suffix(".env").read_text().splitlines()
               if "=" in line)
    assert env["CLAUDE_PROJECT_DIR"] == str(project)
    assert env["CLAUDECODE"] == "1" and env["CLAUDE_CODE_SESSION_ID"] == "sess-1"
    assert env["CLAUDE_EFFORT"] == "medium"
    assert "CLAUDE_ENV_FILE" not in env
    assert env["PATH"] == os.environ["PATH"]  # the host's environment is inherited
    assert out.with_suffix(".cwd").read_text().strip() == str(sub)
    assert out.with_suffix(".argv").read_text().strip() == "/bin/sh"  # run via sh -c


@pytest.mark.anyio
async def test_env_file_only_on_session_start(hook_script: ScriptFactory,
                                              claude_kernel: KernelFactory, project: Path,
                                              tmp_path: Path) -> None:
    hook = hook_script(f'echo "${{CLAUDE_ENV_FILE:-none}}" >> {tmp_path}/seen\n'
                       '[ -n "$CLAUDE_ENV_FILE" ] && echo "export X=yes" >> "$CLAUDE_ENV_FILE"\n'
                       'exit 0')
    kernel = claude_kernel({"SessionStart": [group(str(hook))],
                            "UserPromptSubmit": [group(str(hook))]})
    import uuid

    async with session(kernel, project, session_id=str(uuid.uuid4())) as s:
        await s.session_start()
        await s.user_prompt("hi")
    first, second = (tmp_path / "seen").read_text().splitlines()
    assert second == "none" and os.path.isfile(first)
    assert Path(first).read_text() == "export X=yes\n"


@pytest.mark.anyio
async def test_exec_form_and_placeholders(hook_script: ScriptFactory,
                                          claude_kernel: KernelFactory, project: Path,
                                          tmp_path: Path) -> None:
    script = hook_script(f'printf "%s|" "$@" > {tmp_path}/args')
    kernel = claude_kernel({"Stop": [group(
        {"type": "command", "command": str(script),
         "args": ["${CLAUDE_PROJECT_DIR}/x", "a b", "$HOME", "`id`"]}),
        group(f'echo "${{CLAUDE_PROJECT_DIR}}" > {tmp_path}/shell')]})
    async with session(kernel, project) as s:
        await s.stop()
    assert (tmp_path / "args").read_text() == f"{project}/x|a b|$HOME|`id`|"
    assert (tmp_path / "shell").read_text().strip() == str(project)


@pytest.mark.anyio
async def test_plugin_hooks_get_plugin_variables(hook_script: ScriptFactory, project: Path,
                                                 tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    from hookwire.dialects.claude import ClaudeDialect

    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    root = tmp_path / "plug"
    (root / "hooks").mkdir(parents=True)
    (root / "scripts").mkdir()
    script = root / "scripts" / "h.sh"
    script.write_text(f'#!/bin/sh\necho "$CLAUDE_PLUGIN_ROOT|$CLAUDE_PLUGIN_DATA" > {tmp_path}/p\n')
    script.chmod(0o755)
    (root / "hooks" / "hooks.json").write_text(json.dumps({"hooks": {"Stop": [{"hooks": [
        {"type": "command", "command": '"${CLAUDE_PLUGIN_ROOT}/scripts/h.sh"'}]}]}}))
    kernel = Kernel(load_entry_points=False)
    kernel.add_dialect(ClaudeDialect())
    kernel.add_config("claude", root / "hooks" / "hooks.json")
    async with session(kernel, project) as s:
        await s.stop()
    plugin_root, data = (tmp_path / "p").read_text().strip().split("|")
    assert plugin_root == str(root)
    assert data == str(tmp_path / "home" / ".claude" / "plugins" / "data" / "plug")
    assert os.path.isdir(data)


# -- exit codes (observed §3) ------------------------------------------------------------------

async def tool_pre(kernel: Kernel, project: Path, tool: str = "Bash") -> Any:
    async with session(kernel, project) as s:
        return await s.tool_pre(tool, {"command": "rm -rf /tmp/x"}, tool_use_id="toolu_9")


@pytest.mark.anyio
@pytest.mark.parametrize(("body", "decision", "reason"), [
    ("exit 0", Decision.NONE, None),
    ("echo plain; exit 0", Decision.NONE, None),
    ("echo '{broken'; exit 0", Decision.NONE, None),
    ("echo no rm >&2; exit 2", Decision.DENY, "[{cmd}]: no rm\n"),
    ("exit 2", Decision.DENY, "[{cmd}]: No stderr output"),
    ("echo '{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\","
     "\"permissionDecision\":\"allow\"}}'; echo stop >&2; exit 2", Decision.DENY,
     "[{cmd}]: stop\n"),
    ("echo oops >&2; exit 1", Decision.NONE, None),
    ("exit 3", Decision.NONE, None),
    ("/nonexistent/hook", Decision.NONE, None),
    ("kill -9 $$", Decision.NONE, None),
    ("echo '{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\","
     "\"permissionDecision\":\"deny\",\"permissionDecisionReason\":\"r\"}}'; exit 1",
     Decision.DENY, "r"),
    ("echo '{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\","
     "\"permissionDecision\":\"maybe\"}}'", Decision.NONE, None),
    ("echo log line; echo '{\"decision\":\"block\"}'", Decision.NONE, None),
    ("printf '\\n  {\"decision\":\"block\",\"reason\":\"ws\"}'", Decision.DENY, "ws"),
])
async def test_pre_tool_use_exit_codes(hook_script: ScriptFactory,
                                       claude_kernel: KernelFactory, project: Path, body: str,
                                       decision: Decision, reason: str | None) -> None:
    cmd = str(hook_script(body))
    verdict = await tool_pre(claude_kernel({"PreToolUse": [group(cmd)]}), project)
    assert verdict.decision is decision
    assert verdict.reason == (reason.format(cmd=cmd) if reason else None)
    assert verdict.effective_input == {"command": "rm -rf /tmp/x"}


@pytest.mark.anyio
async def test_prompt_submit_rows(hook_script: ScriptFactory, claude_kernel: KernelFactory,
                                  project: Path) -> None:
    plain = str(hook_script("echo 'today is Monday'"))
    broken = str(hook_script("echo '{broken json'"))
    fails = str(hook_script("echo ctx; exit 1"))
    kernel = claude_kernel({"UserPromptSubmit": [group(plain, broken, fails, matcher="xyz")]})
    async with session(kernel, project) as s:
        verdict = await s.user_prompt("hello")
    assert verdict.decision is Decision.NONE
    assert sorted(c.text for c in verdict.contexts) == [
        "UserPromptSubmit hook success: today is Monday",
        "UserPromptSubmit hook success: {broken json"]
    blocker = str(hook_script("echo secret >&2; exit 2"))
    async with session(claude_kernel({"UserPromptSubmit": [group(blocker)]}), project) as s:
        verdict = await s.user_prompt("hello")
    assert verdict.denied and verdict.reason == f"[{blocker}]: secret\n"


@pytest.mark.anyio
async def test_session_start_plain_stdout_and_exit2(hook_script: ScriptFactory,
                                                    claude_kernel: KernelFactory,
                                                    project: Path) -> None:
    ctx = str(hook_script("echo 'on branch main'"))
    err = str(hook_script("echo bad >&2; exit 2"))
    resume_only = str(hook_script("echo resumed"))
    kernel = claude_kernel({"SessionStart": [group(ctx, err), group(resume_only,
                                                                    matcher="resume")]})
    async with session(kernel, project) as s:
        verdict = await s.session_start("startup")
    assert [c.text for c in verdict.contexts] == [
        "SessionStart:startup hook success: on branch main"]
    assert verdict.decision is Decision.NONE


@pytest.mark.anyio
async def test_stop_exit2_and_block_continue(hook_script: ScriptFactory,
                                             claude_kernel: KernelFactory,
                                             project: Path) -> None:
    exit2 = str(hook_script("echo 'run the tests' >&2; exit 2"))
    async with session(claude_kernel({"Stop": [group(exit2)]}), project) as s:
        verdict = await s.stop("done")
    assert verdict.continue_turn and verdict.reason == f"[{exit2}]: run the tests\n"


@pytest.mark.anyio
async def test_stop_loop_reaches_the_cap(hook_script: ScriptFactory,
                                         claude_kernel: KernelFactory, project: Path,
                                         tmp_path: Path) -> None:
    log = tmp_path / "active"
    hook = hook_script(f"jq -r .stop_hook_active >> {log}\n" + emit(
        {"decision": "block", "reason": "keep going"}))
    calls = 0
    async with session(claude_kernel({"Stop": [group(str(hook))]}), project,
                       max_stop_blocks=8) as s:
        while True:
            calls += 1
            verdict = await s.stop("text")
            if not verdict.continue_turn:
                break
    assert calls == 9  # eight continuations, then the cap ends the turn
    assert log.read_text().split() == ["false"] + ["true"] * 8


@pytest.mark.anyio
async def test_continue_false_halts_on_several_events(hook_script: ScriptFactory,
                                                      claude_kernel: KernelFactory,
                                                      project: Path) -> None:
    halt = str(hook_script(emit({"continue": False, "stopReason": "enough"})))
    kernel = claude_kernel({e: [group(halt)] for e in (
        "PreToolUse", "UserPromptSubmit", "Stop", "PostToolUse")})
    for fire in ("tool_pre", "user_prompt", "stop", "tool_post"):
        async with session(kernel, project) as s:
            if fire == "tool_pre":
                verdict = await s.tool_pre("Bash", {"command": "ls"})
                assert not verdict.denied  # the tool still runs, then the run stops
            elif fire == "user_prompt":
                verdict = await s.user_prompt("hi")
            elif fire == "stop":
                verdict = await s.stop()
            else:
                verdict = await s.tool_post("Bash", {"command": "ls"}, {"stdout": ""})
        assert verdict.halt is not None and verdict.halt.reason == "enough", fire


# -- decisions and combinations (observed §4) ------------------------------------------------

@pytest.mark.anyio
@pytest.mark.parametrize("value", ["allow", "deny", "ask", "defer"])
async def test_each_permission_decision(hook_script: ScriptFactory,
                                        claude_kernel: KernelFactory, project: Path,
                                        value: str) -> None:
    hook = str(hook_script(emit(pre(value, permissionDecisionReason="why"))))
    verdict = await tool_pre(claude_kernel({"PreToolUse": [group(hook)]}), project)
    assert verdict.decision is Decision(value) and verdict.reason == "why"


@pytest.mark.anyio
@pytest.mark.parametrize(("first", "second", "winner"), [
    ("allow", "deny", Decision.DENY), ("deny", "allow", Decision.DENY),
    ("allow", "ask", Decision.ASK), ("ask", "deny", Decision.DENY),
    ("ask", "allow", Decision.ASK), ("deny", "ask", Decision.DENY),
])
@pytest.mark.parametrize("slow", [0, 1])
async def test_most_restrictive_wins_in_any_order(hook_script: ScriptFactory,
                                                  claude_kernel: KernelFactory, project: Path,
                                                  first: str, second: str, winner: Decision,
                                                  slow: int) -> None:
    hooks = [str(hook_script(("sleep 0.3\n" if i == slow else "") + emit(pre(d))))
             for i, d in enumerate((first, second))]
    verdict = await tool_pre(claude_kernel({"PreToolUse": [group(*hooks)]}), project)
    assert verdict.decision is winner


@pytest.mark.anyio
async def test_exit2_beats_allow(hook_script: ScriptFactory, claude_kernel: KernelFactory,
                                 project: Path) -> None:
    allow = str(hook_script(emit(pre("allow"))))
    block = str(hook_script("echo no >&2; exit 2"))
    verdict = await tool_pre(claude_kernel({"PreToolUse": [group(allow), group(block)]}),
                             project)
    assert verdict.decision is Decision.DENY


@pytest.mark.anyio
@pytest.mark.parametrize("slow", [0, 1])
async def test_last_finished_rewrite_wins_and_contexts_in_finish_order(
        hook_script: ScriptFactory, claude_kernel: KernelFactory, project: Path,
        slow: int) -> None:
    hooks = [str(hook_script(("sleep 0.5\n" if i == slow else "") + emit(pre(
        "allow", updatedInput={"command": f"echo {i}"}, additionalContext=f"CTX_{i}"))))
        for i in range(2)]
    verdict = await tool_pre(claude_kernel({"PreToolUse": [group(*hooks)]}), project)
    assert verdict.effective_input == {"command": f"echo {slow}"}
    fast = 1 - slow
    assert [c.text for c in verdict.contexts] == [
        f"PreToolUse:Bash hook additional context: CTX_{fast}",
        f"PreToolUse:Bash hook additional context: CTX_{slow}"]


@pytest.mark.anyio
async def test_deny_waits_for_every_hook_and_timeout_renders_no_decision(
        hook_script: ScriptFactory, claude_kernel: KernelFactory, project: Path) -> None:
    deny = str(hook_script(emit(pre("deny", permissionDecisionReason="no"))))
    slow = str(hook_script("sleep 30"))
    kernel = claude_kernel({"PreToolUse": [group(deny, {"type": "command", "command": slow,
                                                        "timeout": 1})]})
    started = time.monotonic()
    verdict = await tool_pre(kernel, project)
    elapsed = time.monotonic() - started
    assert verdict.decision is Decision.DENY and verdict.reason == "no"
    assert 0.9 <= elapsed < 10
    (report,) = [h for h in verdict.hooks if h.command == slow]
    assert report.timed_out and NO_VERDICT in report.diagnostics


@pytest.mark.anyio
async def test_hooks_of_one_event_run_in_parallel(hook_script: ScriptFactory,
                                                  claude_kernel: KernelFactory,
                                                  project: Path, tmp_path: Path) -> None:
    a = str(hook_script("sleep 1"))
    b = str(hook_script("sleep 1"))
    kernel = claude_kernel({"PreToolUse": [group(a), group(b, matcher="Bash")]})
    started = time.monotonic()
    await tool_pre(kernel, project)
    assert time.monotonic() - started < 1.9


@pytest.mark.anyio
async def test_identical_handlers_run_once_across_files(hook_script: ScriptFactory,
                                                        claude_kernel: KernelFactory,
                                                        project: Path,
                                                        tmp_path: Path) -> None:
    from hookwire.dialects.claude.testing import write_settings

    count = tmp_path / "count"
    hook = str(hook_script(f"echo x >> {count}"))
    kernel = claude_kernel({"PreToolUse": [group(hook, hook), group(hook, matcher="Bash")],
                            "PostToolUse": [group(hook)]})
    local = write_settings(project / ".claude" / "settings.local.json",
                           {"PreToolUse": [group(hook), group(hook + " ")]})
    kernel.add_config("claude", local)
    async with session(kernel, project) as s:
        await s.tool_pre("Bash", {"command": "ls"})
        await s.tool_post("Bash", {"command": "ls"}, {"stdout": ""})
    # once for PreToolUse, once for the whitespace variant, once for PostToolUse
    assert count.read_text().count("x") == 3


@pytest.mark.anyio
@pytest.mark.parametrize(("timeouts", "killed"), [((1, 10), False), ((10, 1), True)])
async def test_duplicate_handlers_take_the_last_timeout(hook_script: ScriptFactory,
                                                        claude_kernel: KernelFactory,
                                                        project: Path,
                                                        timeouts: tuple[int, int],
                                                        killed: bool) -> None:
    hook = str(hook_script("sleep 2\n" + emit(pre("deny"))))
    kernel = claude_kernel({"PreToolUse": [group(
        *({"type": "command", "command": hook, "timeout": t} for t in timeouts))]})
    verdict = await tool_pre(kernel, project)
    assert len(verdict.hooks) == 1
    assert verdict.hooks[0].timed_out is killed
    assert verdict.decision is (Decision.NONE if killed else Decision.DENY)


# -- matchers, if, disableAllHooks, async, onFailure -------------------------------------------

@pytest.mark.anyio
async def test_matcher_forms_select_before_spawning(hook_script: ScriptFactory,
                                                    claude_kernel: KernelFactory,
                                                    project: Path, tmp_path: Path) -> None:
    log = tmp_path / "log"
    forms = ["Bash", "Read|Bash", "Edit, Bash", "B.*h", "*", "", "bash", "Ba",
             "mcp__fs__.*", "(?i)bash", "Task"]
    groups = [group(str(hook_script(f"echo {i} >> {log}")), matcher=m)
              for i, m in enumerate(forms)]
    groups.append(group(str(hook_script(f"echo nomatcher >> {log}"))))
    kernel = claude_kernel({"PreToolUse": groups})
    await tool_pre(kernel, project)
    assert sorted(log.read_text().split()) == sorted(["0", "1", "2", "3", "4", "5",
                                                      "nomatcher"])
    log.unlink()
    await tool_pre(kernel, project, tool="mcp__fs__write")
    assert sorted(log.read_text().split()) == ["4", "5", "8", "nomatcher"]
    log.unlink()
    await tool_pre(kernel, project, tool="Agent")  # matched by the legacy Task name
    assert sorted(log.read_text().split()) == ["10", "4", "5", "nomatcher"]


@pytest.mark.anyio
async def test_if_filter(hook_script: ScriptFactory, claude_kernel: KernelFactory,
                         project: Path) -> None:
    deny = str(hook_script(emit(pre("deny"))))
    kernel = claude_kernel({
        "PreToolUse": [group({"type": "command", "command": deny, "if": "Bash(rm *)"})],
        "Stop": [group({"type": "command", "command": deny, "if": "Bash(rm *)"})]})
    async with session(kernel, project) as s:
        assert (await s.tool_pre("Bash", {"command": "ls && rm -rf x"})).denied
        assert not (await s.tool_pre("Bash", {"command": "ls -la"})).denied
        assert (await s.tool_pre("Bash", {"command": "echo 'open"})).denied  # fails open
        assert (await s.stop()).hooks == ()  # `if` on a non-tool event: never runs


@pytest.mark.anyio
async def test_disable_all_hooks(hook_script: ScriptFactory, claude_kernel: KernelFactory,
                                 project: Path) -> None:
    deny = str(hook_script(emit(pre("deny"))))
    verdict = await tool_pre(claude_kernel({"PreToolUse": [group(deny)]},
                                           disableAllHooks=True), project)
    assert verdict.decision is Decision.NONE and verdict.hooks == ()


@pytest.mark.anyio
async def test_async_hooks_do_not_block_or_decide(hook_script: ScriptFactory,
                                                  claude_kernel: KernelFactory,
                                                  project: Path, tmp_path: Path) -> None:
    hook = str(hook_script(f"sleep 1; touch {tmp_path}/done\n" + emit(pre("deny"))))
    kernel = claude_kernel({"PreToolUse": [group({"type": "command", "command": hook,
                                                  "async": True})]})
    async with session(kernel, project) as s:
        started = time.monotonic()
        verdict = await s.tool_pre("Bash", {"command": "ls"})
        assert time.monotonic() - started < 0.9
        assert verdict.decision is Decision.NONE
        await _wait_for(tmp_path / "done")


async def _wait_for(path: Path) -> None:
    import anyio

    with anyio.fail_after(10):
        while not path.exists():
            await anyio.sleep(0.05)


@pytest.mark.anyio
async def test_on_failure_block(hook_script: ScriptFactory, claude_kernel: KernelFactory,
                                project: Path) -> None:
    missing = "/nonexistent/guard.sh"
    slow = str(hook_script("sleep 30"))
    kernel = claude_kernel({"PreToolUse": [group(
        {"type": "command", "command": missing, "onFailure": "block"})]})
    verdict = await tool_pre(kernel, project)
    assert verdict.denied
    assert verdict.reason == f'[{missing}]: failed; blocking because onFailure is "block"'
    kernel = claude_kernel({"PreToolUse": [group(
        {"type": "command", "command": slow, "timeout": 1, "onFailure": "block"})]})
    verdict = await tool_pre(kernel, project)
    assert verdict.denied and "timed out; blocking" in (verdict.reason or "")


@pytest.mark.anyio
async def test_permission_request_on_the_approve_seam(hook_script: ScriptFactory,
                                                      claude_kernel: KernelFactory,
                                                      project: Path, tmp_path: Path) -> None:
    hook = str(hook_script(f"cat > {tmp_path}/in\n" + emit({"hookSpecificOutput": {
        "hookEventName": "PermissionRequest",
        "decision": {"behavior": "allow", "updatedInput": {"command": "ls -1"}}}})))
    kernel = claude_kernel({"PermissionRequest": [group(hook, matcher="Bash")]})
    async with session(kernel, project) as s:
        verdict = await s.approve("Bash", {"command": "ls"})
    assert verdict.decision is Decision.ALLOW
    assert verdict.effective_input == {"command": "ls -1"}
    payload = json.loads((tmp_path / "in").read_text())
    assert "tool_use_id" not in payload and payload["permission_suggestions"] == []
