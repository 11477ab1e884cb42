"""Bad input on the command line: one line naming what is wrong, exit 2, no traceback."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest


def hookwire(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "hookwire.cli", *args], capture_output=True,
                          text=True, input=stdin, timeout=60)


@pytest.fixture
def settings(tmp_path: Path) -> Path:
    path = tmp_path / "settings.json"
    path.write_text('{"hooks": {}}')
    return path


@pytest.mark.parametrize(("args", "message"), [
    (["fire", "PreToolUse", "--dialect", "no-such-dialect", "--config", "x.json"],
     "unknown dialect 'no-such-dialect'"),
    (["fire", "PreToolUse", "--dialect", "claude", "--config", "x.json", "--data", "{nope"],
     "--data is not JSON"),
    (["fire", "PreToolUse", "--dialect", "claude", "--config", "x.json", "--data", "[1, 2]"],
     "--data must be a JSON object"),
    (["fire", "PreToolUse", "--dialect", "claude", "--config", "x.json", "--data", "@/nonexistent"],
     "cannot read /nonexistent"),
    (["fire", "PreToolUse"], "the following arguments are required: --dialect"),
    (["fire", "PreToolUse", "--dialect", "claude", "--config", "{settings}", "--data",
      '{"tool_name": "Bash", "tool_input": "not an object"}'],
     "tool_input must be an object @ $.tool_input"),
    (["fire", "NoSuchEvent", "--dialect", "claude", "--config", "{settings}"],
     "dialect 'claude' has no event 'NoSuchEvent'"),
    (["no-such-command"], "invalid choice: 'no-such-command'"),
])
def test_unusable_input_exits_2_with_one_line(args: list[str], message: str,
                                              settings: Path) -> None:
    proc = hookwire(*[a.replace("{settings}", str(settings)) for a in args])
    assert proc.returncode == 2, proc.stderr
    errors = [line for line in proc.stderr.splitlines() if "error" in line]
    assert len(errors) == 1 and message in errors[0]
    assert "Traceback" not in proc.stderr and proc.stdout == ""


def test_missing_config_file_is_named(tmp_path: Path) -> None:
    proc = hookwire("fire", "PreToolUse", "--dialect", "claude", "--config",
                    str(tmp_path / "missing.json"))
    assert proc.returncode == 2
    assert "missing.json" in proc.stderr and "Traceback" not in proc.stderr


def test_version_and_help() -> None:
    assert hookwire("--version").stdout.startswith("hookwire ")
    out = hookwire("--help").stdout
    for command in ("demo", "dialects", "fire"):
        assert command in out


def test_fire_on_a_dialect_without_event_from_wire_says_so(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The contract gap of issue 24: ``fire`` on a third-party dialect that does not implement
    ``event_from_wire`` printed ``internal error: NotImplementedError`` (exit 1). It is unusable
    input for that dialect: one line naming the dialect and the method, exit 2."""
    from collections.abc import Mapping
    from typing import Any

    from hookwire import Kernel, SeamEvent
    from hookwire.cli import main
    from hookwire.dialect import Dialect
    from hookwire.testing import EchoDialect

    class NoWire(EchoDialect):
        name = "nowire"
        harness = "a harness with no wire events"

        def event_from_wire(self, native: str, data: Mapping[str, Any]) -> SeamEvent:
            return Dialect.event_from_wire(self, native, data)  # the base: not implemented

    config = tmp_path / "hooks.json"
    config.write_text("{}")
    kernel = Kernel(load_entry_points=False)
    kernel.add_dialect(NoWire())
    code = main(["fire", "tool_pre", "--dialect", "nowire", "--config", str(config)],
                kernel=kernel)
    err = capsys.readouterr().err
    assert code == 2
    assert err == ("hookwire: error: dialect 'nowire' (a harness with no wire events) cannot "
                   "fire events: it does not implement Dialect.event_from_wire\n")
