"""Record what the real Gemini CLI does with its hooks: ``nox -s record_gemini`` (or
``python tests/dialects/gemini/record.py [SCENARIO ...]``). Not part of the test run.

Each scenario runs ``gemini -p PROMPT --yolo`` once, offline, in a temporary HOME and project,
against the scripted Gemini API of ``tests/clients/mockmodel.py`` on 127.0.0.1 (also given as
the proxy: any request for another address is refused and fails the recording). The model
makes the scenario's function calls, one per request, then answers. Every hook is
``rec.py LABEL``: it records its stdin, environment, argv and cwd, then answers as the
scenario says (stdout, stderr, exit code, a sleep). The recording keeps the hooks' inputs, the
conversation the model was sent, and the CLI's exit code and output, with the temporary paths
and the session id replaced by placeholders, in ``recordings/<scenario>.json``;
``test_recorded.py`` replays each through the gemini dialect.

The CLI comes from ``HOOKWIRE_CLIENTS_CACHE`` (default ``~/.cache/hookwire-clients``)
``/gemini``, installed there with npm at ``VERSION`` when missing, as ``nox -s clients`` does.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
OUT = HERE / "recordings"
PACKAGE, VERSION = "@google/gemini-cli", "0.61.0"
CACHE = Path(os.environ.get("HOOKWIRE_CLIENTS_CACHE")
             or Path.home() / ".cache" / "hookwire-clients") / "gemini"

REC = r'''#!{python}
import json, os, sys, time
label = sys.argv[1]
data = sys.stdin.read()
base = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(base, "log.jsonl"), "a") as fh:
    fh.write(json.dumps({{"label": label, "stdin": data, "argv": sys.argv[1:],
                         "cwd": os.getcwd(), "env": dict(os.environ)}}) + "\n")
spec = json.load(open(os.path.join(base, "behaviour.json")))[label]
state = os.path.join(base, "ran-" + label)
if spec.get("once") and os.path.exists(state):
    sys.exit(0)
open(state, "w").close()
time.sleep(spec.get("sleep", 0))
sys.stdout.write(spec.get("stdout", ""))
sys.stderr.write(spec.get("stderr", ""))
sys.exit(spec.get("exit", 0))
'''

SHELL = ("run_shell_command", {"command": "rm -rf build"})
ECHO = ("run_shell_command", {"command": "echo hello"})


def j(obj: Any) -> str:
    return json.dumps(obj)


def hook(label: str, **more: Any) -> dict[str, Any]:
    return {"name": label, "type": "command", "command": f"python3 $GEMINI_PROJECT_DIR/rec.py "
            f"{label}", **more}


def group(*hooks: dict[str, Any], **more: Any) -> dict[str, Any]:
    return {**more, "hooks": list(hooks)}


#: name -> (what it shows, project hooks, behaviour per hook label, model calls, prompt)
SCENARIOS: dict[str, dict[str, Any]] = {
    "before_tool_exit2_blocks": dict(
        about="BeforeTool exit 2: stderr is the reason; the tool does not run",
        hooks={"BeforeTool": [group(hook("guard"), matcher="run_shell_command")]},
        behaviour={"guard": {"stderr": "rm -rf is not allowed\n", "exit": 2}}, calls=[SHELL]),
    "before_tool_json_deny": dict(
        about="BeforeTool decision deny with a reason",
        hooks={"BeforeTool": [group(hook("guard"), matcher="run_shell_command")]},
        behaviour={"guard": {"stdout": j({"decision": "deny", "reason": "denied by policy"})}},
        calls=[SHELL]),
    "before_tool_json_block": dict(
        about="BeforeTool decision block (alias of deny)",
        hooks={"BeforeTool": [group(hook("guard"))]},
        behaviour={"guard": {"stdout": j({"decision": "block", "reason": "blocked"})}},
        calls=[SHELL]),
    "before_tool_deny_without_reason": dict(
        about="BeforeTool deny without a reason",
        hooks={"BeforeTool": [group(hook("guard"))]},
        behaviour={"guard": {"stdout": j({"decision": "deny"})}}, calls=[SHELL]),
    "before_tool_rewrite": dict(
        about="BeforeTool hookSpecificOutput.tool_input merges into the call",
        hooks={"BeforeTool": [group(hook("rewrite"))]},
        behaviour={"rewrite": {"stdout": j({"hookSpecificOutput": {
            "hookEventName": "BeforeTool", "tool_input": {"command": "echo rewritten"}}})}},
        calls=[SHELL]),
    "before_tool_exit1_warns": dict(
        about="BeforeTool exit 1: a warning, the tool runs",
        hooks={"BeforeTool": [group(hook("warn"))]},
        behaviour={"warn": {"stderr": "careful\n", "exit": 1}}, calls=[ECHO]),
    "before_tool_exit3_blocks": dict(
        about="BeforeTool exit 3 with text: blocking, like exit 2",
        hooks={"BeforeTool": [group(hook("guard"))]},
        behaviour={"guard": {"stderr": "exit three\n", "exit": 3}}, calls=[SHELL]),
    "before_tool_exit2_silent": dict(
        about="BeforeTool exit 2 with no output: nothing to block with",
        hooks={"BeforeTool": [group(hook("guard"))]},
        behaviour={"guard": {"exit": 2}}, calls=[ECHO]),
    "before_tool_plain_stdout": dict(
        about="BeforeTool exit 0 with plain text: allowed, the text is a system message",
        hooks={"BeforeTool": [group(hook("chatty"))]},
        behaviour={"chatty": {"stdout": "just saying\n"}}, calls=[ECHO]),
    "before_tool_stderr_json": dict(
        about="BeforeTool exit 0, empty stdout, JSON on stderr: the JSON is read",
        hooks={"BeforeTool": [group(hook("guard"))]},
        behaviour={"guard": {"stderr": j({"decision": "deny", "reason": "from stderr"})}},
        calls=[SHELL]),
    "before_tool_matcher_miss": dict(
        about="BeforeTool matcher is a regex: read_.* does not match run_shell_command",
        hooks={"BeforeTool": [group(hook("guard"), matcher="read_.*"),
                              group(hook("other"), matcher="run_.*")]},
        behaviour={"guard": {"stderr": "no\n", "exit": 2}, "other": {}}, calls=[ECHO]),
    "before_tool_continue_false": dict(
        about="BeforeTool continue false: the agent stops, the model reads why",
        hooks={"BeforeTool": [group(hook("stop"))]},
        behaviour={"stop": {"stdout": j({"continue": False, "stopReason": "halt now"})}},
        calls=[SHELL]),
    "before_tool_timeout": dict(
        about="BeforeTool hook over its timeout (ms): killed, fails open",
        hooks={"BeforeTool": [group(hook("slow", timeout=2000))]},
        behaviour={"slow": {"sleep": 10, "stderr": "late\n", "exit": 2}}, calls=[ECHO]),
    "before_tool_two_deny": dict(
        about="Two BeforeTool hooks deny: reasons joined with a newline",
        hooks={"BeforeTool": [group(hook("one"), hook("two"))]},
        behaviour={"one": {"stdout": j({"decision": "deny", "reason": "first"})},
                   "two": {"stdout": j({"decision": "deny", "reason": "second"})}},
        calls=[SHELL]),
    "before_tool_sequential": dict(
        about="sequential: the second hook sees the first's rewrite",
        hooks={"BeforeTool": [group(hook("first"), hook("second"), sequential=True)]},
        behaviour={"first": {"stdout": j({"hookSpecificOutput": {
            "tool_input": {"command": "echo first"}}})}, "second": {}},
        calls=[SHELL]),
    "before_tool_duplicate": dict(
        about="Identical hooks (same name and command) run once",
        hooks={"BeforeTool": [group(hook("same")), group(hook("same"))]},
        behaviour={"same": {}}, calls=[ECHO]),
    "before_tool_write_file": dict(
        about="write_file payload: tool_input as the model sent it",
        hooks={"BeforeTool": [group(hook("guard"), matcher="write_file|replace")]},
        behaviour={"guard": {"stdout": j({"decision": "deny", "reason": "read only"})}},
        calls=[("write_file", {"file_path": "notes.txt", "content": "hi\n"})]),
    "after_tool_context": dict(
        about="AfterTool additionalContext is appended to the tool result",
        hooks={"AfterTool": [group(hook("ctx"), matcher="run_shell_command")]},
        behaviour={"ctx": {"stdout": j({"hookSpecificOutput": {
            "hookEventName": "AfterTool", "additionalContext": "checked <ok>"}})}},
        calls=[ECHO]),
    "after_tool_deny": dict(
        about="AfterTool deny: the reason replaces the result",
        hooks={"AfterTool": [group(hook("hide"))]},
        behaviour={"hide": {"stdout": j({"decision": "deny", "reason": "output hidden"})}},
        calls=[ECHO]),
    "after_tool_exit2": dict(
        about="AfterTool exit 2: stderr replaces the result",
        hooks={"AfterTool": [group(hook("hide"))]},
        behaviour={"hide": {"stderr": "secret output\n", "exit": 2}}, calls=[ECHO]),
    "before_agent_context": dict(
        about="BeforeAgent additionalContext reaches the model with the prompt",
        hooks={"BeforeAgent": [group(hook("ctx"))]},
        behaviour={"ctx": {"stdout": j({"hookSpecificOutput": {
            "hookEventName": "BeforeAgent", "additionalContext": "the repo is hookwire"}})}},
        calls=[]),
    "before_agent_deny": dict(
        about="BeforeAgent deny: no model request for the turn",
        hooks={"BeforeAgent": [group(hook("gate"))]},
        behaviour={"gate": {"stdout": j({"decision": "deny", "reason": "not today"})}},
        calls=[]),
    "before_agent_exit2": dict(
        about="BeforeAgent exit 2: the turn is blocked with stderr",
        hooks={"BeforeAgent": [group(hook("gate"))]},
        behaviour={"gate": {"stderr": "blocked prompt\n", "exit": 2}}, calls=[]),
    "after_agent_retry": dict(
        about="AfterAgent deny: the reason goes to the model as a new prompt, once",
        hooks={"AfterAgent": [group(hook("check"))]},
        behaviour={"check": {"stdout": j({"decision": "deny", "reason": "say more"}),
                             "once": True}},
        calls=[]),
    "session_start_context": dict(
        about="SessionStart additionalContext in non-interactive mode",
        hooks={"SessionStart": [group(hook("ctx"))]},
        behaviour={"ctx": {"stdout": j({"hookSpecificOutput": {
            "hookEventName": "SessionStart", "additionalContext": "session facts"}})}},
        calls=[]),
    "session_end_payload": dict(
        about="SessionEnd fires on exit with its reason",
        hooks={"SessionEnd": [group(hook("bye"))]},
        behaviour={"bye": {}}, calls=[]),
    "layers_user_then_project": dict(
        about="user settings hooks run before project settings hooks, both as one list",
        hooks={"BeforeTool": [group(hook("project"), sequential=True)]},
        user_hooks={"BeforeTool": [group(hook("user"), sequential=True)]},
        behaviour={"project": {}, "user": {}}, calls=[ECHO]),
    "before_tool_ask": dict(
        about="BeforeTool decision ask under --yolo",
        hooks={"BeforeTool": [group(hook("asker"))]},
        behaviour={"asker": {"stdout": j({"decision": "ask", "reason": "please confirm"})}},
        calls=[ECHO]),
    "before_tool_exit2_json_allow": dict(
        about="BeforeTool exit 2 whose stdout is JSON allow: the JSON wins, no block",
        hooks={"BeforeTool": [group(hook("guard"))]},
        behaviour={"guard": {"stdout": j({"decision": "allow"}), "stderr": "ignored\n",
                             "exit": 2}}, calls=[ECHO]),
    "after_tool_continue_false": dict(
        about="AfterTool continue false: the agent stops",
        hooks={"AfterTool": [group(hook("stop"))]},
        behaviour={"stop": {"stdout": j({"continue": False, "reason": "enough"})}},
        calls=[ECHO]),
    "after_agent_exit2": dict(
        about="AfterAgent exit 2: stderr goes to the model as a new prompt, once",
        hooks={"AfterAgent": [group(hook("check"))]},
        behaviour={"check": {"stderr": "be brief\n", "exit": 2, "once": True}}, calls=[]),
    "disabled_by_name": dict(
        about="hooksConfig.disabled lists a hook by name: it does not run",
        hooks={"BeforeTool": [group(hook("guard"), hook("kept"))]},
        settings={"hooksConfig": {"disabled": ["guard"]}},
        behaviour={"guard": {"stderr": "no\n", "exit": 2}, "kept": {}}, calls=[ECHO]),
    "hooks_disabled": dict(
        about="hooksConfig.enabled false: no hook runs",
        hooks={"BeforeTool": [group(hook("guard"))]},
        settings={"hooksConfig": {"enabled": False}},
        behaviour={"guard": {"stderr": "no\n", "exit": 2}}, calls=[ECHO]),
    "extension_hooks": dict(
        about="an installed extension's hooks/hooks.json runs, ${extensionPath} substituted, "
              "after the settings hooks",
        hooks={"BeforeTool": [group(hook("settings"), sequential=True)]},
        extension={"BeforeTool": [{"hooks": [{"name": "ext", "type": "command",
                                              "command": "python3 ${extensionPath}/../../../"
                                              "../project/rec.py ext"}]}]},
        behaviour={"settings": {}, "ext": {}}, calls=[ECHO]),
    "after_tool_on_error": dict(
        about="AfterTool fires after a tool whose result is an error (read_file of a missing "
              "file), with the error in tool_response",
        hooks={"AfterTool": [group(hook("seen"))]},
        behaviour={"seen": {}}, calls=[("read_file", {"file_path": "missing.txt"})]),
    "session_start_matcher": dict(
        about="SessionStart matchers are exact: resume does not match startup",
        hooks={"SessionStart": [group(hook("resume"), matcher="resume"),
                                group(hook("startup"), matcher="startup")]},
        behaviour={"resume": {}, "startup": {}}, calls=[]),
    "before_tool_allow_reason_joins": dict(
        about="a non-blocking hook's reason joins the blocking one's",
        hooks={"BeforeTool": [group(hook("fine"), hook("bad"), sequential=True)]},
        behaviour={"fine": {"stdout": j({"decision": "allow", "reason": "fine"})},
                   "bad": {"stdout": j({"decision": "deny", "reason": "bad"})}},
        calls=[SHELL]),
}

PROMPT = "Please do the task."
SETTINGS = {
    "security": {"auth": {"selectedType": "gemini-api-key"}, "folderTrust": {"enabled": False}},
    "general": {"disableAutoUpdate": True, "disableUpdateNag": True},
    "privacy": {"usageStatisticsEnabled": False},
    "telemetry": {"enabled": False},
    "ide": {"enabled": False},
}
#: environment variables whose presence in a hook's environment is recorded
ENV_KEYS = ("GEMINI_PROJECT_DIR", "GEMINI_CWD", "GEMINI_SESSION_ID", "GEMINI_PLANS_DIR",
            "CLAUDE_PROJECT_DIR", "HOOKWIRE_PROBE_TOKEN", "GEMINI_API_KEY", "HOME")


def _mockmodel() -> Any:
    path = HERE.parents[1] / "clients" / "mockmodel.py"
    spec = importlib.util.spec_from_file_location("_gemini_record_mockmodel", path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def binary() -> Path:
    exe = CACHE / "node_modules" / ".bin" / "gemini"
    if not exe.exists():
        npm = shutil.which("npm") or sys.exit("npm is needed to install the Gemini CLI")
        CACHE.mkdir(parents=True, exist_ok=True)
        subprocess.run([npm, "install", "--prefix", str(CACHE), "--no-audit", "--no-fund",
                        f"{PACKAGE}@{VERSION}"], check=True)
    installed = json.loads((CACHE / "node_modules" / PACKAGE / "package.json").read_text())
    if installed["version"] != VERSION:
        sys.exit(f"{CACHE} holds {PACKAGE} {installed['version']}, not {VERSION}")
    return exe


class Normal:
    """Replaces the run's temporary paths, session id and timestamps by placeholders."""

    def __init__(self, root: Path) -> None:
        self.subs: list[tuple[str, str]] = [(str(root / "project"), "<project>"),
                                            (str(root / "home"), "<home>"), (str(root), "<tmp>")]

    def session(self, session_id: str) -> None:
        self.subs.insert(0, (session_id, "<session>"))

    def text(self, value: str) -> str:
        for old, new in self.subs:
            value = value.replace(old, new)
        return re.sub(r"\d{4}-\d\d-\d\dT\d\d[:-]\d\d[:-]\d\d(\.\d+Z)?", "<time>", value)

    def obj(self, value: Any) -> Any:
        if isinstance(value, str):
            return self.text(value)
        if isinstance(value, list):
            return [self.obj(v) for v in value]
        if isinstance(value, dict):
            return {k: self.obj(v) for k, v in value.items()}
        return value


def _conversation(body: dict[str, Any]) -> list[dict[str, Any]]:
    """The request's contents without the CLI's own <session_context> text."""
    out = []
    for content in body.get("contents") or []:
        parts = [p for p in content.get("parts") or []
                 if not str(p.get("text", "")).startswith("<session_context>")]
        for p in parts:
            if "functionCall" in p:
                p["functionCall"].pop("id", None)
            if "functionResponse" in p:
                p["functionResponse"].pop("id", None)
            p.pop("thoughtSignature", None)
        out.append({"role": content.get("role"), "parts": parts})
    return out


def record(name: str, scenario: dict[str, Any], exe: Path, mockmodel: Any) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="gemini-rec-") as tmp:
        root = Path(tmp).resolve()
        home, project = root / "home", root / "project"
        (home / ".gemini").mkdir(parents=True)
        (project / ".gemini").mkdir(parents=True)
        (project / "build").mkdir()
        user = {**SETTINGS, **({"hooks": scenario["user_hooks"]}
                               if "user_hooks" in scenario else {})}
        (home / ".gemini" / "settings.json").write_text(json.dumps(user, indent=2))
        (project / ".gemini" / "settings.json").write_text(
            json.dumps({**scenario.get("settings", {}), "hooks": scenario["hooks"]}, indent=2))
        if "extension" in scenario:
            ext = home / ".gemini" / "extensions" / "probe"
            (ext / "hooks").mkdir(parents=True)
            (ext / "gemini-extension.json").write_text(
                json.dumps({"name": "probe", "version": "1.0.0"}))
            (ext / "hooks" / "hooks.json").write_text(
                json.dumps({"hooks": scenario["extension"]}, indent=2))
        rec = project / "rec.py"
        rec.write_text(REC.format(python=sys.executable))
        rec.chmod(0o755)
        (project / "behaviour.json").write_text(json.dumps(scenario["behaviour"]))
        with mockmodel.MockModel(gemini_calls=[tuple(c) for c in scenario["calls"]]) as model:
            env = {k: os.environ[k] for k in ("PATH", "USER", "LOGNAME") if k in os.environ}
            env.update(HOME=str(home), LANG="C.UTF-8", SHELL="/bin/bash", TERM="dumb",
                       NO_COLOR="1", CI="1", TMPDIR=str(root),
                       GEMINI_API_KEY="dummy-key", GOOGLE_GEMINI_BASE_URL=model.url,
                       GEMINI_CLI_NO_RELAUNCH="true", HOOKWIRE_PROBE_TOKEN="probe",
                       HTTP_PROXY=model.url, HTTPS_PROXY=model.url, NO_PROXY="127.0.0.1")
            proc = subprocess.run([str(exe), "-p", PROMPT, "--yolo", "--model",
                                   "gemini-2.5-flash"], cwd=project, env=env,
                                  capture_output=True, text=True, timeout=240,
                                  stdin=subprocess.DEVNULL)
            if model.outside:
                sys.exit(f"{name}: requests for other addresses: {model.outside}")
            requests = [b for _, _, b in model.requests if isinstance(b, dict) and b.get("tools")]
        log = project / "log.jsonl"
        calls = [json.loads(line) for line in log.read_text().splitlines()] if log.exists() \
            else []
        norm = Normal(root)
        for call in calls:
            sid = call["env"].get("GEMINI_SESSION_ID")
            if sid:
                norm.session(sid)
                break
        invocations = []
        for call in calls:
            env_ = call["env"]
            invocations.append({
                "label": call["label"],
                "stdin": norm.obj(json.loads(call["stdin"])),
                "stdin_raw_ends_with_newline": call["stdin"].endswith("\n"),
                "cwd": norm.text(call["cwd"]),
                "env": {k: norm.text(env_[k]) for k in ENV_KEYS if k in env_},
            })
        return {
            "scenario": name, "about": scenario["about"], "harness": f"Gemini CLI {VERSION}",
            "prompt": PROMPT, "calls": scenario["calls"], "hooks": scenario["hooks"],
            "user_hooks": scenario.get("user_hooks"), "settings": scenario.get("settings"),
            "extension": scenario.get("extension"), "behaviour": scenario["behaviour"],
            "invocations": invocations,
            "requests": [norm.obj(_conversation(b)) for b in requests],
            "cli": {"exit": proc.returncode, "stdout": norm.text(proc.stdout),
                    "stderr": norm.text(proc.stderr)[-4000:]},
        }


def main(names: list[str]) -> None:
    exe = binary()
    mockmodel = _mockmodel()
    OUT.mkdir(exist_ok=True)
    for name in names or list(SCENARIOS):
        doc = record(name, SCENARIOS[name], exe, mockmodel)
        (OUT / f"{name}.json").write_text(json.dumps(doc, indent=1, ensure_ascii=False) + "\n")
        print(f"{name}: {len(doc['invocations'])} hook run(s), {len(doc['requests'])} model "
              f"request(s), exit {doc['cli']['exit']}")


if __name__ == "__main__":
    main(sys.argv[1:])
