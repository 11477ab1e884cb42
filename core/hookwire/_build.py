"""What a :class:`~hookwire.Kernel` builds on first use: its dispatch loop, with the trust
gate on by default, the tool map and the match check."""

from __future__ import annotations

from typing import Any

from hookwire import _precheck, dispatch, runner, tools, trust


def dispatcher_of(kernel: Any, output_cap: int | None,
                  shell_elision: bool | None) -> dict[str, Any]:
    """The kernel's lazily built attributes: ``tools``, ``dispatcher``, ``dispatch`` and
    ``match_check``."""
    cap = runner.DEFAULT_OUTPUT_CAP if output_cap is None else output_cap
    built = dispatch.Dispatcher(kernel.registry, kernel.index, tools.ToolMap(), cap)
    built.shell_elision = shell_elision
    built.trust_gate = trust.TrustGate(kernel)  # safe by default (docs/trust.md)
    built.enforcement = kernel.enforcement
    return {"tools": built.tools, "dispatcher": built, "dispatch": built.dispatch,
            "match_check": _precheck.MatchCheck(built)}
