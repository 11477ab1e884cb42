"""The otel plugin: one span per seam, one child span per hook run, with hookwire's
attributes, read back with the SDK's in-memory exporter; a pydantic-ai agent run (only the
model is faked) gives one span per hook that ran."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import anyio
import pytest

pytest.importorskip("opentelemetry.sdk")

from opentelemetry.sdk.trace import ReadableSpan, TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from opentelemetry.trace import StatusCode

from hookwire import Kernel
from hookwire.plugins.otel import ENV, Tracing, plugin


@pytest.fixture
def exporter() -> InMemorySpanExporter:
    return InMemorySpanExporter()


@pytest.fixture
def tracing(exporter: InMemorySpanExporter) -> Tracing:
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    return Tracing(tracer_provider=provider)


def by_name(spans: tuple[ReadableSpan, ...], prefix: str) -> list[ReadableSpan]:
    return [s for s in spans if s.name.startswith(prefix)]


def test_off_unless_tracing_is_configured(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(ENV, raising=False)
    # an earlier test may have installed an SDK provider globally (OpenTelemetry cannot unset
    # it): look at this process as one where nobody configured tracing
    from opentelemetry import trace
    monkeypatch.setattr(trace, "get_tracer_provider", trace.ProxyTracerProvider)
    assert plugin().tracing is None
    assert not Kernel().registry.audit
    monkeypatch.setenv(ENV, "1")
    assert plugin().tracing is not None


def test_a_seam_span_with_a_child_per_hook(tmp_path: Path, tracing: Tracing,
                                           exporter: InMemorySpanExporter) -> None:
    deny = tmp_path / "deny.sh"
    deny.write_text("#!/bin/sh\ncat >/dev/null\necho no >&2\nexit 2\n")
    slow = tmp_path / "slow.sh"
    slow.write_text("#!/bin/sh\ncat >/dev/null\nexec sleep 30\n")
    halt = tmp_path / "halt.py"
    halt.write_text("import sys, json; sys.stdin.read(); "
                    "print(json.dumps({'continue': False, 'stopReason': 'enough'}))\n")
    for script in (deny, slow):
        script.chmod(0o755)
    settings = tmp_path / "settings.json"
    settings.write_text(json.dumps({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
        {"type": "command", "command": str(deny)},
        {"type": "command", "command": str(slow), "timeout": 1},
        {"type": "command", "command": f"{sys.executable} {halt}"}]}]}}))
    kernel = Kernel(plugins=[tracing])
    kernel.add_config("claude", settings)

    async def main() -> None:
        async with kernel.session(cwd=str(tmp_path)) as session:
            await session.tool_pre("Bash", {"command": "rm -rf x"})

    anyio.run(main)
    spans = exporter.get_finished_spans()
    (seam,) = by_name(spans, "hookwire.seam tool_pre")
    hooks = by_name(spans, "hookwire.hook ")
    assert len(hooks) == 3
    assert all(h.parent is not None and h.parent.span_id == seam.context.span_id
               for h in hooks)
    assert seam.attributes["hookwire.decision"] == "deny"
    assert seam.attributes["hookwire.halt"] is True
    assert seam.attributes["hookwire.hook_count"] == 3
    rows = {h.attributes["hookwire.command"].rsplit("/", 1)[-1]: h for h in hooks}
    denied, timed, halted = rows["deny.sh"], rows["slow.sh"], rows["halt.py"]
    assert denied.name == "hookwire.hook claude:PreToolUse"
    assert denied.attributes["hookwire.dialect"] == "claude"
    assert denied.attributes["hookwire.event"] == "PreToolUse"
    assert denied.attributes["hookwire.matcher"] == "Bash"
    assert denied.attributes["hookwire.exit_code"] == 2
    assert denied.attributes["hookwire.decision"] == "deny"
    assert denied.attributes["hookwire.timed_out"] is False
    assert denied.attributes["hookwire.duration_ms"] > 0
    assert timed.attributes["hookwire.timed_out"] is True
    assert timed.attributes["hookwire.outcome"] == "timed_out"
    assert timed.status.status_code is StatusCode.ERROR
    assert halted.attributes["hookwire.halt"] is True
    assert halted.attributes["hookwire.exit_code"] == 0


pydantic_ai = pytest.importorskip("pydantic_ai")


@pytest.mark.anyio
async def test_a_pydantic_ai_run_gives_one_span_per_hook(
        claude: Callable[..., Kernel], hook_log: Callable[..., list[dict[str, Any]]],
        project: Path, tracing: Tracing, exporter: InMemorySpanExporter) -> None:
    from pydantic_ai import Agent
    from pydantic_ai.messages import ModelMessage, ModelResponse, TextPart, ToolCallPart
    from pydantic_ai.models.function import AgentInfo, FunctionModel

    from hookwire.plugins.pydantic_ai import Hookwire

    kernel = claude(PreToolUse=[("guard", "bash")], UserPromptSubmit=["context"])
    kernel.register(tracing)
    turns: list[ModelResponse] = [
        ModelResponse(parts=[ToolCallPart("bash", {"command": "rm -rf build"})]),
        ModelResponse(parts=[ToolCallPart("bash", {"command": "echo hi"})]),
        ModelResponse(parts=[TextPart("done")]),
    ]

    def respond(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        return turns.pop(0)

    def bash(command: str) -> str:
        """Run a shell command."""
        return "ran " + command

    agent = Agent(FunctionModel(respond), tools=[bash],
                  capabilities=[Hookwire(kernel, cwd=str(project))])
    result = await agent.run("tidy up")
    assert result.output == "done"
    ran = hook_log()
    assert [r["mode"] for r in ran] == ["context", "guard", "guard"]
    spans = exporter.get_finished_spans()
    hooks = by_name(spans, "hookwire.hook ")
    assert len(hooks) == len(ran)
    assert sorted(h.attributes["hookwire.event"] for h in hooks) == [
        "PreToolUse", "PreToolUse", "UserPromptSubmit"]
    exits = sorted(h.attributes["hookwire.exit_code"] for h in hooks)
    assert exits == [0, 0, 2]
    decisions = sorted(h.attributes["hookwire.decision"] for h in hooks)
    assert decisions == ["deny", "none", "none"]
    seams = {s.context.span_id: s for s in by_name(spans, "hookwire.seam ")}
    assert all(h.parent is not None and h.parent.span_id in seams for h in hooks)
    assert {seams[h.parent.span_id].attributes["hookwire.seam"] for h in hooks
            if h.parent is not None} == {"tool_pre", "prompt_submit"}


@pytest.mark.parametrize("mode", ["enforce", "fail-closed", "shadow"])
def test_each_seam_span_names_the_enforcement_mode(tracing: Tracing,
                                                   exporter: InMemorySpanExporter,
                                                   mode: str) -> None:
    kernel = Kernel(plugins=[tracing], enforcement=mode)

    async def go() -> None:
        async with kernel.session(cwd=".") as session:
            await session.tool_pre("Bash", {"command": "ls"})
    anyio.run(go)
    seams = by_name(exporter.get_finished_spans(), "hookwire.seam")
    assert seams and all(s.attributes is not None
                         and s.attributes["hookwire.enforcement"] == mode for s in seams)
