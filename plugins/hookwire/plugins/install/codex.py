"""Codex: ``~/.codex/hooks.json`` (user) or ``<repo>/.codex/hooks.json`` (project), groups as
Claude Code's, plus ``[features] hooks = true`` in the matching ``config.toml``.

The TOML is edited as text, one line (and the ``[features]`` header when there was none),
so nothing else in the file moves. Codex asks the user to review and trust new hooks in
``/hooks``; its trust keys are positional, and a second install changes nothing, so trust
survives reinstalling.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from hookwire.dialect import HookEntry
from hookwire.dialects.portable.config import PluginHooks
from hookwire.plugins.install._base import (
    Built,
    InstallContext,
    JsonHooksClient,
    Target,
    additional_context,
    need_project,
    written_group,
)
from hookwire.plugins.install.capability import NATIVE, PARTIAL, Capabilities, Support
from hookwire.verdicts import Context

MARK = "  # added by hookwire install (portable hooks)"
FLAG = "hooks = true" + MARK
CONTEXT = frozenset({"SessionStart", "UserPromptSubmit", "PostToolUse"})


class Codex(JsonHooksClient):
    name = "codex"
    display = "Codex"
    capabilities = Capabilities(
        events={
            "session-start": Support(level=NATIVE, natives=("SessionStart",)),
            "turn-start": Support(level=NATIVE, natives=("UserPromptSubmit",)),
            "pre-tool-use": Support(level=NATIVE, natives=("PreToolUse",)),
            "post-tool-use": Support(level=PARTIAL, natives=("PostToolUse",),
                                     note="denied calls get no post-tool-use"),
            "turn-end": Support(level=NATIVE, natives=("Stop",)),
            "session-end": Support(level=PARTIAL, natives=("SessionEnd",),
                                   note="Codex >= 0.145.0; 1 s default, 3 s cap: best effort"),
        },
        context=CONTEXT,
        notes=("review and trust the new hooks in Codex's /hooks (project hooks also need a "
               "trusted project)",
               "PreToolUse gets no context: Codex rejects additionalContext there"),
    )
    fast_entry = {"reply": "additional_context"}
    fields = {"turn_id": ("turn_id",)}

    def targets(self, scope: str, home: Path, project: Path | None,
                plugin: PluginHooks) -> list[Target]:
        base = home if scope == "user" else need_project(project, self.name)
        return [Target(path=base / ".codex" / "hooks.json"),
                Target(path=base / ".codex" / "config.toml", kind="text", role="feature-flag")]

    def entry(self, native: str, event: str, ctx: InstallContext) -> dict[str, Any]:
        from hookwire.dialects.codex import CodexDialect  # not on the shim's path

        cap = 3 if native == "SessionEnd" else 600
        hook = HookEntry(dialect=CodexDialect.name, event=native,
                         command=ctx.command(self.name, native),
                         timeout=max(1, round(ctx.timeout(event, cap=cap))))
        return written_group(CodexDialect(), hook)

    def build(self, target: Target, before: bytes | None, ctx: InstallContext) -> Built:
        if target.kind != "text":
            return super().build(target, before, ctx)
        text = (before or b"").decode("utf-8")
        state = _flag_state(text)
        if state is not None:  # set already (by the user, or by an earlier install)
            warn = () if state == "true" else (
                f"{target.path} sets [features] hooks = {state}: Codex will not run hooks "
                "until it is true (left as you set it)",)
            return Built(after=before, warnings=warn)
        lines = text.splitlines(keepends=True)
        header = next((i for i, ln in enumerate(lines)
                       if re.fullmatch(r"\s*\[features\]\s*(#.*)?", ln.rstrip("\n"))), None)
        if header is None:
            sep = "" if not text or text.endswith("\n\n") else ("\n" if text.endswith("\n")
                                                                else "\n\n")
            new = text + sep + "[features]" + MARK + "\n" + FLAG + "\n"
            created: tuple[str, ...] = ("[features]", "hooks")
        else:
            lines.insert(header + 1, FLAG + "\n")
            new = "".join(lines)
            created = ("hooks",)
        return Built(after=new.encode("utf-8"), created_keys=created)

    def unbuild(self, target: Target, current: bytes, root: str, created_keys: Sequence[str],
                created_file: bool) -> bytes | None:
        if target.kind != "text":
            return super().unbuild(target, current, root, created_keys, created_file)
        text = current.decode("utf-8")
        if "hooks" in created_keys:
            text = text.replace(FLAG + "\n", "", 1)
        if "[features]" in created_keys:
            text = re.sub(r"\n*\[features\]" + re.escape(MARK) + r"\n(?=\[|\Z)", "", text, count=1)
            if created_file and not text.strip():
                return None
            if text and not text.endswith("\n"):
                text += "\n"
        return text.encode("utf-8")

    def respond(self, native: str, contexts: Sequence[Context]) -> bytes:
        return additional_context(native, contexts, CONTEXT)


def _flag_state(text: str) -> str | None:
    """The value of ``hooks`` inside ``[features]`` (``None`` when absent)."""
    table = None
    for line in text.splitlines():
        stripped = line.strip()
        if stripped.startswith("["):
            table = stripped.split("#")[0].strip()
        elif table == "[features]":
            m = re.match(r"hooks\s*=\s*(\S+)", stripped)
            if m:
                return m.group(1)
    return None
