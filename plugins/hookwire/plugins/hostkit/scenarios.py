"""The conformance kit's scenarios (:class:`HostConformance`) and their hook script."""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, ClassVar

import pytest

from hookwire.kernel import Kernel
from hookwire.plugins.hostkit import TOOLS, Call, HostHarness, KitTools, Step, Transcript
from hookwire.render import no_approval_surface

#: The one hook script of the kit; ``argv[1]`` picks what it does. Each run appends its event
#: name and payload to ``$HOOKWIRE_KIT_LOG``.
HOOK = r'''
import json, os, sys
mode = sys.argv[1]
data = json.load(sys.stdin)
with open(os.environ["HOOKWIRE_KIT_LOG"], "a") as fh:
    fh.write(json.dumps({"mode": mode, **data}) + "\n")
def out(obj):
    print(json.dumps(obj)); sys.exit(0)
tool_input = data.get("tool_input") or {}
cmd = tool_input.get("command", "") if isinstance(tool_input, dict) else ""
event = data.get("hook_event_name", "")
if mode in ("guard", "yaml_guard") and "rm -rf" in cmd:
    print("Blocked: rm -rf is not allowed here", file=sys.stderr); sys.exit(2)
if mode == "rewrite" and cmd.startswith("echo old"):
    out({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow",
         "updatedInput": {"command": cmd.replace("echo old", "echo new", 1)}}})
if mode == "ask" and "sudo" in cmd:
    out({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "ask",
         "permissionDecisionReason": "sudo needs a human"}})
if mode == "context":
    out({"hookSpecificOutput": {"hookEventName": event,
                                "additionalContext": f"kit context for {event}"}})
if mode == "stop":
    if not data.get("stop_hook_active"):
        out({"decision": "block", "reason": "run the tests before you stop"})
if mode == "prompt_block" and "forbidden" in data.get("prompt", ""):
    out({"decision": "block", "reason": "that prompt is not allowed"})
if mode == "halt":
    out({"continue": False, "stopReason": "the halt hook ended the run"})
if mode == "portable_context":
    out({"context": "kit portable context"})
sys.exit(0)
'''


class HostConformance:
    """The scenarios. Subclass it in a test module and set :attr:`harness`."""

    harness: ClassVar[HostHarness]

    # -- set-up --------------------------------------------------------------------------------

    @pytest.fixture
    def kit(self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> _Kit:
        return _Kit(self.harness, tmp_path, monkeypatch)

    @pytest.fixture(autouse=True)
    def _coverage(self, request: pytest.FixtureRequest) -> None:
        name = request.node.originalname.removeprefix("test_")
        reason = self.harness.cannot.get(name)
        if reason is not None:
            pytest.skip(f"{self.harness.name} cannot express this: {reason}")

    # -- Claude Code ---------------------------------------------------------------------------

    def test_claude_bash_guard(self, kit: _Kit) -> None:
        kernel = kit.claude(PreToolUse=[("guard", "Bash")])
        t = kit.run(kernel, [[Call("run_shell", {"cmd": "rm -rf build"})]])
        assert t.error is None, t.error
        assert t.ran == [], "the guard's exit 2 must stop the tool"
        assert kit.harness.renders or t.read("PreToolUse:Bash hook error: [")
        assert t.read("Blocked: rm -rf is not allowed here")
        assert kit.log("guard")[0]["tool_name"] == "Bash"
        assert kit.log("guard")[0]["tool_input"]["command"] == "rm -rf build"

    def test_claude_allows_other_commands(self, kit: _Kit) -> None:
        kernel = kit.claude(PreToolUse=[("guard", "Bash")])
        t = kit.run(kernel, [[Call("run_shell", {"cmd": "ls"})]])
        assert t.ran == [("run_shell", {"cmd": "ls"})]
        assert t.read("ran: ls")

    def test_claude_write_hook(self, kit: _Kit) -> None:
        kernel = kit.claude(PreToolUse=[("observe", "Write")])
        t = kit.run(kernel, [[Call("save_file", {"path": "notes.txt", "text": "hello"})]])
        assert t.ran == [("save_file", {"path": "notes.txt", "text": "hello"})]
        seen = kit.log("observe")
        assert [(s["tool_name"], s["tool_input"]) for s in seen] == [
            ("Write", {"file_path": "notes.txt", "content": "hello"})]

    def test_claude_rewrite(self, kit: _Kit) -> None:
        kernel = kit.claude(PreToolUse=[("rewrite", "Bash")])
        t = kit.run(kernel, [[Call("run_shell", {"cmd": "echo old value"})]])
        assert t.ran == [("run_shell", {"cmd": "echo new value"})]
        assert t.read("ran: echo new value")

    def test_claude_ask_without_approval_surface(self, kit: _Kit) -> None:
        kernel = kit.claude(PreToolUse=[("ask", "Bash")])
        t = kit.run(kernel, [[Call("run_shell", {"cmd": "sudo reboot"})]])
        assert t.ran == [], "an ask nobody answers must not run the tool"
        assert t.read("sudo needs a human" if kit.harness.renders
                      else no_approval_surface("sudo needs a human"))

    def test_claude_prompt_context(self, kit: _Kit) -> None:
        kernel = kit.claude(UserPromptSubmit=["context"])
        t = kit.run(kernel, ["done"])
        assert t.requests and "kit context for UserPromptSubmit" in t.requests[0]
        assert len(kit.log("context")) == 1, "one prompt_submit per user turn"

    def test_claude_session_start_context(self, kit: _Kit) -> None:
        kernel = kit.claude(SessionStart=["context"])
        t = kit.run(kernel, ["done"])
        assert t.requests and "kit context for SessionStart" in t.requests[0]

    def test_claude_post_tool_context(self, kit: _Kit) -> None:
        kernel = kit.claude(PostToolUse=[("context", "Bash")])
        t = kit.run(kernel, [[Call("run_shell", {"cmd": "ls"})], "done"])
        assert len(t.requests) >= 2
        assert "kit context for PostToolUse" in t.requests[1]

    def test_claude_tool_failure(self, kit: _Kit) -> None:
        kernel = kit.claude(PostToolUseFailure=[("observe", "Bash")],
                            PostToolUse=[("post", "Bash")])
        t = kit.run(kernel, [[Call("run_shell", {"cmd": "fail now"})], "done"])
        assert t.ran and set(map(repr, t.ran)) == {repr(("run_shell", {"cmd": "fail now"}))}
        if kit.harness.retries_failed_tools is None:
            assert len(t.ran) == 1
        failures = kit.log("observe")
        assert len(failures) == 1 and failures[0]["error"]
        if kit.harness.hides_tool_errors is None:
            assert "command failed: fail now" in failures[0]["error"]
        assert kit.log("post") == [], "a failed tool is not a PostToolUse"

    def test_claude_halt(self, kit: _Kit) -> None:
        kernel = kit.claude(PostToolUse=[("halt", "Bash")])
        t = kit.run(kernel, [[Call("run_shell", {"cmd": "ls"})], "never read"])
        assert t.ran == [("run_shell", {"cmd": "ls"})]
        assert t.error is not None and "the halt hook ended the run" in str(t.error)
        assert len(t.requests) == 1, "no model request after a halt"

    def test_claude_stop_block(self, kit: _Kit) -> None:
        kernel = kit.claude(Stop=["stop"])
        t = kit.run(kernel, ["first answer", "second answer"])
        assert len(t.requests) == 2, "a Stop block calls the model once more"
        assert "run the tests before you stop" in t.requests[1]
        assert [s["stop_hook_active"] for s in kit.log("stop")] == [False, True]
        assert t.output == "second answer"

    def test_claude_prompt_block(self, kit: _Kit) -> None:
        kernel = kit.claude(UserPromptSubmit=["prompt_block"])
        t = kit.run(kernel, ["never read"], prompt="do the forbidden thing")
        assert t.requests == [], "a blocked prompt never reaches the model"
        assert t.error is not None and "that prompt is not allowed" in str(t.error)

    def test_claude_mcp_tool_name(self, kit: _Kit) -> None:
        kernel = kit.claude(PreToolUse=[("observe", "mcp__docs__.*")])
        t = kit.run(kernel, [[Call("lookup", {"query": "hooks"})]])
        assert t.ran == [("lookup", {"query": "hooks"})]
        assert [s["tool_name"] for s in kit.log("observe")] == ["mcp__docs__lookup"]

    def test_claude_payload(self, kit: _Kit) -> None:
        kernel = kit.claude(PreToolUse=[("observe", "Bash")], PostToolUse=[("post", "Bash")])
        kit.run(kernel, [[Call("run_shell", {"cmd": "ls"})]])
        pre, post = kit.log("observe")[0], kit.log("post")[0]
        assert pre["hook_event_name"] == "PreToolUse" and pre["cwd"] == str(kit.project)
        assert pre["session_id"] == post["session_id"] and pre["tool_use_id"] == post["tool_use_id"]
        assert post["tool_response"] is not None

    def test_nested_agent(self, kit: _Kit) -> None:
        kernel = kit.claude(PreToolUse=[("guard", "Bash")], UserPromptSubmit=["prompt"],
                            SubagentStart=["sub_start"], SubagentStop=["sub_stop"])
        transcript = Transcript()
        t = kit.harness.run_nested(
            kernel, cwd=kit.project, prompt="please delegate", tools=KitTools(transcript),
            script=[[Call("delegate", {kit.harness.delegate_arg: "clean the build"})], "all done"],
            inner_script=[[Call("run_shell", {"cmd": "rm -rf build"})], "inner done"])
        assert t.error is None, t.error
        assert t.ran == [], "the inner agent's rm -rf must meet the same guard"
        assert t.read("Blocked: rm -rf is not allowed here")
        guard, prompt = kit.log("guard"), kit.log("prompt")
        assert len(prompt) == 1, "the inner run is part of the outer turn"
        assert guard[0]["session_id"] == prompt[0]["session_id"]
        assert len(kit.log("sub_start")) == 1 and len(kit.log("sub_stop")) == 1
        assert kit.log("sub_stop")[0]["session_id"] == prompt[0]["session_id"]

    # -- Codex ---------------------------------------------------------------------------------

    def test_codex_bash_guard(self, kit: _Kit) -> None:
        kernel = kit.codex(PreToolUse=[("guard", "Bash")])
        t = kit.run(kernel, [[Call("run_shell", {"cmd": "rm -rf build"})]])
        assert t.ran == []
        wording = "" if kit.harness.renders else "Command blocked by PreToolUse hook: "
        assert t.read(f"{wording}Blocked: rm -rf is not allowed here")

    def test_codex_stop_block(self, kit: _Kit) -> None:
        kernel = kit.codex(Stop=[("stop", None)])
        t = kit.run(kernel, ["first answer", "second answer"])
        assert len(t.requests) == 2
        assert "run the tests before you stop" in t.requests[1]

    def test_codex_prompt_context(self, kit: _Kit) -> None:
        kernel = kit.codex(UserPromptSubmit=[("context", None)])
        t = kit.run(kernel, ["done"])
        assert t.requests and "kit context for UserPromptSubmit" in t.requests[0]

    # -- Gemini CLI ----------------------------------------------------------------------------

    def test_gemini_shell_guard(self, kit: _Kit) -> None:
        kernel = kit.gemini(BeforeTool=[("guard", "run_shell_command")])
        t = kit.run(kernel, [[Call("run_shell", {"cmd": "rm -rf build"})]])
        assert t.ran == []
        wording = "" if kit.harness.renders else "Tool execution blocked: "
        assert t.read(wording + "Blocked: rm -rf is not allowed here")
        assert kit.log("guard")[0]["tool_name"] == "run_shell_command"

    def test_gemini_after_tool_context(self, kit: _Kit) -> None:
        kernel = kit.gemini(AfterTool=[("context", "run_.*")])
        t = kit.run(kernel, [[Call("run_shell", {"cmd": "ls"})], "done"])
        assert t.ran == [("run_shell", {"cmd": "ls"})]
        assert t.read("kit context for AfterTool" if kit.harness.renders
                      else "<hook_context>kit context for AfterTool</hook_context>")

    def test_gemini_prompt_context(self, kit: _Kit) -> None:
        kernel = kit.gemini(BeforeAgent=[("context", None)])
        t = kit.run(kernel, ["done"])
        wording = ("kit context for BeforeAgent" if kit.harness.renders
                   else "<hook_context>kit context for BeforeAgent</hook_context>")
        assert t.requests and wording in t.requests[0]

    def test_gemini_after_agent_retry(self, kit: _Kit) -> None:
        kernel = kit.gemini(AfterAgent=[("stop", None)])
        t = kit.run(kernel, ["first answer", "second answer"])
        assert len(t.requests) == 2
        assert "run the tests before you stop" in t.requests[1]
        assert [r["stop_hook_active"] for r in kit.log("stop")] == [False, True]

    # -- a repository's hooks (docs/trust.md) ----------------------------------------------------

    def test_repository_hooks_wait_for_approval(self, kit: _Kit, caplog: pytest.LogCaptureFixture,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
        """A cloned repository's ``.claude/settings.json`` and ``.hookwire/hooks.yaml`` guards
        run neither in an untrusted folder, and both are named with the approving command;
        once the folder is trusted, both run."""
        monkeypatch.delenv("HOOKWIRE_TRUSTED_FOLDERS", raising=False)
        kit.repository()
        with caplog.at_level("WARNING", logger="hookwire"):
            t = kit.run(kit.discovered(), [[Call("run_shell", {"cmd": "rm -rf build"})], "ok"])
        assert t.error is None, t.error
        assert t.ran == [("run_shell", {"cmd": "rm -rf build"})]
        assert kit.log("guard") == [] and kit.log("yaml_guard") == []
        waiting = [r.getMessage() for r in caplog.records if "waits for approval" in
                   r.getMessage()]
        assert any(".claude/settings.json" in m for m in waiting), waiting
        assert any(".hookwire/hooks.yaml" in m for m in waiting), waiting
        assert all("hookwire trust --folder" in m for m in waiting)
        monkeypatch.setenv("HOOKWIRE_TRUSTED_FOLDERS", str(kit.project))
        t = kit.run(kit.discovered(), [[Call("run_shell", {"cmd": "rm -rf build"})], "ok"])
        assert t.ran == [], "trusted, the repository's guards run"
        assert len(kit.log("guard")) == 1 and len(kit.log("yaml_guard")) == 1

    # -- portable ------------------------------------------------------------------------------

    def test_portable_hooks(self, kit: _Kit) -> None:
        kernel = kit.portable({"turn-start": "portable_context", "pre-tool-use": "observe",
                               "post-tool-use": "post", "turn-end": "end"})
        t = kit.run(kernel, [[Call("run_shell", {"cmd": "ls"})], "done"])
        assert t.ran == [("run_shell", {"cmd": "ls"})]
        assert t.requests and "kit portable context" in t.requests[0]
        assert t.read("[hookwire: context from portable:turn-start hook")
        assert [len(kit.log(m)) for m in ("observe", "post", "end")] == [1, 1, 1]


class _Kit:
    """A scenario's project folder, hook script and log."""

    def __init__(self, harness: HostHarness, tmp_path: Path,
                 monkeypatch: pytest.MonkeyPatch) -> None:
        self.harness = harness
        self.project = tmp_path / "project"
        self.project.mkdir()
        self.script = tmp_path / "kit_hook.py"
        self.script.write_text(HOOK)
        self.logfile = tmp_path / "kit_hooks.log"
        monkeypatch.setenv("HOOKWIRE_KIT_LOG", str(self.logfile))

    def _command(self, mode: str) -> str:
        return f"{sys.executable} {self.script} {mode}"

    def _kernel(self, dialect: str, path: Path) -> Kernel:
        kernel = Kernel()
        result = kernel.add_config(dialect, path)
        assert not getattr(result, "problems", ()), result
        kernel.map_tools(TOOLS)
        return kernel

    def claude(self, **events: Sequence[str | tuple[str, str]]) -> Kernel:
        hooks = {event: [_group(self._command(m), matcher) for m, matcher in map(_spec, specs)]
                 for event, specs in events.items()}
        path = self.project / ".claude" / "settings.json"
        path.parent.mkdir(exist_ok=True)
        path.write_text(json.dumps({"hooks": hooks}))
        return self._kernel("claude", path)

    def repository(self) -> None:
        """The project as a cloned repository brings it: a Claude Code settings guard and a
        hookwire hooks file guard (both exit 2 on ``rm -rf``)."""
        settings = self.project / ".claude" / "settings.json"
        settings.parent.mkdir(exist_ok=True)
        settings.write_text(json.dumps({"hooks": {"PreToolUse": [
            _group(self._command("guard"), "Bash")]}}))
        (self.project / ".hookwire").mkdir()
        argv = json.dumps([sys.executable, str(self.script), "yaml_guard"])
        (self.project / ".hookwire" / "hooks.yaml").write_text(
            "version: 1\nhooks:\n  - {dialect: claude, event: PreToolUse, matcher: Bash, "
            f"type: command, command: {argv}}}\n")

    def discovered(self) -> Kernel:
        """A kernel as the README's host builds it: ``discover`` in the project folder."""
        kernel = Kernel()
        home = self.project.parent / "home"
        home.mkdir(exist_ok=True)
        kernel.discover(self.project, home=home)
        kernel.map_tools(TOOLS)
        return kernel

    def codex(self, **events: Sequence[tuple[str, str | None]]) -> Kernel:
        hooks = {event: [_group(self._command(m), matcher) for m, matcher in specs]
                 for event, specs in events.items()}
        path = self.project / ".codex" / "hooks.json"
        path.parent.mkdir(exist_ok=True)
        path.write_text(json.dumps({"hooks": hooks}))
        return self._kernel("codex", path)

    def gemini(self, **events: Sequence[tuple[str, str | None]]) -> Kernel:
        hooks = {event: [_group(self._command(m), matcher) for m, matcher in specs]
                 for event, specs in events.items()}
        path = self.project / ".gemini" / "settings.json"
        path.parent.mkdir(exist_ok=True)
        path.write_text(json.dumps({"hooks": hooks}))
        return self._kernel("gemini", path)

    def portable(self, events: Mapping[str, str]) -> Kernel:
        root = self.project / "plugin"
        (root / "bin").mkdir(parents=True)
        hooks: dict[str, Any] = {}
        for event, mode in events.items():
            exe = root / "bin" / mode
            exe.write_text(f"#!/bin/sh\n"  # the profile passes a clean environment
                           f"HOOKWIRE_KIT_LOG='{self.logfile}' exec {sys.executable} "
                           f"{self.script} {mode}\n")
            exe.chmod(0o755)
            handler: dict[str, Any] = {"command": f"./bin/{mode}"}
            if mode.endswith("context"):
                handler["result"] = "context"
            hooks[event] = [handler]
        (root / "hooks.json").write_text(json.dumps({
            "$schema": "https://hookwire.dev/schemas/portable-hooks/0.1.0/hooks.schema.json",
            "hooks": hooks}))
        return self._kernel("portable", root / "hooks.json")

    def run(self, kernel: Kernel, script: Sequence[Step], *,
            prompt: str = "please do the task") -> Transcript:
        transcript = Transcript()
        out = self.harness.run(kernel, cwd=self.project, prompt=prompt, script=script,
                               tools=KitTools(transcript))
        if out is not transcript:  # a harness that made its own: keep the tools' record
            out.ran = transcript.ran + [r for r in out.ran if r not in transcript.ran]
        return out

    def log(self, mode: str) -> list[dict[str, Any]]:
        if not self.logfile.exists():
            return []
        rows = [json.loads(line) for line in self.logfile.read_text().splitlines()]
        return [r for r in rows if r["mode"] == mode]


def _spec(spec: str | tuple[str, str]) -> tuple[str, str | None]:
    return (spec, None) if isinstance(spec, str) else spec


def _group(command: str, matcher: str | None) -> dict[str, Any]:
    group: dict[str, Any] = {"hooks": [{"type": "command", "command": command}]}
    if matcher is not None:
        group["matcher"] = matcher
    return group


