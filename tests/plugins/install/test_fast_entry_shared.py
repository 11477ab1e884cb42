"""The fast entry where several plugins share one entry (Cline's hook files, the bridge of
OpenCode, Kilo and Pi), upgrades from entries that ran the full shim, and the entry's own
failures. Each handler records whether the fast entry ran it (its parent's argv holds the
``hookwire-entry`` marker; the shim a stale plan falls back to is exec'd in its place)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from hookwire.plugins.install import clients, entry, install, receipt, uninstall
from hookwire.plugins.install.names import DEFAULT_PREFIX

SCHEMA_URL = "https://hookwire.dev/schemas/portable-hooks/0.1.0/hooks.schema.json"
WHO = """#!/usr/bin/env python3
import json, os, sys
parent = open(f"/proc/{os.getppid()}/cmdline", "rb").read().split(b"\\0")
payload = json.loads(sys.stdin.read())
with open(os.environ["LOG"], "a") as fh:
    fh.write(json.dumps([sys.argv[1], payload["event"], b"hookwire-entry" in parent]) + "\\n")
if payload["event"] == "turn-start":
    print(json.dumps({"context": "from " + sys.argv[1]}))
"""


def make_plugin(tmp_path: Path, name: str, log: Path) -> Path:
    root = tmp_path / "plugins" / name
    (root / "bin").mkdir(parents=True)
    (root / "bin" / "who").write_text(WHO)
    (root / "bin" / "who").chmod(0o755)
    (root / "plugin.json").write_text(json.dumps({"name": name, "version": "1.0.0"}))
    hook = {"command": "./bin/who", "args": [name], "env": {"LOG": str(log)}}
    (root / "hooks.json").write_text(json.dumps({"$schema": SCHEMA_URL, "hooks": {
        "pre-tool-use": [hook], "turn-start": [{**hook, "result": "context"}]}}))
    return root


def ran(log: Path) -> list[list[Any]]:
    out = [json.loads(ln) for ln in log.read_text().splitlines()] if log.exists() else []
    log.unlink(missing_ok=True)
    return out


def hook_file(home: Path, native: str) -> Path:
    return home / "Documents" / "Cline" / "Hooks" / native


def fire(path: Path, payload: dict[str, Any]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(path)], input=json.dumps(payload), capture_output=True,
                          text=True, timeout=60)


CLINE_PROMPT = {"clineVersion": "3.0.65", "taskId": "t", "workspaceRoots": ["/tmp"],
                "userPromptSubmit": {"prompt": "hi"}}


def test_cline_hook_file_runs_every_plugin_through_the_fast_entry(tmp_path: Path, home: Path,
                                                                   log: Path) -> None:
    a, b = make_plugin(tmp_path, "alpha", log), make_plugin(tmp_path, "beta", log)
    install("cline", a, home=home)
    install("cline", b, home=home)
    path = hook_file(home, "UserPromptSubmit")
    text = path.read_text()
    for root in (a, b):
        plan = _plan(home, "cline", root.name)
        assert f"--plan {plan} --plugin {root}" in text
    done = fire(path, CLINE_PROMPT)
    assert done.returncode == 0
    answer = json.loads(done.stdout)
    assert answer == {"cancel": False, "contextModification": "from alpha\n\nfrom beta"}
    assert ran(log) == [["alpha", "turn-start", True], ["beta", "turn-start", True]]
    # the full shim with both plugins answers the same
    shim = subprocess.run([*DEFAULT_PREFIX, "--client", "cline", "--event", "UserPromptSubmit",
                           "--plugin", str(a), "--plugin", str(b)],
                          input=json.dumps(CLINE_PROMPT), capture_output=True, text=True,
                          timeout=60)
    assert json.loads(shim.stdout) == answer
    assert ran(log) == [["alpha", "turn-start", False], ["beta", "turn-start", False]]
    # installing the first again keeps its place; uninstalling it keeps the other's pair
    assert install("cline", a, home=home).changed is False
    uninstall("cline", a, home=home)
    assert f"--plan {_plan(home, 'cline', 'beta')} --plugin {b}" in path.read_text()
    assert str(a) not in path.read_text() and os.access(path, os.X_OK)
    fire(path, CLINE_PROMPT)
    assert ran(log) == [["beta", "turn-start", True]]
    uninstall("cline", b, home=home)
    assert not path.parent.exists()


def test_a_stale_plan_runs_the_shim_for_every_plugin(tmp_path: Path, home: Path,
                                                     log: Path) -> None:
    a, b = make_plugin(tmp_path, "alpha", log), make_plugin(tmp_path, "beta", log)
    install("cline", a, home=home)
    install("cline", b, home=home)
    hooks = json.loads((b / "hooks.json").read_text())
    hooks["hooks"]["turn-start"][0]["args"] = ["beta-edited"]
    (b / "hooks.json").write_text(json.dumps(hooks))
    done = fire(hook_file(home, "UserPromptSubmit"), CLINE_PROMPT)
    assert json.loads(done.stdout)["contextModification"] == "from alpha\n\nfrom beta-edited"
    assert ran(log) == [["alpha", "turn-start", False], ["beta-edited", "turn-start", False]]


@pytest.mark.parametrize("name", ["cline", "cursor", "kiro"])
def test_a_crash_of_the_entry_prints_the_clients_empty_answer(name: str, tmp_path: Path,
                                                              home: Path, log: Path) -> None:
    root = make_plugin(tmp_path, "alpha", log)
    install(name, root, home=home)
    plan_file = _plan(home, name, "alpha")
    plan = json.loads(plan_file.read_text())
    plan["client"]["context"] = 0  # `native in 0`: a TypeError once a context comes back
    plan_file.write_text(json.dumps(plan))
    payload = {**CLINE_PROMPT, "prompt": "hi", "session_id": "s"}
    native = {"cline": "UserPromptSubmit", "cursor": "beforeSubmitPrompt",
              "kiro": "UserPromptSubmit"}[name]
    done = subprocess.run(["sh", "-c", entry.command(plan_file, name, native, str(root))],
                          input=json.dumps(payload), capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and "portable hooks not run" in done.stderr
    assert done.stdout == {"cline": '{"cancel": false}\n', "cursor": "{}\n", "kiro": ""}[name]
    assert ran(log) == [["alpha", "turn-start", True]]


BRIDGE_DRIVER = {
    "opencode": """import { HookwireBridge } from %s;
const hooks = await HookwireBridge({ directory: "/tmp" });
await hooks["tool.execute.before"]({ sessionID: "s", tool: "bash", callID: "c" },
                                   { args: { command: "ls" } });
""",
    "pi": """import bridge from %s;
const on = {};
bridge({ on: (name, handler) => { on[name] = handler; } });
await on.tool_call({ toolName: "bash", toolCallId: "c", input: { command: "ls" } });
""",
}


@pytest.mark.parametrize("name", ["opencode", "kilo", "pi"])
def test_bridge_runs_every_plugin_through_the_fast_entry(name: str, tmp_path: Path, home: Path,
                                                         log: Path, strip_types: Any) -> None:
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    a, b = make_plugin(tmp_path, "alpha", log), make_plugin(tmp_path, "beta", log)
    install(name, a, home=home)
    install(name, b, home=home)
    (ts,) = home.rglob("hookwire-bridge.ts")
    module = tmp_path / "bridge.mjs"
    module.write_text(strip_types(ts.read_text()))
    driver = tmp_path / "driver.mjs"
    driver.write_text(BRIDGE_DRIVER["pi" if name == "pi" else "opencode"]
                      % json.dumps(module.as_uri()))
    done = subprocess.run([node, str(driver)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert sorted(ran(log)) == [["alpha", "pre-tool-use", True], ["beta", "pre-tool-use", True]]
    # a plugin installed without a plan (the shim's, or a hookwire before plans): the entry
    # hands every plugin to the shim
    _plan(home, name, "beta").unlink()
    subprocess.run([node, str(driver)], capture_output=True, text=True, timeout=60, check=True)
    assert sorted(ran(log)) == [["alpha", "pre-tool-use", False],
                                ["beta", "pre-tool-use", False]]


def snapshot(home: Path) -> dict[str, str]:
    """Every file the install wrote for the client (receipts and plans aside; Codex's trust
    hashes included: the same home, so the same hashes)."""
    return {str(p.relative_to(home)): p.read_text() for p in sorted(home.rglob("*"))
            if p.is_file() and ".config/hookwire" not in str(p)}


@pytest.mark.parametrize("name", sorted(clients()))
def test_upgrade_from_shim_entries_replaces_them_in_place(name: str, plugin: Path, home: Path,
                                                          tmp_path: Path) -> None:
    """What hookwire wrote before every client had the fast entry (entries running the shim,
    no plan) becomes, on install, exactly what a fresh install writes: each entry replaced
    where it was, none added; uninstall then leaves nothing."""
    start = sorted(str(p) for p in tmp_path.rglob("*"))
    install(name, plugin, home=home)
    fresh = snapshot(home)
    uninstall(name, plugin, home=home)
    install(name, plugin, home=home, prefix=DEFAULT_PREFIX)
    old = snapshot(home)
    assert "hookwire.plugins.install.shim" in "".join(old.values())
    assert not _plan(home, name, "acme-recorder").exists()
    install(name, plugin, home=home)
    assert snapshot(home) == fresh
    assert "hookwire.plugins.install.shim" not in "".join(fresh.values())
    assert entry.MARK in "".join(fresh.values())
    uninstall(name, plugin, home=home)
    assert sorted(str(p) for p in tmp_path.rglob("*")) == start


def _plan(home: Path, client: str, plugin: str) -> Path:
    return entry.plan_path(receipt.location(home, client, "user", None, plugin))


def test_the_entry_imports_no_hookwire() -> None:
    """The entry's modules load where hookwire cannot be imported (``-I -S``) and import only
    the standard library: what the parity tests compare is the entry's own translation."""
    code = (f"import sys;sys.path[:0]=[{str(entry.ENTRY_DIR)!r}];import hookwire_run;"
            "import importlib.util as u;"
            "print(u.find_spec('hookwire'), sorted(m for m in sys.modules if 'hookwire' in m))")
    done = subprocess.run([sys.executable, "-I", "-S", "-c", code], capture_output=True,
                          text=True, timeout=60, check=True)
    assert done.stdout.strip() == "None ['hookwire_payload', 'hookwire_run']"


def test_an_event_without_handlers_loads_no_runner(tmp_path: Path, home: Path,
                                                   log: Path) -> None:
    """Work done before knowing the event has a handler stays small: no ``os`` (~1.5 ms),
    ``select`` or runner module for an event the plugins have no handler for (the bridge runs
    the entry for every event)."""
    root = make_plugin(tmp_path, "alpha", log)
    install("opencode", root, home=home)
    argv = [*entry.prefix(), "--client", "opencode", "--event", "session.idle",
            "--plan", str(_plan(home, "opencode", "alpha")), "--plugin", str(root)]
    argv[1:1] = ["-X", "importtime"]
    done = subprocess.run(argv, input='{"session_id": "s"}', capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0 and done.stdout == ""
    loaded = {line.rsplit("|", 1)[-1].strip() for line in done.stderr.splitlines()}
    assert "hookwire_payload" in loaded
    assert not loaded & {"os", "select", "hookwire_run", "encodings.utf_8_sig"}
    assert not log.exists()
