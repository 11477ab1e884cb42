"""``hookwire install`` into the real client CLIs, each run offline against the scripted model
of ``mockmodel.py`` on 127.0.0.1 (issue #15, item 4; ``nox -s clients``).

Per client, in a temporary HOME and project: the client's config points at the scripted model
and holds a hook of the user's own; ``hookwire install`` (twice: idempotent) wires a portable
plugin whose handlers log all six events; ``hookwire uninstall`` gives back every byte and
leaves no path behind; then, installed again, the client runs one prompt non-interactively
(the model calls its shell tool once with ``echo hi``, then answers) and the test checks which
portable events fired, in which order, that the user's hook still ran, and that the final
uninstall again removes every path the install added and restores the files it changed.

The client processes get a proxy pointing at the scripted model, which refuses and records
any request for another address (``MockModel.outside``): the runs must not contact any.
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

mockmodel = sys.modules["_hookwire_clients_mockmodel"]

CACHE = Path(os.environ.get("HOOKWIRE_CLIENTS_CACHE")
             or Path.home() / ".cache" / "hookwire-clients")
EVENTS = ("session-start", "turn-start", "pre-tool-use", "post-tool-use", "turn-end",
          "session-end")
PROMPT = "Run the shell command `echo hi` and tell me what it printed."
#: the cache's folder per client, where it is not the --client name
CACHE_NAMES = {"gemini-cli": "gemini", "copilot-cli": "copilot"}
RUN_TIMEOUT = 240  # seconds for one client process (a hang fails; nothing is timed)
DETACHED_WAIT = 20  # seconds for the hooks a client leaves running when it exits

RECORDER = """#!{python}
import json, os, sys
payload = json.loads(sys.stdin.read())
with open(os.environ["HOOKWIRE_TEST_LOG"], "a") as fh:
    fh.write(json.dumps({{"event": payload["event"], "native": payload["client"]["event"],
                         "client": payload["client"]["name"],
                         "tool": (payload.get("tool") or {{}}).get("name")}}) + "\\n")
if payload["event"] in os.environ.get("HOOKWIRE_TEST_CONTEXT", "").split(","):
    print(json.dumps({{"context": "hookwire-context-" + payload["event"]}}))
"""


@dataclass
class Run:
    """One client's setup: where it lives, how it is pointed at the model, how it runs."""

    name: str  #: hookwire's --client
    package: str
    version: str
    binary: str
    #: (home, project, model url, user-hook command) -> extra environment; writes the config
    setup: Callable[[Path, Path, str, str], dict[str, str]]
    argv: Callable[[Path, Path], list[str]]
    #: the portable events this client fires for the scripted exchange, in order
    expected: tuple[str, ...] = EVENTS
    #: expected events the client may end the process before (not asserted, reported)
    racy: tuple[str, ...] = ()
    #: requests for other addresses the client makes by itself, refused by the proxy
    refused: tuple[str, ...] = ()
    #: expected events the client runs in a detached process it does not wait for: the test
    #: waits for them (up to DETACHED_WAIT seconds) after the client exits
    detached: tuple[str, ...] = ()
    #: the events whose context result docs/install.md says reach the model ("context results
    #: on"): their handler answers with a marker that must appear in a later model request
    context: tuple[str, ...] = ()


# -- per client -----------------------------------------------------------------------------

def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def _claude_setup(home: Path, project: Path, url: str, user_hook: str) -> dict[str, str]:
    settings = {"hooks": {"UserPromptSubmit": [
        {"hooks": [{"type": "command", "command": user_hook}]}]}}
    _write(home / ".claude" / "settings.json", json.dumps(settings, indent=2) + "\n")
    return {"ANTHROPIC_BASE_URL": url, "ANTHROPIC_API_KEY": "sk-ant-dummy",
            "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1", "DISABLE_AUTOUPDATER": "1",
            "DISABLE_TELEMETRY": "1", "DISABLE_ERROR_REPORTING": "1",
            "DISABLE_BUG_COMMAND": "1", "CLAUDE_CODE_DISABLE_FEEDBACK_SURVEY": "1"}


def _codex_setup(home: Path, project: Path, url: str, user_hook: str) -> dict[str, str]:
    from hookwire.dialects.codex import trust

    codex_home = home / ".codex"
    hooks_json = codex_home / "hooks.json"
    _write(hooks_json, json.dumps({"hooks": {"UserPromptSubmit": [
        {"hooks": [{"type": "command", "command": user_hook}]}]}}, indent=2) + "\n")
    # the user trusted their hook (what Codex's /hooks writes)
    key = trust.hook_key(str(hooks_json), "UserPromptSubmit", 0, 0)
    digest = trust.hook_hash("UserPromptSubmit", None,
                             {"command": user_hook, "timeout": 600, "async": False})
    _write(codex_home / "config.toml", textwrap.dedent(f"""\
        model = "mock-model"
        model_provider = "mock"
        approval_policy = "never"
        sandbox_mode = "danger-full-access"
        check_for_update_on_startup = false

        [analytics]
        enabled = false

        [feedback]
        enabled = false

        # no plugin marketplace sync (github.com), apps or model discovery (chatgpt.com)
        [features]
        plugins = false
        remote_plugin = false
        plugin_sharing = false
        apps = false
        tool_suggest = false
        api_key_model_discovery = false
        in_app_updates = false

        [model_providers.mock]
        name = "mock"
        base_url = "{url}/v1"
        wire_api = "responses"
        request_max_retries = 0
        stream_max_retries = 0

        [hooks.state."{key}"]
        trusted_hash = "{digest}"
        """))
    return {"CODEX_HOME": str(codex_home)}


def _gemini_setup(home: Path, project: Path, url: str, user_hook: str) -> dict[str, str]:
    settings = {
        "security": {"auth": {"selectedType": "gemini-api-key"},
                     "folderTrust": {"enabled": False}},
        "general": {"disableAutoUpdate": True, "disableUpdateNag": True},
        "privacy": {"usageStatisticsEnabled": False},
        "telemetry": {"enabled": False},
        "ide": {"enabled": False},
        "hooks": {"BeforeAgent": [{"hooks": [{"name": "my-own-hook", "type": "command",
                                              "command": user_hook}]}]},
    }
    _write(home / ".gemini" / "settings.json", json.dumps(settings, indent=2) + "\n")
    return {"GEMINI_API_KEY": "dummy-key", "GOOGLE_GEMINI_BASE_URL": url,
            "GEMINI_CLI_NO_RELAUNCH": "true"}


def _copilot_setup(home: Path, project: Path, url: str, user_hook: str) -> dict[str, str]:
    _write(home / ".copilot" / "hooks" / "my-own.json", json.dumps({"version": 1, "hooks": {
        "userPromptSubmitted": [{"type": "command", "bash": user_hook}]}}, indent=2) + "\n")
    return {"COPILOT_OFFLINE": "true", "COPILOT_PROVIDER_BASE_URL": f"{url}/v1",
            "COPILOT_PROVIDER_TYPE": "openai", "COPILOT_PROVIDER_API_KEY": "dummy-key",
            "COPILOT_MODEL": "gpt-4.1", "COPILOT_AUTO_UPDATE": "false",
            "COPILOT_HOME": str(home / ".copilot")}


OPENCODE_USER_PLUGIN = """import {{ appendFileSync }} from "node:fs";
export const MyOwn = async () => ({{
  "chat.message": async () => {{ appendFileSync({log}, "user-hook\\n"); }},
}});
"""


def _opencode_setup(home: Path, project: Path, url: str, user_hook: str) -> dict[str, str]:
    config = home / ".config" / "opencode"
    _write(config / "opencode.json", json.dumps({
        "$schema": "https://opencode.ai/config.json",
        "provider": {"mock": {"npm": "@ai-sdk/openai-compatible", "name": "Mock",
                              "options": {"baseURL": f"{url}/v1", "apiKey": "dummy-key"},
                              "models": {"mock-model": {"name": "Mock", "tool_call": True}}}},
        "model": "mock/mock-model", "small_model": "mock/mock-model",
        "autoupdate": False, "share": "disabled", "permission": {"bash": "allow"},
    }, indent=2) + "\n")
    log = user_hook.rsplit(">> ", 1)[1]
    _write(config / "plugins" / "my-own.js",
           OPENCODE_USER_PLUGIN.format(log=json.dumps(shlex.split(log)[0])))
    return {"OPENCODE_DISABLE_AUTOUPDATE": "1", "OPENCODE_DISABLE_MODELS_FETCH": "1",
            "OPENCODE_DISABLE_LSP_DOWNLOAD": "1", "OPENCODE_DISABLE_SHARE": "1",
            "OPENCODE_DISABLE_DEFAULT_PLUGINS": "1"}


def _cline_setup(home: Path, project: Path, url: str, user_hook: str) -> dict[str, str]:
    settings = home / ".cline" / "data" / "settings"
    # what `cline auth -p openai-compatible -k KEY -m MODEL -b URL` writes
    _write(settings / "providers.json", json.dumps({
        "version": 1, "lastUsedProvider": "openai-compatible", "modes": {},
        "providers": {"openai-compatible": {
            "settings": {"provider": "openai-compatible", "apiKey": "dummy-key",
                         "model": "mock-model", "baseUrl": f"{url}/v1"},
            "updatedAt": "2026-01-01T00:00:00.000Z", "tokenSource": "manual"}}},
        indent=2) + "\n")
    _write(settings / "global-settings.json", json.dumps(
        {"telemetryOptOut": True, "autoUpdateEnabled": False}, indent=2) + "\n")
    # the user's own hook for the same event as one of hookwire's, in the CLI's hooks folder
    # (~/.cline/hooks; hookwire writes ~/Documents/Cline/Hooks: Cline runs the files of both)
    hook = home / ".cline" / "hooks" / "PreToolUse"
    _write(hook, f"#!/bin/sh\ncat >/dev/null\n{user_hook}\necho '{{\"cancel\": false}}'\n")
    hook.chmod(0o755)
    # no background hub daemon (it outlives the run): sessions in-process
    return {"CLINE_NO_AUTO_UPDATE": "1", "CLINE_SESSION_BACKEND_MODE": "local"}


PI_USER_EXTENSION = """import {{ appendFileSync }} from "node:fs";
export default function (pi: any) {{
  pi.on("before_agent_start", async () => {{ appendFileSync({log}, "user-hook\\n"); }});
}}
"""


def _pi_setup(home: Path, project: Path, url: str, user_hook: str) -> dict[str, str]:
    agent = home / ".pi" / "agent"
    _write(agent / "models.json", json.dumps({"providers": {"mock": {
        "baseUrl": f"{url}/v1", "api": "openai-completions", "apiKey": "dummy-key",
        "compat": {"supportsDeveloperRole": False, "supportsReasoningEffort": False},
        "models": [{"id": "mock-model"}]}}}, indent=2) + "\n")
    _write(agent / "settings.json", json.dumps({"enableInstallTelemetry": False}, indent=2)
           + "\n")
    log = user_hook.rsplit(">> ", 1)[1]
    _write(agent / "extensions" / "my-own.ts",
           PI_USER_EXTENSION.format(log=json.dumps(shlex.split(log)[0])))
    # no update, package or telemetry requests at startup
    return {"PI_OFFLINE": "1", "PI_SKIP_VERSION_CHECK": "1", "PI_TELEMETRY": "0"}


RUNS = {
    "claude-code": Run(
        "claude-code", "@anthropic-ai/claude-code", "2.1.332", "claude", _claude_setup,
        lambda home, project: ["-p", PROMPT, "--allowedTools", "Bash",
                               "--output-format", "text"],
        context=("session-start", "turn-start", "pre-tool-use", "post-tool-use")),
    "codex": Run(
        "codex", "@openai/codex", "0.171.0", "codex", _codex_setup,
        lambda home, project: ["exec", "--skip-git-repo-check", PROMPT],
        context=("session-start", "turn-start", "post-tool-use")),
    "gemini-cli": Run(
        "gemini-cli", "@google/gemini-cli", "0.61.0", "gemini", _gemini_setup,
        lambda home, project: ["-p", PROMPT, "--yolo", "--model", "gemini-2.5-flash"],
        context=("session-start", "turn-start", "post-tool-use")),
    "copilot-cli": Run(
        "copilot-cli", "@github/copilot", "1.0.102", "copilot", _copilot_setup,
        lambda home, project: ["-p", PROMPT, "--allow-all-tools", "--no-auto-update"]),
    "opencode": Run(
        "opencode", "opencode-ai", "1.18.33", "opencode", _opencode_setup,
        lambda home, project: ["run", PROMPT],
        # `opencode run` ends without deleting its session: no session.deleted; it may exit
        # before its session.idle reaches the plugins
        # (session.created, on the event bus, races chat.message: the bridge fires
        # session-start once, before the first turn-start, so the order is checked)
        expected=EVENTS[:5], racy=("turn-end",),
        # OpenCode's own background `npm install` of its config folder (any plugin there)
        refused=("CONNECT registry.npmjs.org:443",)),
    "cline": Run(
        "cline", "cline", "3.0.65", "cline", _cline_setup,
        lambda home, project: [PROMPT],
        # `cline PROMPT` dispatches no UserPromptSubmit for the run's own prompt (only for a
        # user message added later) and no SessionShutdown
        expected=("session-start", "pre-tool-use", "post-tool-use", "turn-end"),
        # TaskComplete hooks are spawned detached and not awaited (detachAsyncHooks)
        detached=("turn-end",),
        # a TaskStart context result never reached the model in 3.0.65; PostToolUse's did
        context=("post-tool-use",),
        # the PostHog feature-flag poll (data.cline.bot), made whatever telemetryOptOut says
        refused=("CONNECT data.cline.bot:443",)),
    # 0.73.1: the last release under this name; its successor (@earendil-works/pi-coding-agent
    # 1.x) needs Node >= 22.19
    "pi": Run(
        "pi", "@mariozechner/pi-coding-agent", "0.73.1", "pi", _pi_setup,
        lambda home, project: ["-p", PROMPT, "--provider", "mock", "--model", "mock-model"]),
}


# -- helpers --------------------------------------------------------------------------------

def client_binary(run: Run) -> Path:
    """The client CLI at its pinned version: from the cache, else ``npm install --prefix``."""
    prefix = CACHE / CACHE_NAMES.get(run.name, run.name)
    binary = prefix / "node_modules" / ".bin" / run.binary
    if not binary.exists():
        npm = shutil.which("npm")
        if npm is None:
            pytest.skip(f"{run.name}: not in {CACHE} and npm is not installed")
        prefix.mkdir(parents=True, exist_ok=True)
        proc = subprocess.run([npm, "install", "--prefix", str(prefix), "--no-audit",
                               "--no-fund", f"{run.package}@{run.version}"],
                              capture_output=True, text=True, timeout=1800)
        if proc.returncode != 0 or not binary.exists():
            pytest.skip(f"{run.name}: npm install {run.package}@{run.version} failed: "
                        f"{proc.stderr[-2000:]}")
    installed = json.loads((prefix / "node_modules" / run.package / "package.json").read_text())
    assert installed["version"] == run.version, f"{run.name}: cache has {installed['version']}"
    return binary


def snapshot(*roots: Path) -> dict[str, bytes | None]:
    """Every path under ``roots``: a file's bytes (a link's target), ``None`` for a folder."""
    out: dict[str, bytes | None] = {}
    for root in roots:
        for dirpath, dirnames, filenames in os.walk(root):
            for d in dirnames:
                p = Path(dirpath, d)
                out[str(p)] = os.readlink(p).encode() if p.is_symlink() else None
            for f in filenames:
                p = Path(dirpath, f)
                out[str(p)] = os.readlink(p).encode() if p.is_symlink() else p.read_bytes()
    return out


def hookwire(verb: str, name: str, plugin: Path, env: Mapping[str, str]) -> str:
    proc = subprocess.run([sys.executable, "-m", "hookwire", verb, "--client", name,
                           str(plugin)], capture_output=True, text=True, env=dict(env),
                          timeout=120)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def make_plugin(root: Path, log: Path, context: tuple[str, ...] = ()) -> Path:
    (root / "bin").mkdir(parents=True)
    rec = root / "bin" / "rec"
    rec.write_text(RECORDER.format(python=sys.executable))
    rec.chmod(0o755)
    (root / "plugin.json").write_text(json.dumps({"name": "six-events", "version": "1.0.0"}))
    env = {"HOOKWIRE_TEST_LOG": str(log), "HOOKWIRE_TEST_CONTEXT": ",".join(context)}
    hooks = {e: [{"command": "./bin/rec", "env": env,
                  **({"result": "context"} if e in context else {})}] for e in EVENTS}
    (root / "hooks.json").write_text(json.dumps({
        "$schema": "https://hookwire.dev/schemas/portable-hooks/0.1.0/hooks.schema.json",
        "hooks": hooks}, indent=2))
    return root


def base_env(home: Path, url: str) -> dict[str, str]:
    """A clean environment: HOME and the XDG folders inside the temporary home, the proxy of
    every kind at the scripted model (which refuses any other address)."""
    env = {k: os.environ[k] for k in ("PATH", "USER", "LOGNAME", "TERM") if k in os.environ}
    env.update(HOME=str(home), LANG="C.UTF-8", SHELL="/bin/bash", TMPDIR=str(home / "tmp"),
               NO_COLOR="1", CI="1")
    for var in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy",
                "all_proxy"):
        env[var] = url
    env["NO_PROXY"] = env["no_proxy"] = "127.0.0.1,localhost"
    (home / "tmp").mkdir()
    return env


def fired(log: Path) -> list[dict[str, Any]]:
    if not log.exists():
        return []
    return [json.loads(line) for line in log.read_text().splitlines() if line]


# -- the test -------------------------------------------------------------------------------

@pytest.mark.parametrize("name", list(RUNS))
def test_real_client(name: str, tmp_path: Path, model: Any) -> None:
    run = RUNS[name]
    binary = client_binary(run)
    home, project = tmp_path / "home", tmp_path / "project"
    home.mkdir()
    project.mkdir()
    log, user_log = tmp_path / "events.jsonl", tmp_path / "user-hook.log"
    plugin = make_plugin(tmp_path / "plugin", log, run.context)
    user_hook = f"echo user-hook >> {shlex.quote(str(user_log))}"

    env = base_env(home, model.url)
    env.update(run.setup(home, project, model.url, user_hook))
    before = snapshot(home, project)

    # install twice: the second changes nothing
    hookwire("install", name, plugin, env)
    installed = snapshot(home, project)
    assert installed != before
    hookwire("install", name, plugin, env)
    assert snapshot(home, project) == installed, "a second install changed files"
    # uninstall: every byte back, no path left behind
    hookwire("uninstall", name, plugin, env)
    after = snapshot(home, project)
    assert sorted(after.keys() - before.keys()) == [], "paths left behind"
    assert sorted(before.keys() - after.keys()) == [], "paths removed"
    assert [p for p in before if before[p] != after[p]] == [], "files not restored"

    # the real run
    hookwire("install", name, plugin, env)
    again = snapshot(home, project)  # the receipt records when: only the client files compare
    assert again.keys() == installed.keys()
    assert {p: b for p, b in again.items() if "/.config/hookwire/" not in p} == {
        p: b for p, b in installed.items() if "/.config/hookwire/" not in p}
    proc = subprocess.run([str(binary), *run.argv(home, project)], cwd=project, env=env,
                          capture_output=True, text=True, timeout=RUN_TIMEOUT,
                          stdin=subprocess.DEVNULL)
    report = (f"{name} exit {proc.returncode}\nstdout: {proc.stdout[-3000:]}\n"
              f"stderr: {proc.stderr[-3000:]}\nrequests: "
              f"{[(m, p) for m, p, _ in model.requests]}\noutside: {model.outside}")
    deadline = time.monotonic() + DETACHED_WAIT
    while run.detached and time.monotonic() < deadline and not set(run.detached) <= {
            e["event"] for e in fired(log)}:
        time.sleep(0.2)
    events = fired(log)
    sequence = [e["event"] for e in events]
    print(f"\n{name} {run.version}: fired {sorted(set(sequence), key=EVENTS.index)} "
          f"({len(set(sequence))}/6) in order {sequence}; native "
          f"{[e['native'] for e in events]}; user hook ran "
          f"{user_log.read_text().count('user-hook') if user_log.exists() else 0}x; "
          f"outside requests {model.outside}")
    assert proc.returncode == 0, report
    assert model.tool_calls >= 1, report
    assert mockmodel.FINAL in proc.stdout, report
    assert [o for o in model.outside if o not in run.refused] == [], report
    assert {e["client"] for e in events} == {name}, events
    assert sorted(e for e in sequence if e not in run.racy) == sorted(
        e for e in run.expected if e not in run.racy), report
    assert len(sequence) == len(set(sequence)), report  # each event once
    assert sequence == [e for e in run.expected if e in sequence], report
    assert user_log.exists() and "user-hook" in user_log.read_text(), report
    assert [e["tool"] for e in events if e["event"] == "pre-tool-use"] != [None]
    # every context result the docs say reaches the model is in a request the model got
    sent = json.dumps([body for _, _, body in model.requests])
    print(f"{name}: context reached the model for "
          f"{[e for e in run.context if f'hookwire-context-{e}' in sent]} of {run.context}")
    assert [e for e in run.context if e in sequence and f"hookwire-context-{e}" not in sent
            ] == [], report

    # uninstall after the run: the client's own files stay, hookwire's go, its edits revert
    ran = snapshot(home, project)
    hookwire("uninstall", name, plugin, env)
    final = snapshot(home, project)
    added = installed.keys() - before.keys()
    assert sorted(added & final.keys()) == [], "hookwire paths left after the run"
    assert sorted(final.keys() - ran.keys()) == [], "uninstall created paths"
    changed = [p for p in before if p in installed and installed[p] != before[p]]
    for p in changed:
        if ran.get(p) == installed[p]:  # the client did not edit it: byte-exact
            assert final.get(p) == before[p], f"{p} not restored"
        else:
            assert b"hookwire" not in (final.get(p) or b""), f"{p} keeps hookwire entries"


# -- Codex's own view of its hooks ----------------------------------------------------------

_MCP = '{"type": "mcp_tool", "server": "s", "tool": "t"%s}'
#: command and mcp_tool hooks, numbers written as a person might (its hashes: test below)
CODEX_HOOKS_JSON = (
    '{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": ['
    '{"type": "command", "command": "echo é", "timeout": 5, "statusMessage": "checking"}, '
    + _MCP % ', "input": {"cmd": "${tool_input.command}", "n": 1.50, "e": 1E3, "z": -0}'
    + "]}],\n"
    '"PostToolUse": [{"hooks": [{"type": "command", "command": "true", "async": true, '
    '"additionalContextLimit": 100}, ' + _MCP % "" + "]}],\n"
    '"Stop": [{"matcher": "dropped", "hooks": [' + _MCP % ', "timeout": 0, "statusMessage": ""'
    + ', {"type": "command", "command": "s", "additionalContextLimit": 9}]}],\n'
    # warned about: a skipped handler of each kind, a clamped timeout, an async SessionEnd,
    # a bad matcher (and, above, a Stop hook's additionalContextLimit)
    '"SessionEnd": [{"hooks": [' + _MCP % "" + ', {"type": "prompt", "prompt": "p"}, '
    '{"type": "command", "command": "true", "timeout": 10, "async": true}, '
    '{"type": "command", "command": " "}]}],\n'
    '"PermissionRequest": [{"matcher": "(", "hooks": [{"type": "command", "command": "x"}]}]'
    "}}\n")
CODEX_CONFIG_HOOKS = """
[[hooks.UserPromptSubmit]]
[[hooks.UserPromptSubmit.hooks]]
type = "mcp_tool"
server = "s"
tool = "t"
input = { f = 1e16, g = 0.00001, i = 7, l = [1, 2.5, "x"] }
"""


def _codex_hooks_list(binary: Path, env: Mapping[str, str], project: Path) -> dict[str, Any]:
    """``hooks/list`` of ``codex app-server`` for ``project`` (JSON-RPC over stdio)."""
    messages = [{"method": "initialize", "id": 1,
                 "params": {"clientInfo": {"name": "hookwire-test", "version": "0"}}},
                {"method": "initialized"},
                {"method": "hooks/list", "id": 2, "params": {"cwds": [str(project)]}}]
    with subprocess.Popen([str(binary), "app-server"], cwd=project, env=env,
                          stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                          stderr=subprocess.DEVNULL, text=True) as proc:
        assert proc.stdin is not None and proc.stdout is not None
        watchdog = threading.Timer(RUN_TIMEOUT, proc.kill)  # a hang ends the read below
        watchdog.start()
        try:
            for message in messages:
                proc.stdin.write(json.dumps(message) + "\n")
                proc.stdin.flush()
            for line in proc.stdout:
                answer = json.loads(line)
                if answer.get("id") == 2:
                    result: dict[str, Any] = answer["result"]["data"][0]
                    return result
            raise AssertionError("codex app-server ended without answering hooks/list")
        finally:
            watchdog.cancel()
            proc.kill()


def _cut(warning: str) -> str:
    return warning.split(".json: ")[0] if warning.startswith("invalid matcher") else warning


def test_codex_lists_the_trust_hashes_hookwire_computes(tmp_path: Path, model: Any) -> None:
    """Every hook of a hooks.json and a config.toml, command and mcp_tool: the key,
    ``currentHash`` (what a user's ``/hooks`` approval records, which hookwire honours),
    display order and timeout the real Codex lists are the ones hookwire's discovery gives,
    and so are its warnings; which project layers load; then the files Codex refuses for
    their mcp_tool input, refused by hookwire too."""
    from hookwire.dialects.codex import config

    binary = client_binary(RUNS["codex"])
    home, project = tmp_path / "home", tmp_path / "project"
    home.mkdir()
    project.mkdir()
    env = base_env(home, model.url)
    env.update(_codex_setup(home, project, model.url, "true"))
    codex_home = Path(env["CODEX_HOME"])
    hooks_json, config_toml = codex_home / "hooks.json", codex_home / "config.toml"
    hooks_json.write_text(CODEX_HOOKS_JSON, encoding="utf-8")
    config_toml.write_text(config_toml.read_text() + CODEX_CONFIG_HOOKS, encoding="utf-8")

    listed = _codex_hooks_list(binary, env, project)
    theirs = {h["key"]: (h["currentHash"], h["displayOrder"], h["timeoutSec"])
              for h in listed["hooks"]}
    ours = config.discover(project, codex_home=codex_home, system_dir=None)
    mine = {e.handler.key: (e.handler.hash, e.handler.display_order, int(e.timeout or 0))
            for e in ours.entries}
    print(f"\ncodex {RUNS['codex'].version} hooks/list: {len(theirs)} hooks, "
          f"warnings {listed['warnings']}")
    assert len(theirs) == 8 and len(listed["warnings"]) == 8, listed
    assert mine == theirs
    # the same warnings in the same order; an invalid regex's own message is the engine's
    # (Rust's regex crate there, Python's here): compared up to it
    assert [_cut(p.message) for p in ours.problems] == [_cut(w) for w in listed["warnings"]]

    # project layers, cwd two folders down a git repository: each is trusted by its own
    # [projects] entry or the root's, never by the open policy _codex_setup writes
    repo = project / "repo"
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    folders = [repo, repo / "a", repo / "a" / "b"]
    for folder in folders:
        _write(folder / ".codex" / "hooks.json",
               '{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "p"}]}]}}')
    hooks_json.unlink()
    user = config_toml.read_text()
    for trusted in (None, folders[2], folders[0]):
        entry = "" if trusted is None else f'\n[projects."{trusted}"]\ntrust_level = "trusted"\n'
        config_toml.write_text(user + entry, encoding="utf-8")
        listed = _codex_hooks_list(binary, env, folders[2])
        ours = config.discover(folders[2], codex_home=codex_home, system_dir=None)
        assert sorted(h["key"] for h in listed["hooks"]) == sorted(
            e.handler.key for e in ours.entries), (trusted, listed)
    assert len(ours.entries) == 4  # the root trusted: its three layers and the user's hook
    config_toml.write_text(user, encoding="utf-8")

    for written in ('"input": null', '"input": {"a": [null]}',
                    '"input": {"a": 9223372036854775808}'):
        hooks_json.write_text('{"hooks": {"Stop": [{"hooks": [%s]}]}}' % (_MCP % f", {written}"),
                              encoding="utf-8")
        listed = _codex_hooks_list(binary, env, project)
        ours = config.read_file(hooks_json)
        assert not [h for h in listed["hooks"] if h["sourcePath"] == str(hooks_json)], listed
        assert ours.entries == () and len(ours.problems) == 1
        (warning,) = [w for w in listed["warnings"] if str(hooks_json) in w]
        assert warning.startswith(ours.problems[0].message.split(" @ ")[0]), (warning, ours)
    assert model.outside == []
