"""The settings' ``permissions`` rules against a hook's ``allow`` (Claude Code 2.1.332: the rule
wins), through real hook scripts and the kernel."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from hookwire import Decision, Kernel
from hookwire.dialects.claude.testing import group
from hookwire.render import Placement, Subject, render

ScriptFactory = Callable[..., Path]
KernelFactory = Callable[..., Kernel]


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def answering(hook_script: ScriptFactory, decision: str, **more: Any) -> str:
    out = {"hookSpecificOutput": {"hookEventName": "PreToolUse",
                                  "permissionDecision": decision, **more}}
    return str(hook_script(f"cat >/dev/null\necho '{json.dumps(out)}'\n"))


@pytest.mark.anyio
async def test_settings_deny_and_ask_rules_override_a_hooks_allow(
        hook_script: ScriptFactory, claude_kernel: KernelFactory, project: Path) -> None:
    allow = answering(hook_script, "allow", permissionDecisionReason="fine by me")
    kernel = claude_kernel({"PreToolUse": [group(allow, matcher="Bash")]},
                           permissions={"deny": ["Bash(echo:*)"], "ask": ["Bash(ls *)"],
                                        "allow": ["Bash"]})
    async with kernel.session(cwd=str(project), project_dir=str(project)) as s:
        denied = await s.tool_pre("Bash", {"command": "echo hello"})
        asked = await s.tool_pre("Bash", {"command": "ls -l"})
        both = await s.tool_pre("Bash", {"command": "ls && echo hi"})  # deny before ask
        allowed = await s.tool_pre("Bash", {"command": "pwd"})
    assert denied.decision is Decision.DENY and denied.denied
    assert denied.reason == "Permission to use Bash with command echo hello has been denied."
    texts = render(denied, kernel.dialect, Subject(tool_name="Bash",
                                                   tool_input={"command": "echo hello"}))
    assert [(t.text, t.placement) for t in texts] == [
        ("Permission to use Bash with command echo hello has been denied.",
         Placement.TOOL_RESULT)]
    assert asked.decision is Decision.ASK and "Bash(ls *)" in (asked.reason or "")
    assert both.decision is Decision.DENY
    assert allowed.decision is Decision.ALLOW  # no rule in the way: the hook's allow stands


@pytest.mark.anyio
async def test_a_hooks_ask_yields_to_a_deny_rule_and_its_rewrite_is_what_is_tested(
        hook_script: ScriptFactory, claude_kernel: KernelFactory, project: Path) -> None:
    ask = answering(hook_script, "ask")
    rewrite = answering(hook_script, "allow", updatedInput={"command": "rm -rf build"})
    kernel = claude_kernel({"PreToolUse": [group(ask, matcher="Read"),
                                           group(rewrite, matcher="Bash")]},
                           permissions={"deny": ["Read(secrets/**)", "Bash(rm:*)"]})
    async with kernel.session(cwd=str(project), project_dir=str(project)) as s:
        read = await s.tool_pre("Read", {"file_path": str(project / "secrets" / "k")})
        other = await s.tool_pre("Read", {"file_path": str(project / "README")})
        bash = await s.tool_pre("Bash", {"command": "make"})
    assert read.decision is Decision.DENY
    assert read.reason == "Permission to use Read has been denied."
    assert other.decision is Decision.ASK  # a hook's ask with no rule against it still asks
    assert bash.decision is Decision.DENY and bash.effective_input == {"command": "make"}
    assert bash.reason == "Permission to use Bash with command rm -rf build has been denied."


@pytest.mark.anyio
async def test_a_hook_that_denies_keeps_its_own_words_beside_a_rule(
        hook_script: ScriptFactory, claude_kernel: KernelFactory, project: Path) -> None:
    allow = answering(hook_script, "allow")
    deny = str(hook_script("cat >/dev/null\necho 'not today' >&2\nexit 2\n"))
    kernel = claude_kernel({"PreToolUse": [group(allow, deny, matcher="Bash")]},
                           permissions={"deny": ["Bash"]})
    async with kernel.session(cwd=str(project), project_dir=str(project)) as s:
        verdict = await s.tool_pre("Bash", {"command": "echo hi"})
    texts = render(verdict, kernel.dialect, Subject(tool_name="Bash",
                                                    tool_input={"command": "echo hi"}))
    assert verdict.decision is Decision.DENY
    assert texts[0].text.startswith("PreToolUse:Bash hook error: ")
    assert "not today" in texts[0].text and "Permission to use" not in texts[0].text


def test_unreadable_rules_are_reported_and_left_out(tmp_path: Path) -> None:
    from hookwire.dialects.claude import ClaudeDialect

    path = tmp_path / "settings.json"
    path.write_text(json.dumps({"permissions": {"deny": ["Bash(", 3, "Read"], "ask": "Bash"}}))
    result = ClaudeDialect().read_config(path)
    assert [r.text for r in result.settings["permissions"]] == ["Read"]
    assert sorted(p.location.pointer or "" for p in result.problems) == [
        "$.permissions.ask", "$.permissions.deny[0]", "$.permissions.deny[1]"]
