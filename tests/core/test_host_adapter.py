"""HostAdapter's session blocks: a blocking adapter's ``async with`` is its own ``with`` block
(an adapter that installs itself there is installed either way), the session opens on first
use and ends at the block's end; a non-blocking adapter has only ``async with``."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest

from hookwire.driver import HostAdapter, HostRun, RunHalted, last_text, prompt_text, tool_name
from hookwire.kernel import Kernel
from hookwire.verdicts import KERNEL, Halt

HOOK = r'''
import json, sys
data = json.load(sys.stdin)
with open(sys.argv[1], "a") as fh:
    fh.write(data["hook_event_name"] + "\n")
'''


class Adapter(HostAdapter):
    """An adapter whose ``with`` block installs it (as CrewAI's does)."""

    installed = 0

    def __enter__(self) -> Any:
        self.installed += 1
        return super().__enter__()


def kernel(tmp_path: Path) -> tuple[Kernel, Path]:
    (tmp_path / "hook.py").write_text(HOOK)
    log = tmp_path / "events.log"
    command = {"hooks": [{"type": "command",
                          "command": f"{sys.executable} {tmp_path / 'hook.py'} {log}"}]}
    settings = tmp_path / ".claude" / "settings.json"
    settings.parent.mkdir()
    settings.write_text(json.dumps({"hooks": {"SessionStart": [command],
                                              "SessionEnd": [command]}}))
    k = Kernel()
    k.add_config("claude", settings)
    return k, log


def test_async_with_is_the_blocking_adapters_with_block(tmp_path: Path) -> None:
    k, log = kernel(tmp_path)
    adapter = Adapter(k, host=None, cwd=str(tmp_path))

    async def main() -> None:
        async with adapter:
            assert not log.exists(), "the session opens on first use"
            run = adapter.driver.begin("hello")
            await adapter.acall(run.open)
            await adapter.acall(run.close)

    anyio.run(main)
    assert adapter.installed == 1
    assert log.read_text().split() == ["SessionStart", "SessionEnd"]


def test_a_non_blocking_adapter_has_only_async_with(tmp_path: Path) -> None:
    k, log = kernel(tmp_path)
    adapter = Adapter(k, host=None, blocking=False, cwd=str(tmp_path))
    with pytest.raises(TypeError, match="async with"):
        adapter.__enter__()

    async def main() -> None:
        async with adapter:
            assert log.read_text().split() == ["SessionStart"]

    anyio.run(main)
    assert log.read_text().split() == ["SessionStart", "SessionEnd"]


# -- the turn, a nested run, the runtime's items --------------------------------------------------

STOP_ONCE = r'''
import json, os, sys
data = json.load(sys.stdin)
with open(sys.argv[1], "a") as fh:
    fh.write(data["hook_event_name"] + "\n")
marker = sys.argv[1] + ".stopped"
if data["hook_event_name"] == "Stop" and not os.path.exists(marker):
    open(marker, "w").close()
    print("not done: say bye", file=sys.stderr)
    sys.exit(2)
'''


def stop_kernel(tmp_path: Path) -> tuple[Kernel, Path]:
    (tmp_path / "hook.py").write_text(STOP_ONCE)
    log = tmp_path / "events.log"
    command = {"hooks": [{"type": "command",
                          "command": f"{sys.executable} {tmp_path / 'hook.py'} {log}"}]}
    events = ("SessionStart", "UserPromptSubmit", "Stop", "SubagentStart", "SubagentStop",
              "SessionEnd")
    settings = tmp_path / ".claude" / "settings.json"
    settings.parent.mkdir()
    settings.write_text(json.dumps({"hooks": {e: [command] for e in events}}))
    k = Kernel()
    k.add_config("claude", settings)
    return k, log


@pytest.mark.parametrize("blocking", [True, False])
def test_turn_sends_the_stop_feedback_and_calls_the_runtime_again(tmp_path: Path,
                                                                  blocking: bool) -> None:
    k, log = stop_kernel(tmp_path)
    adapter = Adapter(k, host=None, blocking=blocking, session_per_run=not blocking,
                      cwd=str(tmp_path))
    inputs: list[Any] = []
    run = adapter.driver.begin("hello")

    def runtime(message: Any) -> str:  # its model callback: the prompt once per turn
        adapter.call(run.before_model)
        inputs.append(message)
        return f"answer {len(inputs)}"

    def again(result: str, texts: list[Any]) -> list[str]:
        return [result, *(t.text for t in texts)]

    async def once(message: Any) -> str:
        await adapter.acall(run.before_model)
        inputs.append(message)
        return f"answer {len(inputs)}"

    if blocking:
        result = adapter.turn_sync(run, runtime, "hello", answer=str, again=again)
        adapter.close()
    else:
        result = anyio.run(lambda: adapter.turn(run, once, "hello", answer=str, again=again))
    assert result == "answer 2"
    assert inputs[0] == "hello"
    assert inputs[1][0] == "answer 1" and "not done: say bye" in inputs[1][1]
    assert log.read_text().split() == ["SessionStart", "UserPromptSubmit", "Stop", "Stop",
                                       "SessionEnd"]


def test_turn_raises_the_hookwire_exception_a_runtime_wrapped(tmp_path: Path) -> None:
    k, _ = stop_kernel(tmp_path)
    adapter = Adapter(k, host=None, cwd=str(tmp_path))
    halt = RunHalted(Halt(reason="stop it", source=KERNEL))

    def runtime(message: Any) -> str:
        raise RuntimeError("the runtime's own wrapper") from halt

    with pytest.raises(RunHalted) as raised:
        adapter.turn_sync(adapter.driver.begin("hi"), runtime, "hi", answer=str,
                          again=lambda r, t: r)
    adapter.close()
    assert raised.value is halt


def test_nested_runs_a_sub_agent_with_its_seams(tmp_path: Path) -> None:
    k, log = stop_kernel(tmp_path)
    adapter = Adapter(k, host=None, blocking=False, cwd=str(tmp_path))
    seen: list[HostRun] = []

    async def sub_agent(sub: HostRun) -> str:
        seen.append(sub)
        return "inner answer"

    async def main() -> None:
        async with adapter:
            run = adapter.driver.begin("hello")
            await run.open()
            with run.tool_running():
                assert await adapter.nested(sub_agent, "look it up", agent_type="helper") \
                    == "inner answer"
            await run.close()

    anyio.run(main)
    assert seen[0].nested and seen[0].agent_type == "helper"
    assert log.read_text().split() == ["SessionStart", "SubagentStart", "SubagentStop",
                                       "SessionEnd"]


def test_a_runtimes_items_are_read_by_their_role() -> None:
    class Message:
        def __init__(self, role: str, content: Any) -> None:
            self.role, self.content = role, content

    history = [{"role": "user", "content": "first"}, Message("assistant", "hi"),
               Message("user", [{"text": "second"}, {"image": "x"}]), {"role": "system",
                                                                      "content": "s"}]
    assert prompt_text(history) == "second"
    assert prompt_text(["a", {"text": "b"}]) == "a\nb"  # parts, not messages
    said = [{"who": "model", "text": "one"}, {"who": "user", "text": "q"}]
    assert last_text(said, lambda m: m["who"] == "model", lambda m: m["text"]) == "one"
    assert last_text(said, lambda m: m["who"] == "model", lambda m: m["text"],
                     until=lambda m: m["who"] == "user") is None
    assert tool_name({"type": "function", "function": {"name": "f"}}) == "f"
    assert tool_name({"name": "g"}) == "g"
    assert tool_name(test_a_runtimes_items_are_read_by_their_role) == \
        "test_a_runtimes_items_are_read_by_their_role"
    assert tool_name(object()) is None
