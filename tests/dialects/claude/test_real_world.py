"""Real-world-style hook scripts (after the public ones in the contract's §7), run unmodified.

Each reads its stdin the way its original does (``jq``, ``read -r``, ``json.load``) and relies on
what a faithful runner provides (single-line JSON plus newline, ``CLAUDE_PROJECT_DIR``,
``CLAUDE_ENV_FILE``, the session cwd).
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from hookwire import Decision, Kernel
from hookwire.dialects.claude.testing import group

ScriptFactory = Callable[..., Path]
KernelFactory = Callable[..., Kernel]
PY = f"#!{sys.executable}"

pytestmark = pytest.mark.skipif(shutil.which("jq") is None, reason="jq is not installed")


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def session(kernel: Kernel, project: Path, **kw: Any) -> Any:
    return kernel.session(cwd=str(project), project_dir=str(project), session_id="s",
                          transcript_path=str(project / "t.jsonl"), **kw)


BASH_VALIDATOR = '''
import json, re, sys
RULES = [(r"^grep\\b(?!.*\\|)", "Use 'rg' (ripgrep) instead of 'grep'"),
         (r"^find\\s+\\S+\\s+-name\\b", "Use 'rg --files | rg pattern' instead of 'find -name'")]
try:
    data = json.load(sys.stdin)
except json.JSONDecodeError as e:
    print(f"Error: Invalid JSON input: {e}", file=sys.stderr)
    sys.exit(1)
if data.get("tool_name") != "Bash":
    sys.exit(0)
command = data.get("tool_input", {}).get("command", "")
issues = [msg for pat, msg in RULES if re.search(pat, command)]
if issues:
    for m in issues:
        print(f"• {m}", file=sys.stderr)
    sys.exit(2)
'''

VALIDATE_BASH = r'''
set -euo pipefail
input=$(cat)
command=$(echo "$input" | jq -r '.tool_input.command // empty')
if [ -z "$command" ]; then
  echo '{"continue": true}'
  exit 0
fi
if [[ "$command" == *"rm -rf"* ]]; then
  echo '{"hookSpecificOutput": {"permissionDecision": "deny"},
    "systemMessage": "Dangerous command detected"}' >&2
  exit 2
fi
exit 0
'''

BLOCK_DANGEROUS = r'''
read -r input
command=$(printf '%s' "$input" | jq -r '.tool_input.command')
case "$command" in
  *--no-verify*|*"git push"*)
    jq -n --arg r "Blocked: $command
Ask the user first." '{hookSpecificOutput: {hookEventName: "PreToolUse",
      permissionDecision: "deny", permissionDecisionReason: $r}}'
    ;;
  *)
    jq -n '{hookSpecificOutput: {hookEventName: "PreToolUse", permissionDecision: "allow"}}'
    ;;
esac
'''

SESSION_START_PRETTY = r'''
cat << 'JSON'
{
  "hookSpecificOutput": {
    "hookEventName": "SessionStart",
    "additionalContext": "You are in 'explanatory' output style mode."
  }
}
JSON
exit 0
'''

LOAD_CONTEXT = r'''
set -euo pipefail
cd "$CLAUDE_PROJECT_DIR" || exit 1
if [ -f "package.json" ]; then
  echo "📦 Node.js project detected"
  echo "export NODE_ENV=development" >> "$CLAUDE_ENV_FILE"
fi
exit 0
'''

RALPH_STOP = r'''
set -euo pipefail
HOOK_INPUT=$(cat)
STATE=".claude/ralph-loop.local.md"
[ -f "$STATE" ] || exit 0
TRANSCRIPT=$(echo "$HOOK_INPUT" | jq -r '.transcript_path')
LAST=$(grep '"role":"assistant"' "$TRANSCRIPT" | tail -1 | jq -r '.message.content[0].text')
if [ "$LAST" = "DONE" ]; then exit 0; fi
jq -n --arg p "$(cat "$STATE")" --arg m "Ralph iteration" \
  '{"decision": "block", "reason": $p, "systemMessage": $m}'
'''

HOOKIFY_POST = '''
import json, sys
data = json.load(sys.stdin)
out = {"hookSpecificOutput": {"hookEventName": data["hook_event_name"],
                              "permissionDecision": "deny"},
       "systemMessage": "rule matched on " + data["tool_name"]}
print(json.dumps(out))
'''

ENFORCE_PNPM = r'''
set -euo pipefail
cmd=$(jq -r '.tool_input.command // empty')
if [ -f "${CLAUDE_PROJECT_DIR}/pnpm-lock.yaml" ] && [[ "$cmd" =~ ^npm\  ]]; then
  echo "This project uses pnpm: use pnpm instead of npm" >&2
  exit 2
fi
exit 0
'''


@pytest.mark.anyio
async def test_bash_command_validator(hook_script: ScriptFactory,
                                      claude_kernel: KernelFactory, project: Path) -> None:
    cmd = str(hook_script(BASH_VALIDATOR, shebang=PY))
    kernel = claude_kernel({"PreToolUse": [group(cmd, matcher="Bash")]})
    async with session(kernel, project) as s:
        verdict = await s.tool_pre("Bash", {"command": "grep -r foo ."})
        assert verdict.denied
        assert verdict.reason == f"[{cmd}]: • Use 'rg' (ripgrep) instead of 'grep'\n"
        assert not (await s.tool_pre("Bash", {"command": "grep foo x | wc -l"})).denied


@pytest.mark.anyio
async def test_validate_bash_writes_json_to_stderr(hook_script: ScriptFactory,
                                                   claude_kernel: KernelFactory,
                                                   project: Path) -> None:
    cmd = str(hook_script(VALIDATE_BASH, shebang="#!/bin/bash"))
    kernel = claude_kernel({"PreToolUse": [group(cmd, matcher="Bash")]})
    async with session(kernel, project) as s:
        verdict = await s.tool_pre("Bash", {"command": "rm -rf build"})
        assert verdict.denied and verdict.reason is not None
        assert verdict.reason.startswith(f'[{cmd}]: {{"hookSpecificOutput"')
        verdict = await s.tool_pre("Bash", {"description": "no command"})
        assert verdict.decision is Decision.NONE and not verdict.system_messages


@pytest.mark.anyio
async def test_block_dangerous_commands_reads_one_line(hook_script: ScriptFactory,
                                                       claude_kernel: KernelFactory,
                                                       project: Path) -> None:
    cmd = str(hook_script(BLOCK_DANGEROUS, shebang="#!/bin/bash"))
    kernel = claude_kernel({"PreToolUse": [group(cmd, matcher="Bash")]})
    async with session(kernel, project) as s:
        verdict = await s.tool_pre("Bash", {"command": "git push origin main",
                                            "description": "multi\nline"})
        assert verdict.decision is Decision.DENY
        assert verdict.reason == "Blocked: git push origin main\nAsk the user first."
        assert (await s.tool_pre("Bash", {"command": "ls"})).decision is Decision.ALLOW


@pytest.mark.anyio
async def test_session_start_pretty_json_and_env_file(hook_script: ScriptFactory,
                                                      claude_kernel: KernelFactory,
                                                      project: Path, tmp_path: Path) -> None:
    (project / "package.json").write_text("{}")
    pretty = str(hook_script(SESSION_START_PRETTY))
    load = str(hook_script(LOAD_CONTEXT, shebang="#!/bin/bash"))
    env_file = tmp_path / "env.sh"
    kernel = claude_kernel({"SessionStart": [group(pretty), group(load, matcher="startup")]})
    async with session(kernel, project, env_file=str(env_file)) as s:
        verdict = await s.session_start("startup")
    assert sorted(c.text for c in verdict.contexts) == [
        "SessionStart hook additional context: You are in 'explanatory' output style mode.",
        "SessionStart:startup hook success: 📦 Node.js project detected"]
    assert env_file.read_text() == "export NODE_ENV=development\n"
    out = subprocess.run(["bash", "-c", f"source {env_file}; echo $NODE_ENV"],
                         capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "development"


@pytest.mark.anyio
async def test_ralph_style_stop_loop(hook_script: ScriptFactory,
                                     claude_kernel: KernelFactory, project: Path) -> None:
    (project / ".claude").mkdir(exist_ok=True)
    (project / ".claude" / "ralph-loop.local.md").write_text("Fix the build.")
    transcript = project / "t.jsonl"
    transcript.write_text(json.dumps({"message": {"role": "assistant", "content": [
        {"type": "text", "text": "working"}]}}, separators=(",", ":")) + "\n")
    cmd = str(hook_script(RALPH_STOP, shebang="#!/bin/bash"))
    kernel = claude_kernel({"Stop": [group(cmd)]})
    async with session(kernel, project) as s:
        verdict = await s.stop("working")
        assert verdict.continue_turn and verdict.reason == "Fix the build."
        assert verdict.system_messages == ("Ralph iteration",)
        transcript.write_text(transcript.read_text().replace("working", "DONE"))
        assert not (await s.stop("DONE")).continue_turn


@pytest.mark.anyio
async def test_hookify_permission_decision_on_post_tool_use_is_ignored(
        hook_script: ScriptFactory, claude_kernel: KernelFactory, project: Path) -> None:
    cmd = str(hook_script(HOOKIFY_POST, shebang=PY))
    kernel = claude_kernel({"PostToolUse": [group(cmd)], "PreToolUse": [group(cmd)]})
    async with session(kernel, project) as s:
        post = await s.tool_post("Bash", {"command": "ls"}, {"stdout": "x"})
        pre = await s.tool_pre("Bash", {"command": "ls"})
    assert post.decision is Decision.NONE
    assert post.system_messages == ("rule matched on Bash",)
    assert pre.decision is Decision.DENY


@pytest.mark.anyio
async def test_enforce_package_manager(hook_script: ScriptFactory,
                                       claude_kernel: KernelFactory, project: Path) -> None:
    cmd = str(hook_script(ENFORCE_PNPM, shebang="#!/bin/bash"))
    kernel = claude_kernel({"PreToolUse": [group(cmd, matcher="Bash")]})
    async with session(kernel, project) as s:
        assert not (await s.tool_pre("Bash", {"command": "npm install"})).denied
        (project / "pnpm-lock.yaml").write_text("")
        verdict = await s.tool_pre("Bash", {"command": "npm install"})
        assert verdict.denied and "use pnpm" in (verdict.reason or "")
