"""Codex's combination rules (§4.3), concurrency, context spilling, and ``hookwire fire``."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from hookwire import Decision
from hookwire.dialects.codex import CodexDialect, _spill
from hookwire.render import Placement, Subject

Fire = Any
BASH = {"turn_id": "t", "tool_name": "Bash", "tool_input": {"command": "ls"}}


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def emit(obj: Any, delay: float = 0, code: int = 0, err: str = "") -> str:
    body = f"sleep {delay}; " if delay else ""
    body += f"printf '%s' {json.dumps(json.dumps(obj))}"
    if err:
        body += f"; echo {json.dumps(err)} >&2"
    return body + f"; exit {code}"


def deny(reason: str, delay: float = 0, ctx: str | None = None) -> str:
    h: dict[str, Any] = {"hookEventName": "PreToolUse", "permissionDecision": "deny",
                         "permissionDecisionReason": reason}
    if ctx:
        h["additionalContext"] = ctx
    return emit({"hookSpecificOutput": h}, delay)


def rewrite(command: str, delay: float = 0) -> str:
    return emit({"hookSpecificOutput": {"hookEventName": "PreToolUse",
                                        "permissionDecision": "allow",
                                        "updatedInput": {"command": command}}}, delay)


@pytest.mark.anyio
async def test_pre_tool_use_first_configured_block_reason_and_contexts_in_order(
        fire: Fire) -> None:
    verdict = await fire("PreToolUse", BASH, deny("first", 0.4, "c1"), deny("second", 0, "c2"))
    assert verdict.decision is Decision.DENY and verdict.reason == "first"
    assert [c.text for c in verdict.contexts] == ["c1", "c2"]


@pytest.mark.anyio
async def test_pre_tool_use_rewrite_of_the_hook_that_finished_last_wins(fire: Fire) -> None:
    verdict = await fire("PreToolUse", BASH, rewrite("echo slow", 0.4), rewrite("echo fast"))
    assert verdict.effective_input == {"command": "echo slow"}
    verdict = await fire("PreToolUse", BASH, rewrite("echo fast"), rewrite("echo slow", 0.4))
    assert verdict.effective_input == {"command": "echo slow"}


@pytest.mark.anyio
async def test_pre_tool_use_block_drops_rewrites(fire: Fire) -> None:
    verdict = await fire("PreToolUse", BASH, rewrite("echo x", 0.3), deny("no"))
    assert verdict.denied and not verdict.input_rewritten


@pytest.mark.anyio
async def test_permission_request_any_deny_wins_first_configured_message(fire: Fire) -> None:
    def perm(behavior: str, message: str | None = None, delay: float = 0) -> str:
        d: dict[str, Any] = {"behavior": behavior}
        if message:
            d["message"] = message
        return emit({"hookSpecificOutput": {"hookEventName": "PermissionRequest",
                                            "decision": d}}, delay)

    verdict = await fire("PermissionRequest", BASH, perm("allow"), perm("deny", "m1", 0.3),
                         perm("deny", "m2"))
    assert verdict.decision is Decision.DENY and verdict.reason == "m1"
    verdict = await fire("PermissionRequest", BASH, perm("allow"), "exit 1")
    assert verdict.decision is Decision.ALLOW


@pytest.mark.anyio
async def test_post_tool_use_feedback_joined_in_configured_order(fire: Fire) -> None:
    verdict = await fire("PostToolUse", {**BASH, "tool_response": "o"},
                         emit({"decision": "block", "reason": "one"}, 0.3),
                         emit({}, 0, 2, "two"))
    assert verdict.decision is Decision.BLOCK
    assert verdict.reason == "one\n\ntwo" and verdict.updated_output == "one\n\ntwo"


@pytest.mark.anyio
async def test_stop_continuation_is_a_fragment_per_hook_named_by_display_order_and_path(
        fire: Fire, tmp_path: Path) -> None:
    """Codex 0.171.0: one user message, a ``<hook_prompt>`` per blocking hook in configured
    order, ``hook_run_id="stop:<display order>:<source path>"``; the display order counts the
    file's handlers event by event in Codex's order of events (PreToolUse before Stop, whatever
    the document's order), runnable mcp_tool handlers included, skipped ones not."""
    stop = [{"hooks": [{"type": "command",
                        "command": emit({"decision": "block", "reason": "a"}, 0.3)},
                       {"type": "prompt"},
                       {"type": "command", "command": "exit 0"},
                       {"type": "command",
                        "command": emit({"decision": "block", "reason": "b & <c>"})}]}]
    doc = {"hooks": {
        "Stop": stop,
        "PreToolUse": [{"matcher": "(", "hooks": [{"type": "command", "command": "true"}]},
                       {"hooks": [{"type": "command", "command": "true"},
                                  {"type": "command", "command": "true"}]}],
        "PostToolUse": [{"hooks": [{"type": "mcp_tool", "server": "s", "tool": "t"}]}]}}
    verdict = await fire("Stop", {}, doc=doc)
    path = tmp_path / "hooks.json"
    assert verdict.continue_turn and [r.text for r in verdict.reasons] == ["a", "b & <c>"]
    [text] = CodexDialect().render(verdict, Subject())
    assert text.placement is Placement.NEXT_USER_MESSAGE and text.role == "user"
    assert text.text == (f'<hook_prompt hook_run_id="stop:3:{path}">a</hook_prompt>'
                         f'<hook_prompt hook_run_id="stop:5:{path}">b &amp; &lt;c&gt;'
                         "</hook_prompt>")


@pytest.mark.anyio
async def test_stop_continue_false_wins_over_a_continuation(fire: Fire) -> None:
    verdict = await fire("Stop", {}, emit({"decision": "block", "reason": "a"}),
                         emit({"continue": False, "stopReason": "enough"}, 0.2))
    assert not verdict.continue_turn
    assert verdict.halt is not None and verdict.halt.reason == "enough"


@pytest.mark.anyio
async def test_user_prompt_submit_contexts_from_all_hooks_in_order(fire: Fire) -> None:
    verdict = await fire("UserPromptSubmit", {"prompt": "p"}, "sleep 0.3; echo one",
                         "echo two", emit({"decision": "block", "reason": "stop"}))
    assert verdict.denied and verdict.reason == "stop"
    assert [c.text for c in verdict.contexts] == ["one", "two"]


@pytest.mark.anyio
async def test_identical_handlers_are_not_deduplicated(fire: Fire) -> None:
    verdict = await fire("SessionStart", {}, "echo same", "echo same")
    assert [c.text for c in verdict.contexts] == ["same", "same"]


@pytest.mark.anyio
async def test_three_one_second_hooks_run_concurrently(fire: Fire) -> None:
    started = time.perf_counter()
    verdict = await fire("Stop", {}, "sleep 1", "sleep 1", "sleep 1")
    elapsed = time.perf_counter() - started
    assert len(verdict.hooks) == 3 and elapsed < 2.0


@pytest.mark.anyio
async def test_additional_context_above_the_limit_is_spilled(fire: Fire,
                                                             tmp_path: Path) -> None:
    big = "x" * 12_000  # 3,000 approximate tokens > 2,500
    verdict = await fire("SessionStart", {}, f"python3 -c 'print(\"{'x'}\" * 12000)'",
                         {"type": "command", "command": "echo small",
                          "additionalContextLimit": 1})
    first, second = (c.text for c in verdict.contexts)
    assert first.startswith("Warning: truncated output (original token count: 3000)\n"
                            "Total output lines: 1\n\n")
    assert "tokens truncated" in first
    saved = Path(first.rsplit("Full hook output saved to: ", 1)[1])
    assert saved.parent == tmp_path / "spill" / "thread-1" and saved.read_text() == big
    assert _spill.approx_tokens(first) < 2_550  # Codex budgets the preview, not its header
    assert second.endswith(".txt") and "Full hook output saved to:" in second


def test_spill_disabled_with_zero_and_short_text_untouched(tmp_path: Path) -> None:
    text = "y" * 20_000
    assert _spill.maybe_spill(text, limit=0, root=tmp_path, thread_id="t") == text
    assert _spill.maybe_spill("short", limit=2500, root=tmp_path, thread_id="t") == "short"
    assert not (tmp_path / "t").exists()


def test_truncate_middle_keeps_utf8_boundaries() -> None:
    s = "é" * 100  # 200 bytes
    out = _spill.truncate_middle(s, 10)  # 40 bytes budget
    head, _, tail = out.partition("…")
    assert head == "é" * 10 and tail.endswith("é" * 10)
    assert "…40 tokens truncated…" in out


def test_hookwire_fire_cli(tmp_path: Path) -> None:
    hooks = {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
        {"type": "command", "command": "echo 'no rm' >&2; exit 2"}]}]}}
    path = tmp_path / "hooks.json"
    path.write_text(json.dumps(hooks))
    exe = Path(sys.executable).with_name("hookwire")
    done = subprocess.run(
        [str(exe), "fire", "PreToolUse", "--dialect", "codex", "--config", str(path),
         "--data", json.dumps({"tool_name": "Bash", "tool_input": {"command": "rm -rf /"},
                               "turn_id": "t"}), "--compact"],
        capture_output=True, text=True, check=True, cwd=tmp_path)
    out = json.loads(done.stdout)
    assert out["decision"] == "deny" and out["reason"] == "no rm"
    done = subprocess.run(
        [str(exe), "fire", "Interrupt", "--dialect", "codex", "--config", str(path)],
        capture_output=True, text=True, cwd=tmp_path)
    assert done.returncode == 2 and "no hookwire host emits" in done.stderr
