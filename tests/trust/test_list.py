"""``hookwire trust --list [--json]``: per hook, every file pinned with its hash, what is
pinned by command text only and why, what is read after the check, where the approval is
stored (#22)."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

HOOKS = """\
hooks:
  - dialect: claude
    event: PreToolUse
    matcher: Bash
    type: command
    command: [sh, ./hooks/run.sh]
    source: imported:claude
  - dialect: claude
    event: PreToolUse
    type: command
    command: [{python}, -c, "pass"]
    source: imported:claude
"""


def hookwire(tmp_path: Path, home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "HOME": str(home), "XDG_CONFIG_HOME": str(home / ".config")}
    env.pop("HOOKWIRE_TRUST_STRICT", None)
    env.pop("HOOKWIRE_TRUSTED_FOLDERS", None)
    return subprocess.run([sys.executable, "-m", "hookwire", *args], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=120)


def sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_trust_list_shows_every_pinned_file_with_its_hash(tmp_path: Path, home: Path) -> None:
    (tmp_path / "hooks").mkdir()
    lib = tmp_path / "hooks" / "lib.sh"
    lib.write_text("X=1\n")
    script = tmp_path / "hooks" / "run.sh"
    script.write_text('. "$(dirname "$0")/lib.sh"\n')
    (tmp_path / ".hookwire").mkdir()
    (tmp_path / ".hookwire" / "hooks.yaml").write_text(
        HOOKS.format(python=json.dumps(sys.executable)))

    pending = json.loads(hookwire(tmp_path, home, "trust", "--list", "--json").stdout)
    assert [h["state"] for h in pending["hooks"]] == ["pending", "pending"]
    assert all(h["approval"] is None for h in pending["hooks"])

    assert hookwire(tmp_path, home, "trust", "--all").returncode == 0
    lib.write_text("X=2\n")  # after approval
    out = hookwire(tmp_path, home, "trust", "--list", "--json")
    assert out.returncode == 0, out.stderr
    doc: dict[str, Any] = json.loads(out.stdout)
    store = str(home / ".config" / "hookwire" / "trust.json")
    assert doc["store"] == store
    shell, inline = doc["hooks"]
    assert shell["approval"]["stored_in"] == store and shell["approval"]["approved"]
    assert {"path": str(script), "sha256": sha(script)} in shell["pinned"]["chain"]
    approved_lib = hashlib.sha256(b"X=1\n").hexdigest()
    assert shell["pinned"]["helpers"] == [{"path": str(lib), "sha256": approved_lib}]
    assert shell["state"] == "changed" and str(lib) in shell["change"]
    assert shell["pinned"]["text_only"] is None and shell["pinned"]["read_after_check"] is None
    assert inline["state"] == "trusted"
    assert inline["pinned"]["text_only"].startswith(
        f"{os.path.basename(sys.executable)} -c runs no file")

    text = hookwire(tmp_path, home, "trust", "--list").stdout
    assert f"approvals are stored in {store}" in text
    assert f"helper file  sha256:{approved_lib}  {lib}" in text
    assert f"exec chain   sha256:{sha(script)}  {script}" in text
    assert "pinned by command text only: " in text
    assert f"changed: {lib}, a file the hook loads, changed since it was approved" in text


def test_check_refuses_a_hook_read_after_the_check_when_trust_is_strict(tmp_path: Path,
                                                                        home: Path) -> None:
    """A perl hook is pinned by content but read from its path when it runs: ``check`` says
    so, and calls it untrusted under ``HOOKWIRE_TRUST_STRICT=1``."""
    if shutil.which("perl") is None:
        pytest.skip("perl is not installed")
    (tmp_path / "hooks").mkdir()
    (tmp_path / "hooks" / "x.pl").write_text("exit 0;\n")
    (tmp_path / ".hookwire").mkdir()
    (tmp_path / ".hookwire" / "hooks.yaml").write_text(
        "hooks:\n  - dialect: claude\n    event: PreToolUse\n    type: command\n"
        "    command: [perl, ./hooks/x.pl]\n    source: imported:claude\n")
    assert hookwire(tmp_path, home, "trust", "--all").returncode == 0
    relaxed = json.loads(hookwire(tmp_path, home, "check", "--json").stdout)["hooks"][0]
    assert relaxed["status"] == "runs"
    assert "read after the check: perl scripts run from their path" in relaxed["detail"]
    env = {**os.environ, "HOME": str(home), "XDG_CONFIG_HOME": str(home / ".config"),
           "HOOKWIRE_TRUST_STRICT": "1"}
    out = subprocess.run([sys.executable, "-m", "hookwire", "check", "--json"], cwd=tmp_path,
                         env=env, capture_output=True, text=True, timeout=120)
    strict = json.loads(out.stdout)["hooks"][0]
    assert strict["status"] == "untrusted" and "trust is strict" in strict["detail"]


def test_trust_list_names_the_trusted_folder_a_repository_hook_runs_under(
        tmp_path: Path, home: Path) -> None:
    (tmp_path / "hooks").mkdir()
    (tmp_path / "hooks" / "lib.sh").write_text("X=1\n")
    (tmp_path / "hooks" / "run.sh").write_text('. "$(dirname "$0")/lib.sh"\n')
    (tmp_path / ".hookwire").mkdir()
    (tmp_path / ".hookwire" / "hooks.yaml").write_text(  # the repository's own hook
        "hooks:\n  - dialect: claude\n    event: PreToolUse\n    type: command\n"
        "    command: [sh, ./hooks/run.sh]\n")
    (row,) = json.loads(hookwire(tmp_path, home, "trust", "--list", "--json").stdout)["hooks"]
    assert row["state"] == "pending" and row["approval"] is None
    assert hookwire(tmp_path, home, "trust", "--folder", ".").returncode == 0
    (row,) = json.loads(hookwire(tmp_path, home, "trust", "--list", "--json").stdout)["hooks"]
    store = str(home / ".config" / "hookwire" / "trust.json")
    assert row["state"] == "trusted folder"
    assert row["approval"] == {"folder": str(tmp_path.resolve()), "stored_in": store}
    assert [h["path"] for h in row["pinned"]["helpers"]] == [str(tmp_path / "hooks" / "lib.sh")]
    text = hookwire(tmp_path, home, "trust", "--list").stdout
    assert f"approval: its folder {tmp_path.resolve()} is trusted (stored in {store})" in text


def test_check_says_an_approved_in_process_hook_runs_under_strict_trust(tmp_path: Path,
                                                                         home: Path) -> None:
    """A repository's prompt and http hooks, approved one by one: no file is pinned and the
    gate checks none when they run (they are not processes), so strict trust does not refuse
    them; ``check`` says what the host does."""
    (tmp_path / ".claude").mkdir()
    (tmp_path / ".claude" / "settings.json").write_text(json.dumps({"hooks": {"PreToolUse": [
        {"matcher": "Bash", "hooks": [
            {"type": "http", "url": "http://127.0.0.1:9/hook"},
            {"type": "prompt", "prompt": "Is this safe? $ARGUMENTS"}]}]}}))
    assert hookwire(tmp_path, home, "trust", "--all").returncode == 0
    env = {**os.environ, "HOME": str(home), "XDG_CONFIG_HOME": str(home / ".config"),
           "HOOKWIRE_TRUST_STRICT": "1"}
    env.pop("HOOKWIRE_TRUSTED_FOLDERS", None)
    out = subprocess.run([sys.executable, "-m", "hookwire", "check", "--json", "--host",
                          "pydantic-ai"], cwd=tmp_path, env=env, capture_output=True,
                         text=True, timeout=120)
    rows = json.loads(out.stdout)["hooks"]
    assert [(r["status"], r["detail"].split(", ")[1]) for r in rows] == [
        ("runs", "in process"), ("runs", "on the host's model")], rows
    assert all(r["detail"].endswith("pinned by its text") for r in rows), rows


def test_trust_and_the_list_say_an_in_process_hook_is_pinned_by_its_text(tmp_path: Path,
                                                                          home: Path) -> None:
    """An http or prompt hook is no process: ``trust``, ``trust --all`` and ``trust --list``
    say it runs in hookwire's process or on the host's model and that its text is what an
    approval pins, not that its URL or prompt is "not found" shell text or that it was
    "approved before hookwire pinned" helper files."""
    (tmp_path / ".claude").mkdir()
    (tmp_path / ".claude" / "settings.json").write_text(json.dumps({"hooks": {"PreToolUse": [
        {"matcher": "Bash", "hooks": [
            {"type": "http", "url": "http://127.0.0.1:9/hook"},
            {"type": "prompt", "prompt": "Is this safe? $ARGUMENTS"}]}]}}))
    listed = hookwire(tmp_path, home, "trust")
    assert listed.returncode == 0, listed.stderr
    assert "runs in hookwire's process\n         pinned by its text" in listed.stdout
    assert "runs on the host's model\n         pinned by its text" in listed.stdout
    for text in (listed.stdout, hookwire(tmp_path, home, "trust", "--list").stdout):
        assert "not found" not in text and "command text only" not in text, text
        assert "approved before" not in text, text
    pending = hookwire(tmp_path, home, "trust", "--list").stdout
    assert "pinned by its text: it runs in hookwire's process, so no file is read" in pending
    assert "pinned by its text: it runs on the host's model, so no file is read" in pending
    approved = hookwire(tmp_path, home, "trust", "--all")
    assert approved.returncode == 0, approved.stderr
    assert approved.stdout.count("pins its text (it runs ") == 2, approved.stdout
    rows = json.loads(hookwire(tmp_path, home, "trust", "--list", "--json").stdout)["hooks"]
    assert [r["in_process"] for r in rows] == ["in hookwire's process", "on the host's model"]
    assert all(r["state"] == "trusted" for r in rows), rows
