"""The ``permissions`` rules of the settings files, applied to a hook's ``allow``.

In Claude Code 2.1.332 a PreToolUse hook's ``allow`` skips the permission prompt but never a
``deny`` or ``ask`` rule of the settings (observed: ``permissions.deny: ["Bash(echo:*)"]`` with
a hook answering ``allow`` gave the tool result ``Permission to use Bash with command echo
hello has been denied.``; ``permissions.ask: ["Bash"]`` asked). Nor does a hook's ``ask`` turn
a deny rule into a prompt. Rules of every settings file apply together, deny before ask.

A rule is written as for ``if`` (``Bash(git *)``, ``Edit(src/**)``) and matched by
:mod:`.rules`; where the match cannot be decided (an unparsable command, an expansion not
known before the command runs) the rule applies, the safe side for a deny or ask rule. A rule
that does not parse is reported and left out. ``allow`` rules are the host's own approval
path: they change nothing a hook answered.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

import attrs

from hookwire.dialects.claude import rules as _rules
from hookwire.verdicts import Answer, Decision, Source, SourceKind

#: The ``event`` of the :class:`Source` a rule's answer carries (the renderer tells it apart).
RULE_EVENT = "permissions"
KINDS = ("allow", "deny", "ask")


@attrs.frozen(kw_only=True)
class Rule:
    """One rule: ``kind`` (``deny``, ``ask`` or ``allow``), its ``text`` and the ``file``."""

    kind: str
    text: str
    file: str

    @property
    def source(self) -> Source:
        return Source(kind=SourceKind.HOOK, name=f"permissions.{self.kind}: {self.text}",
                      dialect="claude", event=RULE_EVENT)


def read(value: Any, file: str,
         problem: Callable[[str, tuple[str | int, ...]], None]) -> tuple[Rule, ...]:
    """The rules of one file's ``permissions`` object (``None``: none). ``problem(message,
    path)`` is told of each part left out, its path relative to ``permissions``."""
    if value is None:
        return ()
    if not isinstance(value, Mapping):
        problem("`permissions` must be an object; its rules are not applied", ())
        return ()
    out: list[Rule] = []
    for kind in KINDS:
        items = value.get(kind)
        if items is None:
            continue
        if not isinstance(items, list):
            problem(f"`permissions.{kind}` must be a list of rules; ignored", (kind,))
            continue
        for i, text in enumerate(items):
            if not isinstance(text, str) or _rules.parse(text) is None:
                problem(f"permission rule {text!r} cannot be read; ignored", (kind, i))
                continue
            out.append(Rule(kind=kind, text=text, file=file))
    return tuple(out)


def apply(answer: Answer, rules: Iterable[Rule], tool_name: str,
          tool_input: Mapping[str, Any], *, cwd: str, project_dir: str) -> Answer:
    """``answer`` of one PreToolUse hook with the settings rules applied: an ``allow`` or
    ``ask`` meets a matching deny rule (denied), an ``allow`` a matching ask rule (asked). A
    rewritten input is what the rules are tested on."""
    if answer.decision not in (Decision.ALLOW, Decision.ASK):
        return answer
    tried = answer.updated_input if answer.updated_input is not None else tool_input
    kinds = ("deny", "ask") if answer.decision is Decision.ALLOW else ("deny",)
    for kind in kinds:
        for rule in rules:
            if rule.kind == kind and _rules.allows(rule.text, tool_name, tried, cwd=cwd,
                                                   project_dir=project_dir):
                if kind == "deny":
                    return attrs.evolve(answer, decision=Decision.DENY,
                                        reason=denied(tool_name, tried), updated_input=None,
                                        source=rule.source)
                return attrs.evolve(answer, decision=Decision.ASK, source=rule.source,
                                    reason=f"{tool_name} needs approval: settings rule "
                                           f"`{rule.text}` (permissions.ask, {rule.file})")
    return answer


def denied(tool_name: str, tool_input: Mapping[str, Any]) -> str:
    """Claude Code's text for a call a deny rule refused (the Bash form was observed)."""
    command = tool_input.get("command")
    if isinstance(command, str):
        return f"Permission to use {tool_name} with command {command} has been denied."
    return f"Permission to use {tool_name} has been denied."


def is_rule(source: Source) -> bool:
    """Whether ``source`` is a settings rule's (see :attr:`Rule.source`)."""
    return source.kind is SourceKind.HOOK and source.event == RULE_EVENT
