"""Why a configured hook will not run: found when a session starts, logged, never silent.

A hook that cannot run (its event never emitted by the host, its matcher able to match none of
the host's tools, its config broken) is a guard the user believes is on and is not. A session
computes its :class:`Problem` list when it starts (and again when the host declares its tools)
and logs each one once as a warning on the ``hookwire`` logger; adapters expose the list.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import attrs

from hookwire.dialect import ConfigProblem, Dialect, HookEntry, Location, ProblemKind

__all__ = ["Problem", "ProblemKind", "from_config", "hook_problems", "log_new", "outside_turn",
           "suggest"]
from hookwire.events import Seam
from hookwire.tools import ToolMap, guess

if TYPE_CHECKING:
    from hookwire.hosts import HostProfile

log = logging.getLogger("hookwire")

#: Seams whose matcher is tested against a tool name.
TOOL_SEAMS = frozenset({Seam.TOOL_PRE, Seam.TOOL_POST, Seam.TOOL_FAILURE, Seam.APPROVE})


@attrs.frozen(kw_only=True)
class Problem:
    """One reason something configured will not run: ``kind``, a ``message`` for a person,
    where it is written (``location``) and the ``entry`` it concerns, if one."""

    kind: ProblemKind
    message: str
    location: Location | None = None
    entry: HookEntry | None = attrs.field(default=None, eq=False)

    def __str__(self) -> str:
        where = f"{self.location}: " if self.location and self.location.file else ""
        return f"{where}{self.message}"


def from_config(problem: ConfigProblem) -> Problem:
    """A config reader's problem as a session problem (its kind kept)."""
    event = f" [{problem.event}]" if problem.event else ""
    return Problem(kind=problem.kind, message=f"{problem.message}{event}",
                   location=problem.location)


def _what(entry: HookEntry) -> str:
    matcher = f" matcher {entry.matcher!r}" if entry.matcher is not None else ""
    return f"{entry.dialect} {entry.event} hook{matcher} `{entry.display}`"


def _turned_off(dialect: Dialect, entry: HookEntry) -> bool:
    """Whether the harness's own settings turn ``entry`` off (Claude Code's
    ``disableAllHooks``, ``allowManagedHooksOnly``, Codex's ``enabled = false``): its dialect
    never selects it. A hook the harness has not trusted yet is not off: it stays named."""
    try:
        state = dialect.harness_trust(entry)
    except Exception:  # a dialect that cannot say: name the hook as waiting
        return False
    return state.runs is False and state.kind is ProblemKind.DISABLED


def hook_problems(entries: Iterable[HookEntry], dialects: Mapping[str, Dialect],
                  host: HostProfile | None, tools: Sequence[str] | None,
                  tool_map: ToolMap, gate: Any = None) -> list[Problem]:
    """The hooks among ``entries`` that cannot run for ``host`` (``None``: unknown, every seam
    assumed) with the runtime ``tools`` it declared (``None``: not declared, not checked), and
    those the trust ``gate`` holds back until someone approves them (named with the command
    that approves them)."""
    out: list[Problem] = []
    waiting = getattr(gate, "waiting", None)
    for entry in entries:
        dialect = dialects.get(entry.dialect)
        why = waiting(entry) if waiting is not None else None
        if why is not None:
            if dialect is not None and _turned_off(dialect, entry):
                continue  # its harness's settings turn it off: an approval would not run it
            out.append(Problem(kind=ProblemKind.PENDING, message=why, location=entry.location,
                               entry=entry))
            continue
        if dialect is None:
            continue
        spec = dialect.events.get(entry.event)
        if spec is None or spec.seam is None:
            out.append(Problem(kind=ProblemKind.NO_SEAM, location=entry.location, entry=entry,
                               message=f"{_what(entry)} never runs: hookwire has no seam for "
                                       f"{entry.dialect} event {entry.event}"))
            continue
        if host is not None and not host.emits(spec.seam):
            why = host.missing.get(spec.seam)
            out.append(Problem(kind=ProblemKind.NOT_EMITTED, location=entry.location,
                               entry=entry,
                               message=f"{_what(entry)} never runs: host {host.name} does not "
                                       f"emit {spec.seam.value}" + (f" ({why})" if why else "")))
            continue
        if tools is None or spec.seam not in TOOL_SEAMS or entry.matcher in (None, "", "*"):
            continue
        seen = [tool_map.harness_name(t, dialect.tools) for t in tools]
        if any(dialect.matches_tool(entry, entry.event, name) for name in seen):
            continue
        out.append(Problem(kind=ProblemKind.NO_TOOL_MATCHES, location=entry.location,
                           entry=entry, message=_unmatched(entry, dialect, tools, seen, host)))
    return out


def _unmatched(entry: HookEntry, dialect: Dialect, tools: Sequence[str], seen: Sequence[str],
               host: HostProfile | None) -> str:
    who = f"host {host.name}" if host is not None else "the host"
    shown = ", ".join(f"{t} (seen as {s})" if s != t else t for t, s in zip(tools, seen,
                                                                             strict=True))
    text = (f"{_what(entry)} can match none of the tools {who} declared: "
            f"{shown or '(no tools)'}")
    fix = suggest(entry, dialect, tools)
    if fix:
        text += f". If one of them is that tool, map it once, e.g. in the hooks file: {fix}"
    return text


def suggest(entry: HookEntry, dialect: Dialect, tools: Sequence[str]) -> str | None:
    """A ``tools:`` mapping that would let ``entry`` match one of ``tools`` (the tool whose
    name suggests a harness tool its matcher selects), as hooks-file text."""
    vocabulary = dialect.tools
    targets = [name for name in vocabulary.tools
               if dialect.matches_tool(entry, entry.event, name)]
    if not targets:
        return None
    runtime = next((t for t in tools if guess(t) in targets), None)
    harness = guess(runtime) if runtime is not None else targets[0]
    assert harness is not None
    shape = vocabulary.shape(harness)
    fields = ", ".join(f"{f}: <{runtime or 'tool'}'s argument>" for f in (
        shape.required if shape else ()))
    inputs = f", input: {{{fields}}}" if fields else ""
    return f"`tools: {{{runtime or '<runtime tool>'}: {{as: {harness}{inputs}}}}}`"


def log_new(problems: Iterable[Problem], seen: set[Any]) -> None:
    """Log each problem not logged before (``seen`` remembers them) as a warning."""
    for problem in problems:
        key = (problem.kind, problem.message, problem.location)
        if key in seen:
            continue
        seen.add(key)
        log.warning("%s", problem)


def outside_turn(entries: Iterable[HookEntry], dialects: Mapping[str, Dialect],
                 known: Sequence[Problem]) -> Problem | None:
    """The problem of ``prompt_submit`` called with no turn ever opened (prompt hooks among
    ``entries`` then silently never fire), unless ``known`` already has it."""
    hooks = [e for e in entries if (d := dialects.get(e.dialect)) is not None
             and (spec := d.events.get(e.event)) is not None and spec.seam is Seam.PROMPT_SUBMIT]
    if not hooks or any(p.kind is ProblemKind.PROMPT_OUTSIDE_TURN for p in known):
        return None
    return Problem(
        kind=ProblemKind.PROMPT_OUTSIDE_TURN,
        message=f"prompt_submit was called outside `session.turn()`: {len(hooks)} prompt "
                f"hook(s) ({', '.join(sorted({f'{e.dialect} {e.event}' for e in hooks}))}) "
                "did not fire. Open a turn at the runtime's entry point (`with "
                "session.turn(): ...`) or use `session.user_prompt(...)`")
