""""Can anything match this tool?" per seam, answered before any event is built.

A tool seam with configured hooks usually runs nothing: every matcher names other tools. The
answer depends only on the tool's name, the hooks on the seam, the native plugins on it and
the tool mappings, so it is computed once per (seam, tool name) from the dialects' matchers
(:meth:`Dialect.matches_tool`) and kept until one of those changes. Anything it cannot decide
cheaply counts as "something may match": a native plugin or an audit observer on the seam, a
mapped tool, a group whose native event the dialect picks per event, a matcher that raises.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from hookwire.events import Seam
from hookwire.verdicts import Verdict, plain_verdict

if TYPE_CHECKING:
    from hookwire.dispatch import Dispatcher
    from hookwire.index import Group

#: Tool names remembered per seam before the answers are forgotten (a runtime has few tools).
_MAX_NAMES = 1024


class MatchCheck:
    """Cached per-seam answers; :meth:`nothing_can_match` is the whole API."""

    def __init__(self, dispatcher: Dispatcher) -> None:
        self._dispatcher = dispatcher
        self._index = dispatcher.index
        self._registry = dispatcher.registry
        self._tools = dispatcher.tools
        # seam -> (the index's groups and the seam's plugins it was computed from,
        #          tool name -> nothing can match)
        self._answers: dict[Seam, tuple[object, object, dict[str, bool]]] = {}
        # seam -> the last "nothing ran" verdict, handed out again for an equal input
        self._plain: dict[Seam, Verdict] = {}

    def plain(self, tool_name: str, tool_input: Mapping[str, Any], seam: Seam = Seam.TOOL_PRE
              ) -> Verdict | None:
        """The verdict of a call on ``seam`` that certainly runs nothing (``None``: dispatch
        it). Its ``original_input`` and ``effective_input`` equal ``tool_input`` (a copy of
        it); the same immutable verdict is returned while the calls' inputs stay equal."""
        # nothing_can_match, inlined: this is the whole cost of a call that runs nothing
        cached = self._answers.get(seam)
        registry = self._registry
        if (cached is not None and cached[0] is self._index.by_seam.get(seam, ())
                and cached[1] is registry.impls.get(seam) and not registry.observed
                and not self._tools.active):
            nothing = cached[2].get(tool_name)
            if nothing is None:
                nothing = self._compute(seam, tool_name)
        else:
            nothing = self.nothing_can_match(seam, tool_name)
        if not nothing:
            return None
        last = self._plain.get(seam)
        if last is not None and last.original_input == tool_input:
            return last
        verdict = self._plain[seam] = plain_verdict(seam, dict(tool_input))
        return verdict

    def nothing_can_match(self, seam: Seam, tool_name: str) -> bool:
        """True only when dispatching a call of ``tool_name`` on ``seam`` would certainly run
        no hook and no plugin, so the kernel's plain verdict can be returned at once."""
        cached = self._answers.get(seam)
        registry = self._registry
        # valid while the same groups and plugin tuple are in place (both are rebuilt, never
        # mutated, when hooks or plugins change), no observer listens and nothing is mapped
        if (cached is not None and cached[0] is self._index.groups(seam)
                and cached[1] is registry.impls.get(seam) and not registry.observed
                and not self._tools):
            answer = cached[2].get(tool_name)
            if answer is not None:
                return answer
        return self._compute(seam, tool_name)

    def _compute(self, seam: Seam, tool_name: str) -> bool:
        registry = self._registry
        if registry.observed:
            return False
        impls = registry.seam_impls(seam)
        if impls or (self._tools and self._tools.get(tool_name) is not None):
            return False
        groups = self._index.groups(seam)
        cached = self._answers.get(seam)
        if cached is None or cached[0] is not groups or cached[1] is not impls:
            cached = self._answers[seam] = (groups, impls, {})
        answers = cached[2]
        if len(answers) >= _MAX_NAMES:
            answers.clear()
        answer = answers[tool_name] = not any(_may_match(g, tool_name) for g in groups)
        return answer


def _may_match(group: Group, tool_name: str) -> bool:
    if group.ambiguous:
        return True  # the dialect picks the native event per event: ask it at dispatch
    dialect = group.dialect
    for entry in group.entries:
        try:
            if dialect.matches_tool(entry, group.native, tool_name):
                return True
        except Exception:  # a dialect bug: let the full dispatch deal with it
            return True
    return False
