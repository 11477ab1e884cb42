"""``shell: "powershell"`` hooks run with ``pwsh`` (a real stand-in ``pwsh`` on ``PATH`` that
records what it was given), and are reported as not started where there is none."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from hookwire import Decision, Kernel, SessionInfo
from hookwire import events as ev
from hookwire.dialects.claude import ClaudeDialect
from hookwire.dialects.claude.testing import group
from hookwire.trust import cannot_run

KernelFactory = Callable[..., Kernel]
TEXT = 'Write-Error "no: ${CLAUDE_PROJECT_DIR}"; exit 2'


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def stand_in(folder: Path, record: Path) -> None:
    """A ``pwsh`` that records its arguments, stdin and ``CLAUDE_PROJECT_DIR``, then answers
    as the PowerShell text would: the message on stderr, exit 2."""
    folder.mkdir()
    pwsh = folder / "pwsh"
    pwsh.write_text(f"""#!/bin/sh
for a in "$@"; do printf '%s\\n' "$a"; done > {record}.argv
cat > {record}.stdin
printf '%s' "$CLAUDE_PROJECT_DIR" > {record}.env
echo "no: $CLAUDE_PROJECT_DIR" >&2
exit 2
""")
    pwsh.chmod(0o755)


@pytest.mark.anyio
async def test_powershell_hooks_run_with_pwsh(tmp_path: Path, project: Path,
                                              claude_kernel: KernelFactory,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    record = tmp_path / "rec"
    stand_in(tmp_path / "bin", record)
    monkeypatch.setenv("PATH", f"{tmp_path / 'bin'}:/usr/bin:/bin")
    kernel = claude_kernel({"PreToolUse": [group(
        {"type": "command", "command": TEXT, "shell": "powershell"}, matcher="Bash")]})
    async with kernel.session(cwd=str(project), project_dir=str(project),
                              session_id="s1") as s:
        verdict = await s.tool_pre("Bash", {"command": "ls"})
    # the placeholder in PowerShell's own form, read from the hook's environment
    assert record.with_suffix(".argv").read_text().splitlines() == [
        "-NoProfile", "-NonInteractive", "-Command",
        'Write-Error "no: ${env:CLAUDE_PROJECT_DIR}"; exit 2']
    assert record.with_suffix(".env").read_text() == str(project)
    stdin = json.loads(record.with_suffix(".stdin").read_text())
    assert stdin["hook_event_name"] == "PreToolUse" and stdin["tool_input"] == {"command": "ls"}
    assert verdict.decision is Decision.DENY and f"no: {project}" in (verdict.reason or "")


@pytest.mark.anyio
async def test_without_pwsh_the_hook_is_reported_as_not_started(
        tmp_path: Path, project: Path, claude_kernel: KernelFactory,
        monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "empty").mkdir()
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    kernel = claude_kernel({"PreToolUse": [group(
        {"type": "command", "command": TEXT, "shell": "powershell"}, matcher="Bash")]})
    async with kernel.session(cwd=str(project), project_dir=str(project)) as s:
        verdict = await s.tool_pre("Bash", {"command": "ls"})
    (report,) = verdict.hooks
    assert report.outcome == "failed_to_start"
    assert report.diagnostics[0] == (
        "PreToolUse:Bash hook error: Failed with non-blocking status code: not_found")
    assert verdict.decision is Decision.NONE  # a hook that cannot start blocks nothing
    # and `hookwire check` names what is missing
    (entry,) = kernel.hooks
    command = kernel.dialect("claude").command(
        entry, ev.ToolPre(tool_name="Bash"), "PreToolUse",
        SessionInfo(session_id="s", cwd=str(project), project_dir=str(project)))
    assert cannot_run(command) == ("missing", f"'pwsh' not found (in {project})")


def test_powershell_handlers_load_and_write_back(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    path.write_text(json.dumps({"hooks": {"Stop": [{"hooks": [
        {"type": "command", "command": "Write-Host ${CLAUDE_PROJECT_DIR}",
         "shell": "powershell"},
        {"type": "command", "command": "pwsh", "args": ["-v"], "shell": "powershell"}]}]}}))
    dialect = ClaudeDialect()
    result = dialect.read_config(path)
    assert result.problems == ()
    first, exec_form = result.entries
    assert first.command == "Write-Host ${env:CLAUDE_PROJECT_DIR}"
    assert first.handler.shell == "powershell"
    assert exec_form.handler.shell == "bash"  # ignored when args is set, as in Claude Code
    written = dialect.write_config(result.entries)["hooks"]["Stop"][0]["hooks"]
    assert written[0]["shell"] == "powershell" and "shell" not in written[1]
