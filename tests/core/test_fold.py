"""Folding answers into verdicts: every rank pair, in both orders, and the non-decision fields."""

from __future__ import annotations

import itertools

import pytest

from hookwire import Answer, Context, Decision, Halt, Seam, Source, SourceKind
from hookwire.fold import fold

RANKED = [Decision.NONE, Decision.ALLOW, Decision.ASK, Decision.DEFER, Decision.DENY]


def src(name: str) -> Source:
    return Source(kind=SourceKind.PLUGIN, name=name)


@pytest.mark.parametrize(("a", "b"), list(itertools.permutations(RANKED, 2)))
def test_most_restrictive_wins_for_every_pair_in_both_orders(a: Decision, b: Decision) -> None:
    answers = [Answer(decision=a, reason=f"because {a}", source=src("one")),
               Answer(decision=b, reason=f"because {b}", source=src("two"))]
    verdict = fold(Seam.TOOL_PRE, answers)
    winner = a if RANKED.index(a) > RANKED.index(b) else b
    assert verdict.decision is winner
    if winner is Decision.NONE:
        assert verdict.reason is None
    else:
        assert verdict.reason == f"because {winner}"


def test_rank_order_is_deny_defer_ask_allow_none() -> None:
    ranks = [d.rank for d in RANKED]
    assert ranks == sorted(ranks) and len(set(ranks)) == len(ranks)
    assert Decision.BLOCK.rank == Decision.DENY.rank


def test_reasons_at_the_winning_rank_are_joined_and_all_are_kept() -> None:
    answers = [
        Answer(decision=Decision.ALLOW, reason="fine", source=src("a")),
        Answer(decision=Decision.DENY, reason="no rm", source=src("b")),
        Answer(decision=Decision.DENY, reason="no sudo", source=src("c")),
    ]
    verdict = fold(Seam.TOOL_PRE, answers)
    assert verdict.reason == "no rm\nno sudo"
    assert [(r.decision, r.text, r.source.name) for r in verdict.reasons] == [
        (Decision.ALLOW, "fine", "a"), (Decision.DENY, "no rm", "b"),
        (Decision.DENY, "no sudo", "c")]


def test_context_only_answers_never_veto_and_keep_their_sources() -> None:
    answers = [
        Answer(contexts=(Context(text="ctx one", source=src("a")),), source=src("a")),
        Answer(decision=Decision.ALLOW, source=src("b")),
        Answer(contexts=(Context(text="ctx two", source=src("c")),), source=src("c")),
    ]
    verdict = fold(Seam.TOOL_PRE, answers)
    assert verdict.decision is Decision.ALLOW
    assert not verdict.denied
    assert [(c.text, c.source.name) for c in verdict.contexts] == [("ctx one", "a"),
                                                                   ("ctx two", "c")]


def test_last_rewrite_wins_and_original_is_kept() -> None:
    original = {"command": "ls"}
    answers = [Answer(updated_input={"command": "ls -a"}),
               Answer(updated_input={"command": "ls -la"}), Answer()]
    verdict = fold(Seam.TOOL_PRE, answers, original_input=original)
    assert verdict.original_input == {"command": "ls"}
    assert verdict.effective_input == {"command": "ls -la"}
    assert verdict.input_rewritten
    assert verdict.to_json()["updated_input"] == {"command": "ls -la"}


def test_no_rewrite_reports_no_updated_input() -> None:
    verdict = fold(Seam.TOOL_PRE, [Answer(decision=Decision.ALLOW)],
                   original_input={"command": "ls"})
    assert verdict.effective_input == {"command": "ls"}
    assert not verdict.input_rewritten
    assert verdict.to_json()["updated_input"] is None


def test_halt_is_sticky_whatever_else_is_said() -> None:
    first = Halt(reason="stop everything", source=src("a"))
    second = Halt(reason="later halt", source=src("c"))
    verdict = fold(Seam.STOP, [Answer(halt=first), Answer(decision=Decision.BLOCK, reason="go"),
                               Answer(halt=second)])
    assert verdict.halt == first
    assert verdict.continue_turn  # a halt does not erase the decision; hosts check halt first
    assert verdict.to_json()["halt"]["reason"] == "stop everything"


def test_block_on_stop_seams_means_continue_not_deny() -> None:
    verdict = fold(Seam.STOP, [Answer(decision=Decision.BLOCK, reason="tests fail")])
    assert verdict.continue_turn and not verdict.denied
    assert verdict.to_json()["continue"] is True
    blocked = fold(Seam.PROMPT_SUBMIT, [Answer(decision=Decision.BLOCK, reason="secret")])
    assert blocked.denied and not blocked.continue_turn
    assert "continue" not in blocked.to_json()


def test_empty_fold_is_no_opinion() -> None:
    verdict = fold(Seam.TOOL_PRE, [])
    assert verdict.decision is Decision.NONE
    assert verdict.reason is None and verdict.contexts == () and verdict.halt is None


def test_system_messages_and_diagnostics_accumulate_in_order() -> None:
    verdict = fold(Seam.TOOL_POST, [Answer(system_messages=("a",), diagnostics=("d1",)),
                                    Answer(system_messages=("b",))], diagnostics=["d2"])
    assert verdict.system_messages == ("a", "b")
    assert verdict.diagnostics == ("d1", "d2")
