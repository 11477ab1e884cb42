"""hookwire's own file is argv-only: every dialect's command builder runs an argv, in exec form,
word for word. Real scripts, real processes, a hooks file loaded as a host loads it."""

from __future__ import annotations

import json
from pathlib import Path

import anyio
import pytest

from hookwire import Kernel, ToolPre
from hookwire.config import install

RECORDER = """\
#!/bin/sh
# records its argv (one word a line), PLUGIN_ROOT and the first stdin key
{{
  for a in "$@"; do printf 'arg=%s\\n' "$a"; done
  printf 'root=%s\\n' "${{PLUGIN_ROOT:-}}"
  printf 'stdin=%s\\n' "$(head -c 40)"
}} > "{out}"
"""


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "home"
    (home / ".config").mkdir(parents=True)
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / ".config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(home / ".local" / "share"))
    root = tmp_path / "proj"
    (root / "hooks").mkdir(parents=True)
    script = root / "hooks" / "rec.sh"
    script.write_text(RECORDER.format(out=root / "out.txt"))
    script.chmod(0o755)
    return root


def _fire(root: Path, hooks_yaml: str) -> dict[str, list[str]]:
    (root / ".hookwire").mkdir(exist_ok=True)
    (root / ".hookwire" / "hooks.yaml").write_text("version: 1\nhooks:\n" + hooks_yaml)
    kernel = Kernel()
    install(kernel, cwd=root)

    async def go() -> list[str]:
        async with kernel.session(cwd=str(root), project_dir=str(root)) as session:
            verdict = await session.dispatch(ToolPre(tool_name="Bash",
                                                     tool_input={"command": "ls"}))
            return [h.outcome for h in verdict.hooks]

    assert anyio.run(go) == ["exited"]
    found: dict[str, list[str]] = {}
    for line in (root / "out.txt").read_text().splitlines():
        key, _, value = line.partition("=")
        found.setdefault(key, []).append(value)
    return found


@pytest.mark.parametrize("dialect", ["claude", "codex"])
def test_argv_runs_word_for_word(project: Path, dialect: str) -> None:
    if dialect not in Kernel().dialects:
        pytest.skip(f"the {dialect} dialect is not installed")
    argv = ["./hooks/rec.sh", "two words", "$HOME", "a;b", "*"]
    out = _fire(project, f"  - {{dialect: {dialect}, event: PreToolUse, matcher: Bash, "
                         f"type: command, command: {json.dumps(argv)}}}\n")
    assert out["arg"] == argv[1:]  # no shell: no splitting, expansion or globbing
    assert out["stdin"][0].startswith('{"session_id":')


def test_claude_argv_substitutes_the_project_dir(project: Path) -> None:
    if "claude" not in Kernel().dialects:
        pytest.skip("the claude dialect is not installed")
    out = _fire(project, "  - {dialect: claude, event: PreToolUse, type: command, command: "
                         "['${CLAUDE_PROJECT_DIR}/hooks/rec.sh', '${CLAUDE_PROJECT_DIR}/x']}\n")
    assert out["arg"] == [f"{project}/x"]


def test_portable_argv_runs_with_the_project_as_plugin_root(project: Path) -> None:
    if "portable" not in Kernel().dialects:
        pytest.skip("the portable dialect is not installed")
    argv = ["./hooks/rec.sh", "--flag", "${PLUGIN_ROOT}/data file"]
    out = _fire(project, f"  - {{dialect: portable, event: pre-tool-use, type: command, "
                         f"command: {json.dumps(argv)}}}\n")
    root = str(project.resolve())
    assert out["arg"] == ["--flag", f"{root}/data file"]
    assert out["root"] == [root]
    assert out["stdin"][0].startswith('{"')  # the portable envelope
