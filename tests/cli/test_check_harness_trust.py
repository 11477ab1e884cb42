"""`hookwire check` tells a hook the harness disabled from one it does not trust by the
:class:`~hookwire.HarnessTrust` the dialect returns, never by the wording of its reason."""

from __future__ import annotations

from pathlib import Path

import pytest

from hookwire import HarnessTrust, HookEntry, Kernel, ProblemKind, Provenance
from hookwire._cli_check import _status
from hookwire.testing import EchoDialect
from hookwire.trust import TrustStore


class Harness(EchoDialect):
    """A harness that keeps its own trust records: ``handler`` is the verdict to return."""

    def harness_trust(self, entry: HookEntry) -> HarnessTrust:
        return entry.handler  # type: ignore[no-any-return]


@pytest.mark.parametrize(("verdict", "status"), [
    (HarnessTrust(runs=False, why="switched off by the user", kind=ProblemKind.DISABLED),
     "disabled"),
    (HarnessTrust(runs=False, why="disabled? no: never approved", kind=ProblemKind.UNTRUSTED),
     "untrusted"),
    (HarnessTrust(runs=False, why="no kind given"), "untrusted"),
    (HarnessTrust(runs=True, why="approved in the harness"), "runs"),
])
def test_status_comes_from_the_kind_not_the_reason(tmp_path: Path, verdict: HarnessTrust,
                                                   status: str) -> None:
    script = tmp_path / "hook.sh"
    script.write_text("#!/bin/sh\n")
    script.chmod(0o755)
    kernel = Kernel(load_entry_points=False)
    kernel.add_dialect(Harness())
    entry = HookEntry(dialect="echo", event="tool_pre", command=(str(script),),
                      provenance=Provenance.LIVE, handler=verdict)
    store = TrustStore(tmp_path / "trust.json")
    found, detail = _status(kernel, kernel.hosts["reference"], entry, store, str(tmp_path))
    assert found == status
    assert detail.endswith(f"echo's own trust record: {verdict.why}")


def test_a_dialect_that_fails_to_say_leaves_the_decision_to_hookwire() -> None:
    from hookwire import trust

    class Broken(EchoDialect):
        def harness_trust(self, entry: HookEntry) -> HarnessTrust:
            raise RuntimeError("no records here")

    kernel = Kernel(load_entry_points=False)
    kernel.add_dialect(Broken())
    entry = HookEntry(dialect="echo", event="tool_pre", command=("true",),
                      provenance=Provenance.LIVE)
    assert trust.dialect_trust(kernel, entry) == HarnessTrust()
