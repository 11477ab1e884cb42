"""``hookwire demo``: a short session of the reference host with sample Claude Code hooks.

It writes a temporary project with a ``.claude/settings.json`` (a guard that blocks
``rm -rf``, a rewrite, a prompt context injector, a post-write note and a Stop hook that sends
the agent back once), runs a scripted model through it with real tools, and prints a timeline
of seams, the hooks that ran, their outcomes and the verdicts.
"""

from __future__ import annotations

import json
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
from hookwire.verdicts import Decision, Verdict

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

    def cmd(name: str) -> dict[str, Any]:
        return {"type": "command", "command": f'"$CLAUDE_PROJECT_DIR"/.claude/hooks/{name}',
                "timeout": 30}

    settings = {"hooks": {
        "SessionStart": [{"hooks": [{"type": "command",
                                     "command": "echo 'Demo project: tests are run by hand.'"}]}],
        "UserPromptSubmit": [{"hooks": [cmd("prompt-context.py")]}],
        "PreToolUse": [{"matcher": "Bash", "hooks": [cmd("guard-rm.sh"), cmd("quiet-ls.py")]}],
        "PostToolUse": [{"matcher": "Write|Edit", "hooks": [cmd("note-write.sh")]}],
        "Stop": [{"hooks": [cmd("require-tests.py")]}],
    }}
    path = root / ".claude" / "settings.json"
    path.write_text(json.dumps(settings, indent=2) + "\n")
    return path


class Timeline:
    """A native plugin on the audit plane that prints each seam's hooks and verdict."""

    def __init__(self, out: TextIO, root: Path, as_json: bool) -> None:
        self.out = out
        self.root = str(root)
        self.as_json = as_json

    @hookimpl
    def seam_verdict(self, event: SeamEvent, verdict: Verdict) -> None:
        if self.as_json:
            self.out.write(json.dumps({"event": _describe(event), **verdict.to_json()},
                                      default=str) + "\n")
            return
        w = self.out.write
        w(f"\n● {event.seam.value:<14} {_describe(event)}\n")
        for h in verdict.hooks:
            how = (f"exit {h.exit_code}" if h.exit_code is not None
                   else f"signal {h.signal}" if h.signal else h.outcome)
            cmd = h.command.replace(self.root, ".").replace('"$CLAUDE_PROJECT_DIR"', ".")
            w(f"    hook {h.dialect}:{h.event:<16} {cmd:<36} {how:<8} "
              f"{h.duration_ms:7.1f} ms  → {h.decision.value}\n")
            for d in h.diagnostics:
                w(f"         ! {d}\n")
        w(f"    verdict: {_summary(verdict)}\n")
        if verdict.input_rewritten:
            w(f"    effective input: {json.dumps(dict(verdict.effective_input or {}))}\n")
        for c in verdict.contexts:
            w(f"    + context from {c.source.label()}: {_short(c.text)}\n")


def _describe(event: SeamEvent) -> str:
    fields = {k: v for k, v in _fields(event).items() if v not in (None, {}, "", ())}
    for key in ("prompt_id", "tool_use_id", "extra", "agent_id", "agent_type"):
        fields.pop(key, None)
    return _short(json.dumps(fields, default=str), 90)


def _fields(event: SeamEvent) -> dict[str, Any]:
    import attrs

    return attrs.asdict(event, recurse=False)


def _summary(v: Verdict) -> str:
    if v.halt is not None:
        return f"HALT ({v.halt.reason})"
    if v.continue_turn:
        return f"CONTINUE the turn: {_short(v.reason or '')}"
    if v.decision is Decision.NONE:
        return "no objection"
    return f"{v.decision.value.upper()}" + (f": {_short(v.reason)}" if v.reason else "")


def _short(text: str, limit: int = 110) -> str:
    text = text.replace("\n", " ⏎ ")
    return text if len(text) <= limit else text[: limit - 1] + "…"


def run_demo(*, keep: bool = False, as_json: bool = False, out: TextIO | None = None) -> int:
    """Run the demo; returns the process exit status."""
    from hookwire.kernel import Kernel

    out = out or sys.stdout
    kernel = Kernel()
    if "claude" not in kernel.dialects:
        for err in kernel.load_errors:
            out.write(f"hookwire demo: {err}\n")
        out.write("hookwire demo: the claude dialect is not installed\n")
        return 1
    root = Path(tempfile.mkdtemp(prefix="hookwire-demo-"))
    try:
        settings = write_project(root)
        kernel.add_config("claude", settings)
        kernel.register(Timeline(out, root, as_json), name="demo-timeline")
        model = ScriptedModel(SCRIPT)
        if not as_json:
            out.write(f"hookwire demo: reference host, scripted model, real tools\n"
                      f"project {root}\nhooks   {settings.relative_to(root)} (claude dialect)\n"
                      f"prompt  {PROMPT!r}\n")

        async def main() -> Any:
            async with Agent(kernel, model, cwd=str(root), project_dir=str(root),
                             permission_mode="default", model="scripted") as agent:
                result = await agent.run(PROMPT)
            return agent, result

        agent, result = anyio.run(main)
        if not as_json:
            out.write(f"\n■ turn ended: {result.terminal_reason} after {result.model_requests} "
                      f"model requests; final text: {result.text!r}\n")
            out.write("\nwhat the model was shown (hook text labelled with its source):\n")
            for m in agent.messages:
                label = f" [{m.source}]" if m.source else ""
                out.write(f"  {m.role:<9}{label} {_short(m.content, 100)}\n")
            files = sorted(p.name for p in root.iterdir() if not p.name.startswith(".claude"))
            out.write(f"\nproject files now: {', '.join(files)}\n")
        return 0
    finally:
        if keep:
            out.write(f"(kept {root})\n")
        else:
            shutil.rmtree(root, ignore_errors=True)
