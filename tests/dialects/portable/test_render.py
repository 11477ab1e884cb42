"""The portable profile's rendering (``portable/render.py``): observe-only hooks whose context
results reach the model in hookwire's neutral labelled form, as the profile asks."""

from __future__ import annotations

from hookwire.dialects.portable import PortableDialect
from hookwire.dialects.portable.render import render
from hookwire.events import Seam
from hookwire.render import Placement, Subject, neutral
from hookwire.render import render as render_verdict
from hookwire.verdicts import Context, Source, SourceKind, Verdict


def test_a_context_result_is_labelled_with_its_hook() -> None:
    source = Source(kind=SourceKind.HOOK, name="./bin/brief", dialect="portable",
                    event="turn-start")
    verdict = Verdict(seam=Seam.PROMPT_SUBMIT, contexts=(Context(text="sprint 12", source=source),))
    [text] = render(verdict, Subject(prompt="hi"))
    assert text.text == f"[hookwire: context from {source.label()}]\nsprint 12"
    assert text.placement is Placement.AFTER_PROMPT and text.role == "system"
    assert text.source == source
    assert render(verdict, Subject()) == neutral(verdict, Subject())
    dialect = PortableDialect()
    assert render_verdict(verdict, lambda name: dialect, Subject()) == [text]
