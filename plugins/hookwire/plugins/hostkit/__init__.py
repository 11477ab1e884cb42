"""The host conformance kit: one scenario suite that any runtime adapter runs against itself.

An adapter's test module gives a :class:`HostHarness` (it builds an agent of its runtime with
the kit's tools and a scripted model, and reports what the model read and which tools ran),
then subclasses :class:`HostConformance`::

    class TestConformance(HostConformance):
        harness = MyRuntimeHarness()

Every scenario writes real hook scripts and real hook files (Claude Code settings, a Codex
``hooks.json``, a portable plugin) into ``tmp_path``, and checks what the runtime did: which
tool calls ran, with which input, and what the model read, in each dialect's own wording. A
scenario the runtime truly cannot express is listed in :attr:`HostHarness.cannot` with the
reason, and skipped with it.
"""

from __future__ import annotations

import abc
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, ClassVar

import attrs

from hookwire.kernel import Kernel


@attrs.frozen
class Call:
    """A tool call the scripted model makes."""

    name: str
    args: Mapping[str, Any]


#: One scripted model response: tool calls (made together), or a final text.
Step = Sequence[Call] | str


@attrs.define
class Transcript:
    """What happened in one run: ``requests`` (the text of everything the model read, per
    model request: see :func:`flatten`), ``ran`` (the kit tools that really ran, with their
    arguments), ``output`` (the run's final text) and ``error`` (what the run raised)."""

    requests: list[str] = attrs.field(factory=list)
    ran: list[tuple[str, dict[str, Any]]] = attrs.field(factory=list)
    output: str | None = None
    error: BaseException | None = None

    def read(self, text: str) -> bool:
        """Whether the model read ``text`` in some request."""
        return any(text in r for r in self.requests)


class KitTools:
    """The runtime's tools in every scenario, as plain functions for the harness to wrap:
    ``run_shell(cmd)``, ``save_file(path, text)`` and ``lookup(query)`` (an MCP tool's stand-in,
    mapped as ``mcp__docs__lookup``). They record their calls into the transcript; a command
    starting ``fail`` raises."""

    def __init__(self, transcript: Transcript) -> None:
        self.transcript = transcript

    def run_shell(self, cmd: str) -> str:
        self.transcript.ran.append(("run_shell", {"cmd": cmd}))
        if cmd.startswith("fail"):
            raise RuntimeError(f"command failed: {cmd}")
        return f"ran: {cmd}"

    def save_file(self, path: str, text: str) -> str:
        self.transcript.ran.append(("save_file", {"path": path, "text": text}))
        return f"saved {len(text)} characters to {path}"

    def lookup(self, query: str) -> str:
        self.transcript.ran.append(("lookup", {"query": query}))
        return f"found: {query}"

    def functions(self) -> list[Callable[..., str]]:
        """The three tools as plain functions with their names, docstrings and annotations,
        for a runtime that builds its tools from functions (``[tool(f) for f in ...]``)."""

        def run_shell(cmd: str) -> str:
            """Run a shell command."""
            return self.run_shell(cmd)

        def save_file(path: str, text: str) -> str:
            """Save a file."""
            return self.save_file(path, text)

        def lookup(query: str) -> str:
            """Look something up in the docs."""
            return self.lookup(query)

        return [run_shell, save_file, lookup]


#: The kit's ``tools:`` mapping (the hooks file's shape), given to every scenario's kernel.
TOOLS: Mapping[str, Any] = {
    "run_shell": {"as": "Bash", "input": {"command": "cmd"}},
    "save_file": {"as": "Write", "input": {"file_path": "path", "content": "text"}},
    "lookup": "mcp__docs__lookup",
}


class HostHarness(abc.ABC):
    """What an adapter gives the kit."""

    #: The runtime's name, for messages.
    name: ClassVar[str] = "runtime"
    #: Scenario name → why this runtime cannot express it (the coverage table's entry).
    cannot: ClassVar[Mapping[str, str]] = {}
    #: Why a failed tool's exception text never reaches the adapter (the runtime replaces it
    #: with a message of its own, which ``tool_failure`` then reports); ``None``: it does.
    hides_tool_errors: ClassVar[str | None] = None
    #: Why the runtime itself runs a failing tool again before reporting it once (``None``:
    #: it does not).
    retries_failed_tools: ClassVar[str | None] = None
    #: Why the runtime itself words what the model reads of a hook's refusal (the Claude Code
    #: CLI does, for every hook it asks): the scenarios then check that the hook's own text
    #: reached the model, not hookwire's wording of it (``None``: hookwire words it).
    renders: ClassVar[str | None] = None
    #: The argument the runtime's agent-as-a-tool takes its request in.
    delegate_arg: ClassVar[str] = "request"

    @abc.abstractmethod
    def run(self, kernel: Kernel, *, cwd: Path, prompt: str, script: Sequence[Step],
            tools: KitTools) -> Transcript:
        """Run one user turn: an agent of the runtime with the adapter on ``kernel`` (session
        ``cwd``), the tools of ``tools`` (under the names ``run_shell``, ``save_file`` and
        ``lookup``), and a scripted model answering ``script`` in order (a request beyond it
        answers ``"done"``), each request recorded with :func:`flatten`. Catch the run's
        exception into ``error``; close the adapter's session before returning."""

    def run_nested(self, kernel: Kernel, *, cwd: Path, prompt: str, script: Sequence[Step],
                   inner_script: Sequence[Step], tools: KitTools) -> Transcript:
        """Like :meth:`run`, with one more tool, ``delegate(request)`` (the argument named by
        :attr:`delegate_arg`), that runs an inner agent
        (the tool ``run_shell`` only, a scripted model answering ``inner_script``) the way the
        runtime runs a sub-agent from a tool (``AgentTool``, an agent called inside a tool
        function...), given no hookwire adapter of its own unless the runtime needs one.
        Record both models' requests. A runtime without sub-agents lists ``nested_agent`` in
        :attr:`cannot` instead."""
        raise NotImplementedError(f"{self.name} has no run_nested()")


def flatten(value: Any) -> str:
    """Every string in ``value`` (mappings, sequences, dataclasses, pydantic models, objects
    with ``__dict__``), one per line: what a scripted model read, to search for texts."""
    out: list[str] = []
    _strings(value, out, 0)
    return "\n".join(out)


def _strings(value: Any, out: list[str], depth: int) -> None:
    if depth > 40 or value is None:
        return
    if isinstance(value, str):
        out.append(value)
    elif isinstance(value, bytes | int | float | bool):
        return
    elif isinstance(value, Mapping):
        for item in value.values():
            _strings(item, out, depth + 1)
    elif isinstance(value, list | tuple | set | frozenset):
        for item in value:
            _strings(item, out, depth + 1)
    elif hasattr(value, "model_dump"):
        _strings(value.model_dump(), out, depth + 1)
    elif hasattr(value, "__dict__"):
        _strings(vars(value), out, depth + 1)
    elif hasattr(value, "__slots__"):
        _strings({s: getattr(value, s, None) for s in value.__slots__}, out, depth + 1)


def scripted(script: Sequence[Step]) -> Callable[[], Step]:
    """The next response of ``script`` at each call (``"done"`` past its end)."""
    steps = list(script)

    def step() -> Step:
        return steps.pop(0) if steps else "done"

    return step


from hookwire.plugins.hostkit.scenarios import HostConformance  # noqa: E402

__all__ = [
    "TOOLS",
    "Call",
    "HostConformance",
    "HostHarness",
    "KitTools",
    "Step",
    "Transcript",
    "flatten",
    "scripted",
]

