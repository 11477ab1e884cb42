"""``hookwire trust --list [--json]``: per hook, every file pinned with its hash, what is
pinned by command text only and why, what is read after the check, where the approval is
stored (#22)."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

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
