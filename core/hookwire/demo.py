"""``hookwire demo``: a short session of the reference host with sample Claude Code hooks.

It writes a temporary project with a ``.claude/settings.json`` (a guard that blocks
``rm -rf``, a rewrite, a prompt context injector, a post-write note and a Stop hook that sends
the agent back once), runs a scripted model through it with real tools, and prints a timeline
of seams, the hooks that ran, their outcomes and the verdicts.
"""

from __future__ import annotations

import json
import os
import shutil
import stat
import sys
import tempfile
import textwrap
from pathlib import Path
from typing import Any, TextIO

import anyio

from hookwire.events import SeamEvent
from hookwire.hookspecs import hookimpl
from hookwire.reference import Agent, ModelTurn, ScriptedModel, ToolCall
from hookwire.timeline import Timeline, _short, seam_record
from hookwire.verdicts import Verdict

PROMPT = "Clean the build directory, write hello.txt and list the project."

HOOKS: dict[str, str] = {
    "guard-rm.sh": r"""
        #!/bin/sh
        # Blocks recursive forced deletes: exit 2, the reason on stderr (Claude Code's rule).
        payload=$(cat)
        case "$payload" in
          *'rm -rf'*|*'rm -fr'*) echo "Refusing recursive forced delete; remove files by name." >&2; exit 2 ;;
        esac
        exit 0
        """,
    "quiet-ls.py": r"""
        #!/usr/bin/env python3
        # Rewrites a bare `ls` into `ls -1` through updatedInput.
        import json, sys
        event = json.load(sys.stdin)
        command = event["tool_input"].get("command", "")
        if command.strip() == "ls":
            print(json.dumps({"hookSpecificOutput": {
                "hookEventName": "PreToolUse",
                "permissionDecision": "allow",
                "permissionDecisionReason": "ls rewritten to one name per line",
                "updatedInput": {**event["tool_input"], "command": "ls -1"}}}))
        """,
    "prompt-context.py": r"""
        #!/usr/bin/env python3
        # Adds context to every prompt: plain stdout on UserPromptSubmit reaches the model.
        import json, sys
        event = json.load(sys.stdin)
        print(f"Team rule: never delete build outputs by wildcard (session {event['session_id'][:8]}).")
        """,
    "note-write.sh": r"""
        #!/bin/sh
        # After a Write, tells the model (additionalContext) which file changed.
        file=$(python3 -c 'import json,sys; print(json.load(sys.stdin)["tool_input"]["file_path"])')
        printf '{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"%s was written; remember to test it."}}\n' "$(basename "$file")"
        """,
    "require-tests.py": r"""
        #!/usr/bin/env python3
        # Stop hook: sends the agent back once if the tests have not run in this project.
        import json, os, sys
        event = json.load(sys.stdin)
        if not event.get("stop_hook_active") and not os.path.exists(".tests-ran"):
            print(json.dumps({"decision": "block", "reason": "Run the tests before you stop."}))
        """,
}

SCRIPT = [
    ModelTurn(text="I'll clean the build directory first.",
              tool_calls=(ToolCall(name="Bash", input={"command": "rm -rf build"}, id="toolu_1"),)),
    ModelTurn(text="Deleting is refused; writing the file instead.",
              tool_calls=(ToolCall(name="Write", input={"file_path": "hello.txt",
                                                        "content": "hello\n"}, id="toolu_2"),)),
    ModelTurn(tool_calls=(ToolCall(name="Bash", input={"command": "ls"}, id="toolu_3"),)),
    ModelTurn(text="Done: hello.txt is written."),
    ModelTurn(tool_calls=(ToolCall(name="Bash", input={"command": "touch .tests-ran && "
                                                       "echo 1 passed"}, id="toolu_4"),)),
    ModelTurn(text="Tests pass; hello.txt is written."),
]


def write_project(root: Path) -> Path:
    """Write the sample project with its hooks; returns the settings file."""
    hooks_dir = root / ".claude" / "hooks"
    hooks_dir.mkdir(parents=True)
    for name, body in HOOKS.items():
        path = hooks_dir / name
        path.write_text(textwrap.dedent(body).lstrip())
        path.chmod(path.stat().st_mode | stat.S_IXUSR)
    (root / "build").mkdir()
    (root / "build" / "out.o").write_text("binary\n")

    def cmd(name: str, status: str | None = None) -> dict[str, Any]:
        handler: dict[str, Any] = {
            "type": "command", "command": f'"$CLAUDE_PROJECT_DIR"/.claude/hooks/{name}',
            "timeout": 30}
        if status:  # Claude Code shows it while the hook runs; so do the demo and the host
            handler["statusMessage"] = status
        return handler

    settings = {"hooks": {
        "SessionStart": [{"hooks": [{"type": "command",
                                     "command": "echo 'Demo project: tests are run by hand.'"}]}],
        "UserPromptSubmit": [{"hooks": [cmd("prompt-context.py")]}],
        "PreToolUse": [{"matcher": "Bash", "hooks": [
            cmd("guard-rm.sh", "Checking the command for forced deletes…"), cmd("quiet-ls.py")]}],
        "PostToolUse": [{"matcher": "Write|Edit", "hooks": [cmd("note-write.sh")]}],
        "Stop": [{"hooks": [cmd("require-tests.py", "Checking that the tests ran…")]}],
    }}
    path = root / ".claude" / "settings.json"
    path.write_text(json.dumps(settings, indent=2) + "\n")
    return path


def run_demo(*, keep: bool = False, as_json: bool = False, out: TextIO | None = None) -> int:
    """Run the demo; returns the process exit status. The session is recorded in the run log
    (``HOOKWIRE_RUN_LOG``, on by default for the demo) so that ``hookwire log`` shows it."""
    from hookwire.kernel import Kernel

    out = out or sys.stdout
    record = RUN_LOG_ENV not in os.environ
    if record:  # the run-log plugin reads the variable when the kernel loads it
        os.environ[RUN_LOG_ENV] = "1"
    try:
        kernel = Kernel()
    finally:
        if record:
            del os.environ[RUN_LOG_ENV]
    if "claude" not in kernel.dialects:
        for err in kernel.load_errors:
            out.write(f"hookwire demo: {err}\n")
        from hookwire._entrypoints import DIALECT_GROUP
        from hookwire.errors import UnknownDialectError

        disabled = (DIALECT_GROUP, "claude") in kernel.registry.disabled
        problem = UnknownDialectError("claude", list(kernel.dialects), disabled=disabled)
        out.write(f"hookwire demo: needs the claude dialect: {problem}\n")
        return 1
    root = Path(tempfile.mkdtemp(prefix="hookwire-demo-"))
    try:
        settings = write_project(root)
        kernel.trusted_folders += (str(root.resolve()),)  # hookwire wrote this project itself
        kernel.add_config("claude", settings)
        kernel.register(_Flat(out) if as_json else Timeline(out, root=str(root)),
                        name="demo-timeline")
        model = ScriptedModel(SCRIPT)
        if not as_json:
            out.write(f"hookwire demo: reference host, scripted model, real tools\n"
                      f"project {root}\nhooks   {settings.relative_to(root)} (claude dialect)\n"
                      f"prompt  {PROMPT!r}\n")

        def status(message: str) -> None:
            if not as_json:
                out.write(f"\n  … {message}")
                out.flush()

        async def main() -> Any:
            async with Agent(kernel, model, cwd=str(root), project_dir=str(root),
                             permission_mode="default", model="scripted",
                             on_status=status) as agent:
                sid = agent.session.info.session_id
                result = await agent.run(PROMPT)
            return agent, result, sid

        agent, result, sid = anyio.run(main)
        if not as_json:
            out.write(f"\n■ turn ended: {result.terminal_reason} after {result.model_requests} "
                      f"model requests; final text: {result.text!r}\n")
            out.write("\nwhat the model was shown (hook text labelled with its source):\n")
            for m in agent.messages:
                label = f" [{m.source}]" if m.source else ""
                out.write(f"  {m.role:<9}{label} {_short(m.content, 100)}\n")
            files = sorted(p.name for p in root.iterdir() if not p.name.startswith(".claude"))
            out.write(f"\nproject files now: {', '.join(files)}\n")
            if _recorded(kernel):
                out.write(f"\nrecorded in the run log: `hookwire log {sid[:8]}` (or "
                          "`hookwire log`, the latest session) shows it again\n")
        return 0
    finally:
        if keep:
            out.write(f"(kept {root})\n")
        else:
            shutil.rmtree(root, ignore_errors=True)


#: The run log's switch (read by the ``runlog`` plugin; core names no plugin).
RUN_LOG_ENV = "HOOKWIRE_RUN_LOG"


def _recorded(kernel: Any) -> bool:
    return any(getattr(p, "recorder", None) is not None for p in kernel.pm.get_plugins())


class _Flat:
    """``demo --json``: one line per seam, the verdict's JSON with the event described."""

    def __init__(self, out: TextIO) -> None:
        self.out = out

    @hookimpl
    def seam_verdict(self, event: SeamEvent, verdict: Verdict) -> None:
        record = seam_record(event, verdict)
        self.out.write(json.dumps({"event": _short(json.dumps(record["event"]), 90),
                                   **verdict.to_json()}, default=str) + "\n")
