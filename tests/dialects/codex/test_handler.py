"""The typed handler: Codex's trust bookkeeping, hookwire's options, what an import keeps."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hookwire import ConfigError, HarnessTrust, HookEntry, ProblemKind, Provenance
from hookwire.dialects.codex import CodexDialect
from hookwire.dialects.codex.handler import CodexHandler
from hookwire.dialects.codex.trust import TrustStatus


def entry(handler: CodexHandler, provenance: Provenance = Provenance.LIVE) -> HookEntry:
    return HookEntry(dialect="codex", event="Stop", command="x", handler=handler,
                     provenance=provenance)


def test_reader_fills_the_typed_handler(tmp_path: Path) -> None:
    path = tmp_path / "hooks.json"
    path.write_text(json.dumps({"hooks": {"PostToolUse": [{"hooks": [
        {"type": "command", "command": "x", "statusMessage": "s",
         "additionalContextLimit": 50}]}]}}))
    (e,) = CodexDialect(codex_home=tmp_path / "home").read_config(path).entries
    assert isinstance(e.handler, CodexHandler) and CodexDialect.handler_type is CodexHandler
    assert e.handler.status_message == "s" and e.handler.context_limit == 50
    assert e.handler.key == f"{path}:post_tool_use:0:0"
    assert e.handler.trust is TrustStatus.UNTRUSTED


def test_handler_from_options_takes_an_older_imports_keys_and_rejects_unknown_ones() -> None:
    d = CodexDialect()
    old = {"managed": False, "key": "k", "hash": "h", "trust": "untrusted", "enabled": True,
           "context_limit": 10, "context_limit_set": True}
    assert d.handler_from_options(old).context_limit == 10
    with pytest.raises(ConfigError, match="colour"):
        d.handler_from_options({"colour": 1})
    with pytest.raises(ConfigError, match="onFailure"):
        d.handler_from_options({"onFailure": "block"})
    assert d.handler_from_options({"onFailure": "continue"}) == CodexHandler()


def test_export_keeps_what_runs_and_rejects_what_codex_disabled() -> None:
    d = CodexDialect()
    h = CodexHandler(key="k", hash="h", trust=TrustStatus.TRUSTED, status_message="s",
                     context_limit=9, env={"PLUGIN_ROOT": "/p"})
    exported = d.export(entry(h))
    assert exported.options == {"status_message": "s", "context_limit": 9,
                                "env": {"PLUGIN_ROOT": "/p"}}
    assert d.handler_from_options(exported.options).context_limit == 9
    assert d.export(entry(CodexHandler(key="k", hash="h"))).options == {}
    assert "enabled = false" in (d.export(entry(CodexHandler(key="k", enabled=False)))
                                 .rejected or "")


def test_harness_trust_applies_to_hooks_read_live_from_a_codex_file(tmp_path: Path) -> None:
    d = CodexDialect(codex_home=tmp_path)
    assert d.harness_trust(entry(CodexHandler(key="k", hash="h", trust=TrustStatus.TRUSTED))) \
        == HarnessTrust(runs=True, why="trusted")
    untrusted = d.harness_trust(entry(CodexHandler(key="k", hash="h")))
    assert untrusted.runs is False and "trust it with" in untrusted.why
    assert untrusted.kind is ProblemKind.UNTRUSTED
    disabled = d.harness_trust(entry(CodexHandler(key="k", hash="h", enabled=False)))
    assert disabled.runs is False and disabled.kind is ProblemKind.DISABLED
    assert d.harness_trust(entry(CodexHandler(key="k", hash="h"), Provenance.IMPORTED)) \
        == HarnessTrust()
    assert d.harness_trust(entry(CodexHandler())) == HarnessTrust()


def test_config_paths_are_the_project_layer(tmp_path: Path) -> None:
    assert CodexDialect().config_paths(tmp_path) == [
        tmp_path / ".codex" / "hooks.json", tmp_path / ".codex" / "config.toml"]
