"""Fixtures for installer tests: a sample plugin, and a temporary home and project so no test
ever touches the real ones."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

SCHEMA_URL = "https://hookwire.dev/schemas/portable-hooks/0.1.0/hooks.schema.json"

RECORDER = """#!/usr/bin/env python3
import json, os, sys
payload = json.loads(sys.stdin.read())
with open(os.environ["LOG"], "a") as fh:
    fh.write(json.dumps({"argv": sys.argv, "payload": payload}) + "\\n")
if payload["event"] == "turn-start":
    print(json.dumps({"context": "remember the plugin"}))
    sys.exit(0)
sys.exit(2)  # observe-only: the client must never see a block
"""


@pytest.fixture(autouse=True)
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A temporary HOME (also for the shim's subprocesses); XDG dirs point inside it."""
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / ".config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(home / ".local" / "share"))
    monkeypatch.delenv("CURSOR_VERSION", raising=False)
    return home


@pytest.fixture
def project(tmp_path: Path) -> Path:
    path = tmp_path / "project"
    path.mkdir()
    return path


@pytest.fixture
def log(tmp_path: Path) -> Path:
    return tmp_path / "hook-log.jsonl"


@pytest.fixture
def plugin(tmp_path: Path, log: Path) -> Path:
    """A plugin using all six events; turn-start opts into context results."""
    root = tmp_path / "plugins" / "recorder"
    (root / "bin").mkdir(parents=True)
    (root / "bin" / "rec").write_text(RECORDER)
    (root / "bin" / "rec").chmod(0o755)
    (root / "plugin.json").write_text(json.dumps({"name": "acme-recorder", "version": "1.0.0"}))
    env = {"LOG": str(log)}
    hooks = {e: [{"command": "./bin/rec", "args": [e], "env": env}] for e in (
        "session-start", "pre-tool-use", "post-tool-use", "turn-end", "session-end")}
    hooks["turn-start"] = [{"command": "./bin/rec", "args": ["turn-start"], "env": env,
                            "result": "context", "timeout": 10}]
    (root / "hooks.json").write_text(json.dumps({"$schema": SCHEMA_URL, "hooks": hooks},
                                                indent=2))
    return root


@pytest.fixture
def schema_payload():
    """Violations of the portable payload schema (the subset checker of the dialect tests)."""
    import importlib.util

    here = Path(__file__).parents[2] / "dialects" / "portable" / "conftest.py"
    spec = importlib.util.spec_from_file_location("_portable_conftest", here)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    schema = json.loads((module.SCHEMA_DIR / "payload.schema.json").read_text())
    return lambda value: module.schema_errors(schema, value)


@pytest.fixture
def strip_types():
    """The bridge's TypeScript as JavaScript (it uses only these annotations), for node."""
    import re

    def strip(ts: str) -> str:
        return re.sub(r": (string\[\]|string|Promise<void>|Record<string, unknown>|any|"
                      r"\{ directory: string \}|"
                      r"\{ event: \{ type: string; properties\?: any \} \})", "", ts)

    return strip
