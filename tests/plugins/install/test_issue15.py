"""Issue #15's defects, each with real processes and real files: installed commands fail open
by construction, copies read by two clients fire once, Codex trust recorded and removed the way
Codex counts it, client homes from the environment, project_dir that does not follow ``cd``,
nothing left behind by uninstall, Cline 3.0.65's events, the proposal's ``$schema``."""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from hookwire.plugins.install import clients, install, uninstall
from hookwire.plugins.install.entry import ENTRY_DIR

SHELL_CLIENTS = ("claude-code", "codex", "cursor", "copilot-cli", "gemini-cli", "windsurf")
EMPTY = {"cursor": "{}\n"}


def commands(home: Path, name: str) -> list[tuple[str, str]]:
    """(native event, command) of every entry installed for ``name`` under ``home``."""
    out = []
    for path in home.rglob("*.json"):
        if ".config/hookwire" in str(path):
            continue
        doc = json.loads(path.read_text())
        for native, items in (doc.get("hooks") or {}).items():
            for item in items:
                for hook in item.get("hooks", [item]):
                    cmd = hook.get("command") or hook.get("bash")
                    if cmd and f"--client {name}" in cmd:
                        out.append((native, cmd))
    return out


def run(cmd: str, payload: dict[str, Any], env: dict[str, str] | None = None,
        cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["sh", "-c", cmd], input=json.dumps(payload), capture_output=True,
                          text=True, timeout=60, env={**os.environ, **(env or {})}, cwd=cwd)


@pytest.mark.parametrize("fast", [True, False], ids=["fast-entry", "shim"])
@pytest.mark.parametrize("name", SHELL_CLIENTS)
def test_a_missing_interpreter_or_hookwire_fails_open(name: str, fast: bool, plugin: Path,
                                                      home: Path, log: Path) -> None:
    prefix = None if fast else (sys.executable, "-m", "hookwire.plugins.install.shim")
    install(name, plugin, home=home, prefix=prefix)
    found = commands(home, name)
    assert found
    for native, cmd in found:
        gone = cmd.replace(shlex.quote(sys.executable), "/nonexistent/venv/bin/python")
        assert gone != cmd
        no_hookwire = (cmd.replace(str(ENTRY_DIR), "/nonexistent/entry")
                       if "hookwire-entry" in cmd
                       else cmd.replace("hookwire.plugins.install.shim", "hookwire_removed"))
        assert no_hookwire != cmd
        for broken, status in ((gone, 127), (no_hookwire, 1)):
            bare = broken.rsplit(" || ", 1)[0]
            assert run(bare, {}).returncode == status  # what the client would have seen
            done = run(broken, {"session_id": "s", "hook_event_name": native})
            assert done.returncode == 0, (native, done.stderr)
            assert done.stdout == EMPTY.get(name, ""), native
    assert not log.exists()


def test_cline_hook_file_fails_open(plugin: Path, home: Path, project: Path) -> None:
    install("cline", plugin, home=home, scope="project", project=project,
            prefix=("/nonexistent/python", "-m", "hookwire.plugins.install.shim"))
    hook = project / ".clinerules" / "hooks" / "PreToolUse"
    done = subprocess.run([str(hook)], input="{}", capture_output=True, text=True, timeout=30)
    assert done.returncode == 0 and json.loads(done.stdout) == {"cancel": False}


def test_claude_copy_skipped_under_clients_that_read_it(plugin: Path, home: Path,
                                                        project: Path, log: Path) -> None:
    for name in ("claude-code", "copilot-cli"):
        install(name, plugin, home=home, scope="project", project=project)
    (_, claude), = [c for c in commands(project, "claude-code") if c[0] == "SessionStart"]
    payload = {"session_id": "s1", "cwd": str(project), "hook_event_name": "SessionStart"}
    run(claude, payload, env={"COPILOT_CLI_VERSION": "1.0.102"})
    assert not log.exists()  # Copilot fires it through its own file
    run(claude, {**payload, "sessionId": "s1"})  # Copilot's camelCase payload
    assert not log.exists()
    run(claude, payload)  # Claude Code itself
    assert len(log.read_text().splitlines()) == 1
    uninstall("copilot-cli", plugin, home=home, scope="project", project=project)
    run(claude, payload, env={"COPILOT_CLI_VERSION": "1.0.102"})  # only the Claude copy now
    assert len(log.read_text().splitlines()) == 2


def test_grok_skips_cursor_and_claude_copies(plugin: Path, home: Path, log: Path) -> None:
    for name in ("claude-code", "cursor", "grok"):
        install(name, plugin, home=home)
    for name in ("claude-code", "cursor"):
        (_, cmd), = [c for c in commands(home, name) if c[0] in ("SessionStart", "sessionStart")]
        run(cmd, {"sessionId": "g", "hookEventName": "SessionStart", "cwd": str(home)})
    assert not log.exists()


def codex_status(home: Path) -> dict[str, str]:
    """Every Codex handler's key → trust status, as hookwire's Codex dialect (which
    reproduces Codex 0.171.0's hashes) reads the user layer."""
    from hookwire.dialects.codex import trust

    states = trust.load_states(home / ".codex" / "config.toml")
    doc = json.loads((home / ".codex" / "hooks.json").read_text())
    from hookwire.dialects.codex import events as cev

    out = {}
    for event, groups in doc["hooks"].items():
        for gi, group in enumerate(groups):
            for hi, h in enumerate(group["hooks"]):
                timeout = h.get("timeout", 600)
                if event in cev.SHORT_TIMEOUT_EVENTS:
                    timeout = min(max(timeout, 1), 3)
                norm = {"command": h["command"], "timeout": timeout, "async": False}
                key = trust.hook_key(str(home / ".codex" / "hooks.json"), event, gi, hi)
                matcher = None if event in cev.MATCHERLESS else group.get("matcher")
                st = trust.status(managed=False, state=states.get(key),
                                  current_hash=trust.hook_hash(event, matcher, norm))
                out[key] = st.value
    return out


def test_codex_trust_recorded_and_removed_exactly(plugin: Path, home: Path) -> None:
    config = home / ".codex" / "config.toml"
    config.parent.mkdir()
    original = b'model = "m"\n\n[features]\nhooks = true\n'
    config.write_bytes(original)
    install("codex", plugin, home=home)
    status = codex_status(home)
    assert len(status) == 6 and set(status.values()) == {"trusted"}
    assert install("codex", plugin, home=home).changed is False  # idempotent
    # the user adds a hook of their own after ours and trusts it in /hooks
    hooks = home / ".codex" / "hooks.json"
    doc = json.loads(hooks.read_text())
    doc["hooks"]["Stop"].append({"hooks": [{"type": "command", "command": "echo mine",
                                            "timeout": 5}]})
    hooks.write_text(json.dumps(doc, indent=2))
    from hookwire.dialects.codex import trust

    key = trust.hook_key(str(hooks), "Stop", 1, 0)
    digest = trust.hook_hash("Stop", None, {"command": "echo mine", "timeout": 5,
                                            "async": False})
    config.write_text(config.read_text() + "\n" + trust.trust_snippet(key, digest))
    uninstall("codex", plugin, home=home)
    assert codex_status(home) == {trust.hook_key(str(hooks), "Stop", 0, 0): "trusted"}
    text = config.read_text()
    assert "hookwire" not in text and text.count("[hooks.state") == 1
    assert text.startswith(original.decode())


def test_codex_uninstall_restores_bytes_and_leaves_no_state_table(plugin: Path,
                                                                   home: Path) -> None:
    install("codex", plugin, home=home)
    config = home / ".codex" / "config.toml"
    config.write_text(config.read_text() + "\n[hooks.state]\n")  # as a trust UI may leave it
    uninstall("codex", plugin, home=home)
    assert not (home / ".codex").exists()


@pytest.mark.parametrize("name,var,where", [
    ("codex", "CODEX_HOME", "hooks.json"),
    ("copilot-cli", "COPILOT_HOME", "hooks/hookwire-acme-recorder.json"),
    ("claude-code", "CLAUDE_CONFIG_DIR", "settings.json"),
])
def test_client_homes_from_the_environment(name: str, var: str, where: str, plugin: Path,
                                           home: Path, tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    custom = tmp_path / "elsewhere"
    monkeypatch.setenv(var, str(custom))
    before = sorted(str(p) for p in tmp_path.rglob("*"))
    install(name, plugin, home=home)
    assert (custom / where).is_file()
    assert not [p for p in home.iterdir() if p.name != ".config"]
    uninstall(name, plugin, home=home)
    assert sorted(str(p) for p in tmp_path.rglob("*")) == before


@pytest.mark.parametrize("fast", [True, False], ids=["fast-entry", "shim"])
def test_project_dir_does_not_follow_cd(fast: bool, plugin: Path, home: Path, project: Path,
                                        log: Path) -> None:
    prefix = None if fast else (sys.executable, "-m", "hookwire.plugins.install.shim")
    install("claude-code", plugin, home=home, prefix=prefix)
    (_, cmd), = [c for c in commands(home, "claude-code") if c[0] == "PreToolUse"]
    sub = project / "src"
    sub.mkdir()
    run(cmd, {"session_id": "s", "cwd": str(sub), "hook_event_name": "PreToolUse",
              "tool_name": "Bash", "tool_input": {"command": "ls"}, "tool_use_id": "t1"},
        env={"CLAUDE_PROJECT_DIR": str(project)}, cwd=sub)
    envelope = json.loads(log.read_text())["payload"]
    assert envelope["cwd"] == str(sub) and envelope["project_dir"] == str(project)


def tree(base: Path) -> list[str]:
    return sorted(str(p.relative_to(base)) for p in base.rglob("*"))


@pytest.mark.parametrize("scope", ["user", "project"])
@pytest.mark.parametrize("name", sorted(clients()))
def test_uninstall_leaves_no_folder(name: str, scope: str, plugin: Path, home: Path,
                                    project: Path, tmp_path: Path) -> None:
    before = tree(tmp_path)
    kw: dict[str, Any] = {"scope": scope, "project": project}
    install(name, plugin, home=home, **kw)
    assert tree(tmp_path) != before
    assert install(name, plugin, home=home, **kw).changed is False
    uninstall(name, plugin, home=home, **kw)
    assert tree(tmp_path) == before


def test_two_plugins_last_uninstall_removes_shared_folders(plugin: Path, home: Path,
                                                          tmp_path: Path) -> None:
    other = tmp_path / "plugins" / "other"
    other.mkdir(parents=True)
    (other / "plugin.json").write_text(json.dumps({"name": "other", "version": "1.0.0"}))
    hooks = json.loads((plugin / "hooks.json").read_text())
    hooks["hooks"] = {"turn-end": [{"command": "true"}]}
    (other / "hooks.json").write_text(json.dumps(hooks))
    before = tree(tmp_path)
    install("cursor", plugin, home=home)
    install("claude-code", other, home=home)
    uninstall("cursor", plugin, home=home)
    uninstall("claude-code", other, home=home)
    assert tree(tmp_path) == before


def test_windsurf_session_markers_removed_on_uninstall(plugin: Path, home: Path,
                                                       tmp_path: Path, log: Path) -> None:
    install("windsurf", plugin, home=home)
    (_, cmd), = [c for c in commands(home, "windsurf") if c[0] == "pre_user_prompt"]
    for trajectory in ("t1", "t2", "t1"):
        run(cmd, {"trajectory_id": trajectory, "tool_info": {"user_prompt": "hi"}})
    starts = [json.loads(ln)["payload"]["event"] for ln in log.read_text().splitlines()]
    assert starts.count("session-start") == 2
    markers = home / ".local" / "share" / "hookwire" / "plugin-data" / "acme-recorder"
    assert len(list((markers / ".hookwire" / "windsurf-sessions").iterdir())) == 2
    uninstall("windsurf", plugin, home=home)
    assert not (markers / ".hookwire").exists()


def test_gemini_entries_have_distinct_names(plugin: Path, home: Path) -> None:
    install("gemini-cli", plugin, home=home)
    doc = json.loads((home / ".gemini" / "settings.json").read_text())
    names = [h["name"] for groups in doc["hooks"].values() for g in groups for h in g["hooks"]]
    assert len(names) == len(set(names)) == 6


@pytest.mark.parametrize("fast", [True, False], ids=["fast-entry", "shim"])
def test_cursor_before_submit_prompt_prints_documented_keys_only(fast: bool, plugin: Path,
                                                                 home: Path) -> None:
    prefix = None if fast else (sys.executable, "-m", "hookwire.plugins.install.shim")
    install("cursor", plugin, home=home, prefix=prefix)
    (_, cmd), = [c for c in commands(home, "cursor") if c[0] == "beforeSubmitPrompt"]
    done = run(cmd, {"conversation_id": "c", "prompt": "hi", "workspace_roots": [str(home)]})
    assert set(json.loads(done.stdout)) <= {"continue", "user_message"}


def test_the_proposals_example_schema_is_accepted(plugin: Path, home: Path) -> None:
    doc = json.loads((plugin / "hooks.json").read_text())
    doc["$schema"] = "https://agent-plugins.org/schemas/1.1.0/hooks.schema.json"
    (plugin / "hooks.json").write_text(json.dumps(doc))
    result = install("claude-code", plugin, home=home)
    assert result.changed


CLINE_BASE = {"clineVersion": "3.0.65", "taskId": "task-1", "workspaceRoots": [],
              "userId": "u", "agent_id": "a"}


def test_cline_3_0_65_events(plugin: Path, home: Path, project: Path, log: Path) -> None:
    install("cline", plugin, home=home, scope="project", project=project)
    hooks = project / ".clinerules" / "hooks"
    assert sorted(p.name for p in hooks.iterdir()) == sorted([
        "TaskStart", "TaskResume", "UserPromptSubmit", "PreToolUse", "PostToolUse",
        "TaskComplete", "TaskError", "TaskCancel", "SessionShutdown"])
    base = {**CLINE_BASE, "workspaceRoots": [str(project)]}

    def fire(name: str, **extra: Any) -> None:
        done = subprocess.run([str(hooks / name)], input=json.dumps({**base, **extra}),
                              capture_output=True, text=True, timeout=60)
        assert json.loads(done.stdout)["cancel"] is False

    for _ in range(2):  # two runs of one task
        fire("TaskStart", hookName="agent_start", taskStart={"taskMetadata": {}})
        fire("UserPromptSubmit", hookName="prompt_submit",
             userPromptSubmit={"prompt": "list", "attachments": []})
        fire("PreToolUse", hookName="tool_call",
             tool_call={"id": "call_1", "name": "run_commands",
                        "input": {"commands": ["ls"], "timeout": 5}},
             preToolUse={"toolName": "run_commands",
                         "parameters": {"commands": '["ls"]', "timeout": "5"}})
        fire("TaskComplete", hookName="agent_end", turn={"outputText": "done",
                                                         "status": "completed"})
    fire("SessionShutdown", hookName="session_shutdown", reason="exit")
    got = [json.loads(ln)["payload"] for ln in log.read_text().splitlines()]
    assert [p["event"] for p in got] == [
        "session-start", "turn-start", "pre-tool-use", "turn-end",
        "turn-start", "pre-tool-use", "turn-end", "session-end"]
    pre = got[2]
    assert pre["tool"] == {"name": "run_commands", "use_id": "call_1",
                           "input": {"commands": ["ls"], "timeout": 5}}
    assert got[3]["last_assistant_message"] == "done"
    uninstall("cline", plugin, home=home, scope="project", project=project)
    assert not (project / ".clinerules").exists()


@pytest.mark.parametrize("name,where", [("opencode", ".config/opencode/plugins"),
                                        ("kilo", ".config/kilo/plugin"),
                                        ("pi", ".pi/agent/extensions")])
def test_one_bridge_for_every_plugin(name: str, where: str, plugin: Path, home: Path,
                                     tmp_path: Path, log: Path) -> None:
    other = tmp_path / "plugins" / "other"
    import shutil

    shutil.copytree(plugin, other)
    (other / "plugin.json").write_text(json.dumps({"name": "other", "version": "1.0.0"}))
    before = tree(tmp_path)
    install(name, plugin, home=home)
    bridge = home / where / "hookwire-bridge.ts"
    first = bridge.read_bytes()
    assert install(name, other, home=home).changed is False  # the same bridge serves both
    assert sorted(p.name for p in bridge.parent.iterdir()) == ["hookwire-bridge.ts"]
    assert b"acme-recorder" not in first and str(plugin).encode() not in first
    # what the bridge runs for an event: the shim with every installed plugin
    native = "session_start" if name == "pi" else "session.created"
    roots = [json.loads(p.read_text())["root"] for p in
             (home / ".config" / "hookwire" / "installs" / name / "user").glob("*.json")
             if not p.name.endswith(".entry.json")]
    argv = [sys.executable, "-m", "hookwire.plugins.install.shim", "--client", name,
            "--event", native]
    for root in roots:
        argv += ["--plugin", root]
    subprocess.run(argv, input=json.dumps({"session_id": "s", "cwd": str(home),
                                           "project_dir": str(home)}),
                   text=True, timeout=60, check=True)
    assert [json.loads(ln)["payload"]["event"] for ln in log.read_text().splitlines()] == [
        "session-start", "session-start"]
    uninstall(name, plugin, home=home)
    assert bridge.read_bytes() == first  # still used by the other plugin
    uninstall(name, other, home=home)
    ran = ("home/.local", log.name)  # what the run itself made (PLUGIN_DATA, the log)
    assert [p for p in tree(tmp_path) if not p.startswith(ran)] == before


def test_kiro_hook_file(plugin: Path, home: Path, project: Path) -> None:
    install("kiro", plugin, home=home, scope="project", project=project)
    doc = json.loads((project / ".kiro" / "hooks" / "hookwire-acme-recorder.json").read_text())
    assert doc["version"] == "v1"
    assert [h["trigger"] for h in doc["hooks"]] == ["AgentSpawn", "UserPromptSubmit",
                                                    "PreToolUse", "PostToolUse", "Stop"]
    hook = next(h for h in doc["hooks"] if h["trigger"] == "UserPromptSubmit")
    done = run(hook["action"]["command"], {"hook_event_name": "userPromptSubmit",
                                           "cwd": str(project), "prompt": "hi"})
    assert done.returncode == 0 and done.stdout == "remember the plugin\n"


BRIDGE_RECORDER = """import json, sys, time
args = sys.argv[1:]
event = args[args.index("--event") + 1]
payload = json.loads(sys.stdin.read())
if event in ("session.created", "agent_end"):
    time.sleep(0.3)  # a slow session-start: a turn-start not waiting for it would log first
with open(sys.argv[1], "a") as fh:
    fh.write(json.dumps([event, payload["session_id"]]) + "\\n")
"""

BRIDGE_DRIVER = """import { HookwireBridge } from %s;
const hooks = await HookwireBridge({ directory: "/tmp" });
const created = (id) => hooks.event({ event: { type: "session.created",
                                                properties: { info: { id } } } });
const message = (id, m) => hooks["chat.message"]({ sessionID: id, messageID: m },
                                                 { parts: [{ type: "text", text: "hi" }] });
// chat.message first, session.created on the event bus while its hook runs
await Promise.all([message("s1", "m1"), created("s1")]);
// session.created first, chat.message while the session-start hook still runs
await Promise.all([created("s2"), message("s2", "m2")]);
await message("s2", "m3");
// no session.created at all
await message("s3", "m4");
"""


@pytest.mark.parametrize("name", ["opencode", "kilo"])
def test_bridge_fires_session_start_once_before_the_first_turn(name: str, tmp_path: Path,
                                                               strip_types: Any) -> None:
    """session.created (event bus, unawaited) and chat.message (a hook) race in OpenCode: the
    bridge fires session-start once per session, before its first turn-start, whichever
    arrives first, and synthesises it when session.created never comes."""
    import shutil

    from hookwire.plugins.install.bridge import render

    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    events = tmp_path / "events.jsonl"
    recorder = tmp_path / "recorder.py"
    recorder.write_text(BRIDGE_RECORDER)
    receipts = tmp_path / "receipts"
    receipts.mkdir()
    (receipts / "p.json").write_text(json.dumps({"root": str(tmp_path / "plugin")}))
    ts = render(clients()[name], (sys.executable, str(recorder), str(events)),
                str(receipts)).decode()
    module = tmp_path / "bridge.mjs"
    module.write_text(strip_types(ts))
    driver = tmp_path / "driver.mjs"
    driver.write_text(BRIDGE_DRIVER % json.dumps(module.as_uri()))
    done = subprocess.run([node, str(driver)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    got = [tuple(json.loads(ln)) for ln in events.read_text().splitlines()]
    assert got == [("session.created", "s1"), ("chat.message", "s1"),
                   ("session.created", "s2"), ("chat.message", "s2"), ("chat.message", "s2"),
                   ("session.created", "s3"), ("chat.message", "s3")]


PI_DRIVER = """import bridge from %s;
const on = {};
bridge({ on: (name, handler) => { on[name] = handler; } });
await on.session_start({}, { sessionManager: { getSessionId: () => "s1" } });
// 'pi -p' emits session_shutdown while agent_end's handlers still run
await Promise.all([on.agent_end({}), on.session_shutdown({})]);
"""


def test_pi_bridge_fires_events_in_the_order_pi_emits_them(tmp_path: Path,
                                                           strip_types: Any) -> None:
    import shutil

    from hookwire.plugins.install.bridge import render

    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    events = tmp_path / "events.jsonl"
    recorder = tmp_path / "recorder.py"
    recorder.write_text(BRIDGE_RECORDER)
    receipts = tmp_path / "receipts"
    receipts.mkdir()
    (receipts / "p.json").write_text(json.dumps({"root": str(tmp_path / "plugin")}))
    ts = render(clients()["pi"], (sys.executable, str(recorder), str(events)),
                str(receipts)).decode()
    module = tmp_path / "bridge.mjs"
    module.write_text(strip_types(ts))
    driver = tmp_path / "driver.mjs"
    driver.write_text(PI_DRIVER % json.dumps(module.as_uri()))
    done = subprocess.run([node, str(driver)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    got = [json.loads(ln)[0] for ln in events.read_text().splitlines()]
    assert got == ["session_start", "agent_end", "session_shutdown"]
