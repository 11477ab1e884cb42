"""Tool vocabulary: a runtime's tools mapped once onto the tools hooks are written against.

Hooks are written against their harness's tools: a Claude Code guard matches ``Bash`` and reads
``.tool_input.command``; a Codex hook matches ``apply_patch`` (or its aliases ``Write`` and
``Edit``). A runtime calls its shell tool ``run_shell`` with an argument ``cmd``. A
:class:`ToolMapping` says, once, which harness tool a runtime tool is and which runtime argument
carries each harness field::

    kernel.map_tool("run_shell", "Bash", input={"command": "cmd"})

or, in a hooks file, ``tools: {run_shell: {as: Bash, input: {command: cmd}}}``. From then on the
kernel shows every dialect's hooks the call in their own harness's name and shape (each
dialect's :class:`Vocabulary` turns the mapped name into its own: Codex sees ``Write`` as an
``apply_patch``), matchers test that name, and a rewrite (``updatedInput``) travels back to the
runtime's own argument names before the host revalidates it. Native plugins keep seeing the
runtime's own call. An unmapped tool keeps its own name and input.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

import attrs

from hookwire.errors import ConfigError, did_you_mean

#: ``mcp__<server>__<tool>``: the name Claude Code and Codex give a tool of an MCP server.
MCP_NAME = re.compile(r"mcp__[^_].*?__.+")


def mcp_name(server: str, tool: str) -> str:
    """The harness name of ``tool`` on MCP server ``server``: ``mcp__server__tool``."""
    return f"mcp__{server}__{tool}"


@attrs.frozen(kw_only=True)
class ToolShape:
    """One tool of a harness: its ``name``, the input ``fields`` it takes (in the harness's
    order; ``required`` ones first), and ``aliases`` its matchers also answer to."""

    name: str
    fields: tuple[str, ...] = ()
    required: tuple[str, ...] = ()
    aliases: tuple[str, ...] = ()


@attrs.frozen(kw_only=True)
class Vocabulary:
    """The tools of one harness, as its dialect knows them.

    :meth:`view` turns a call named in the mapped vocabulary into this harness's name and input
    (the base class keeps both: the name a mapping gives is the name its hooks see);
    :meth:`unview` turns a hook's rewrite back (``None``: it cannot be carried back).
    Dialects whose harness spells a tool differently (Codex's ``apply_patch`` for ``Write``)
    subclass it.
    """

    tools: Mapping[str, ToolShape] = attrs.field(factory=dict)

    def knows(self, name: str) -> bool:
        """Whether ``name`` is a tool (or an alias, or an MCP tool name) of this harness."""
        if name in self.tools or MCP_NAME.fullmatch(name):
            return True
        return any(name in shape.aliases for shape in self.tools.values())

    def shape(self, name: str) -> ToolShape | None:
        """The shape of tool ``name`` (by name or alias)."""
        found = self.tools.get(name)
        if found is None:
            found = next((s for s in self.tools.values() if name in s.aliases), None)
        return found

    def view(self, name: str, tool_input: Mapping[str, Any]) -> tuple[str, dict[str, Any]]:
        """This harness's name and input for a call mapped as ``name`` with ``tool_input``."""
        return name, dict(tool_input)

    def unview(self, name: str, viewed: str, updated: Mapping[str, Any]
               ) -> dict[str, Any] | None:
        """A hook's rewrite of the call it saw as ``viewed`` (mapped as ``name``), in the
        mapped vocabulary; ``None`` when it cannot be expressed there."""
        return dict(updated)


#: The vocabulary of a dialect that declares none: every name is its own.
EMPTY = Vocabulary()


@attrs.frozen(kw_only=True)
class ToolMapping:
    """Runtime tool ``runtime`` is harness tool ``harness``; ``input`` maps each harness field
    to the runtime argument that carries it (``{"command": "cmd"}``)."""

    runtime: str
    harness: str
    input: Mapping[str, str] = attrs.field(factory=dict)

    def to_harness(self, runtime_input: Mapping[str, Any]) -> dict[str, Any]:
        """The call's input with each mapped argument under its harness name; arguments with
        no mapping keep their own names (nothing the tool got is hidden from a hook)."""
        out: dict[str, Any] = {}
        carried = set()
        for field, arg in self.input.items():
            if arg in runtime_input:
                out[field] = runtime_input[arg]
                carried.add(arg)
        for arg, value in runtime_input.items():
            if arg not in carried and arg not in out:
                out[arg] = value
        return out

    def to_runtime(self, harness_input: Mapping[str, Any], known: Iterable[str] = ()
                   ) -> dict[str, Any]:
        """A rewrite in harness fields, back in the runtime's argument names. Harness fields
        the runtime tool has no argument for (``known``: the harness tool's fields, such as
        Bash's ``description``) are dropped; anything else is kept for the host to validate."""
        back = {field: arg for field, arg in self.input.items()}
        unmapped_fields = set(known) - set(back)
        out: dict[str, Any] = {}
        for key, value in harness_input.items():
            if key in back:
                out[back[key]] = value
            elif key not in unmapped_fields:
                out[key] = value
        return out


class ToolMap:
    """Every runtime tool a host or hooks file mapped, by runtime name (a later mapping of the
    same runtime tool replaces the earlier one)."""

    def __init__(self) -> None:
        self._by_runtime: dict[str, ToolMapping] = {}
        #: whether any tool is mapped (a plain attribute: read on every dispatch)
        self.active = False

    def __bool__(self) -> bool:
        return self.active

    def __iter__(self) -> Any:
        return iter(self._by_runtime.values())

    def __len__(self) -> int:
        return len(self._by_runtime)

    def get(self, runtime: str) -> ToolMapping | None:
        return self._by_runtime.get(runtime)

    def map(self, mapping: ToolMapping, vocabularies: Mapping[str, Vocabulary]) -> None:
        """Add ``mapping`` once :func:`check_mapping` accepts it against ``vocabularies``."""
        check_mapping(mapping, vocabularies)
        self.add(mapping)

    def add(self, mapping: ToolMapping) -> None:
        self._by_runtime[mapping.runtime] = mapping
        self.active = True

    def harness_name(self, runtime: str, vocabulary: Vocabulary) -> str:
        """The name a hook of ``vocabulary``'s harness sees for runtime tool ``runtime``."""
        mapping = self._by_runtime.get(runtime)
        if mapping is None:
            return runtime
        return vocabulary.view(mapping.harness, {})[0]


def check_mapping(mapping: ToolMapping, vocabularies: Mapping[str, Vocabulary]) -> None:
    """Raise :class:`~hookwire.errors.ConfigError` unless ``mapping`` names a tool some
    installed dialect knows (or an MCP tool) with fields that tool has."""
    if not mapping.runtime:
        raise ConfigError("a tool mapping needs the runtime tool's name")
    harness = mapping.harness
    knowers = {d: v for d, v in vocabularies.items() if v.knows(harness)}
    if not knowers:
        names = sorted({n for v in vocabularies.values() for n in v.tools})
        hint = did_you_mean(harness, names)
        raise ConfigError(
            f"tool {mapping.runtime!r} is mapped as {harness!r}, which no installed dialect "
            f"knows{hint}; harness tools: {', '.join(names)}, or mcp__<server>__<tool>")
    if MCP_NAME.fullmatch(harness):
        return  # an MCP tool's input is its own arguments: no fixed fields
    fields = {f for v in knowers.values() if (s := v.shape(harness)) for f in s.fields}
    unknown = sorted(set(mapping.input) - fields)
    if unknown:
        raise ConfigError(
            f"tool {mapping.runtime!r} maps {', '.join(map(repr, unknown))}, which "
            f"{harness} does not take (its fields: {', '.join(sorted(fields)) or 'none'})")
    for field, arg in mapping.input.items():
        if not isinstance(arg, str) or not arg:
            raise ConfigError(f"tool {mapping.runtime!r}: the runtime argument of {field!r} "
                              "must be a non-empty string")


def parse_mappings(data: Mapping[str, Any]) -> list[ToolMapping]:
    """Mappings from the ``tools:`` shape: ``{runtime: {as: Harness, input: {field: arg}}}``
    (a bare string ``{runtime: Harness}`` maps the name alone)."""
    out: list[ToolMapping] = []
    for runtime, spec in data.items():
        if isinstance(spec, str):
            out.append(ToolMapping(runtime=runtime, harness=spec))
            continue
        if not isinstance(spec, Mapping) or not isinstance(spec.get("as"), str):
            raise ConfigError(f"tool {runtime!r}: expected {{as: <harness tool>, input: "
                              f"{{<field>: <argument>}}}}, got {spec!r}")
        extra = set(spec) - {"as", "input"}
        if extra:
            raise ConfigError(f"tool {runtime!r}: unknown key(s) {sorted(extra)} "
                              "(a mapping has `as` and `input`)")
        fields = spec.get("input") or {}
        if not isinstance(fields, Mapping):
            raise ConfigError(f"tool {runtime!r}: `input` must map harness fields to runtime "
                              "arguments")
        out.append(ToolMapping(runtime=runtime, harness=spec["as"], input=dict(fields)))
    return out


#: Words in a runtime tool's name that suggest the harness tool it probably is (for the
#: mapping a warning proposes; never applied on its own).
_LOOKS_LIKE = (
    (re.compile(r"shell|bash|exec|command|cmd|terminal|run", re.I), "Bash"),
    (re.compile(r"edit|replace|patch", re.I), "Edit"),
    (re.compile(r"write|create_file|save", re.I), "Write"),
    (re.compile(r"read|cat|open|view", re.I), "Read"),
    (re.compile(r"glob|find_files|list", re.I), "Glob"),
    (re.compile(r"grep|search_code|search_files", re.I), "Grep"),
    (re.compile(r"fetch|http|url|browse", re.I), "WebFetch"),
    (re.compile(r"web_search|search", re.I), "WebSearch"),
)


def guess(runtime: str) -> str | None:
    """The harness tool a runtime tool's name suggests (``run_shell`` → ``Bash``), if any."""
    for pattern, harness in _LOOKS_LIKE:
        if pattern.search(runtime):
            return harness
    return None


def view_event(event: Any, tools: ToolMap, vocabulary: Vocabulary) -> Any:
    """``event`` as the hooks of ``vocabulary``'s harness see it: each mapped tool under the
    harness's name and in its shape (``event`` itself when none of its tools is mapped).
    ``tool_batch`` events map each of their calls."""
    calls = getattr(event, "tool_calls", None)
    if calls is not None:
        viewed: list[Mapping[str, Any]] = []
        for call in calls:
            mapping = tools.get(str(call.get("tool_name")))
            if mapping is None:
                viewed.append(call)
                continue
            name, tool_input = vocabulary.view(
                mapping.harness, mapping.to_harness(call.get("tool_input") or {}))
            viewed.append({**call, "tool_name": name, "tool_input": tool_input})
        return attrs.evolve(event, tool_calls=tuple(viewed)) if viewed != list(calls) else event
    runtime = getattr(event, "tool_name", None)
    mapping = tools.get(runtime) if isinstance(runtime, str) else None
    if mapping is None:
        return event
    name, tool_input = vocabulary.view(mapping.harness,
                                       mapping.to_harness(getattr(event, "tool_input", {})))
    return attrs.evolve(event, tool_name=name, tool_input=tool_input)


def unview_input(updated: Mapping[str, Any], event: Any, view: Any, tools: ToolMap,
                 vocabulary: Vocabulary, shapes: Iterable[Vocabulary] = ()
                 ) -> dict[str, Any] | str:
    """A hook's rewrite of the call it saw as ``view`` carried back to the runtime's argument
    names of ``event``'s tool, or, when it cannot be, the reason why (a string)."""
    mapping = tools.get(str(getattr(event, "tool_name", "")))
    if mapping is None:
        return dict(updated)
    viewed = str(getattr(view, "tool_name", ""))
    back = vocabulary.unview(mapping.harness, viewed, updated)
    if back is None:
        return (f"the hook rewrote the {viewed} call into a form that runtime tool "
                f"{mapping.runtime!r} (mapped as {mapping.harness}) cannot take")
    shape = vocabulary.shape(mapping.harness) or next(
        (s for v in shapes if (s := v.shape(mapping.harness)) is not None), None)
    return mapping.to_runtime(back, known=shape.fields if shape else ())
