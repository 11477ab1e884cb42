"""Codex: ``$CODEX_HOME/hooks.json`` (user; ``~/.codex`` when unset) or
``<repo>/.codex/hooks.json`` (project), groups as Claude Code's, plus ``[features] hooks = true``
in the matching ``config.toml``.

Codex runs a non-managed hook only once it is trusted: ``[hooks.state."<key>"] trusted_hash``
in the user's ``$CODEX_HOME/config.toml``, the key positional (``<hooks.json>:<event>:<group>:
<handler>``), the hash Codex's own (``hookwire.dialects.codex.trust``). The installer records
exactly that for each entry it writes, as Codex's ``/hooks`` would, each table marked with the
plugin root; uninstall removes those tables (and any trust the user recorded for the same
entries) and moves the trust records of the groups after a removed one down one position, so a
hook the user added later stays trusted. The TOML is edited as text: nothing else moves.
"""

from __future__ import annotations

import json
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
    env_dir,
    need_project,
    written_group,
)
from hookwire.plugins.install._jsonfile import parse as parse_json
from hookwire.plugins.install.capability import NATIVE, PARTIAL, Capabilities, Support
from hookwire.plugins.install.plan import read_bytes
from hookwire.verdicts import Context

MARK = "  # added by hookwire install (portable hooks)"
FLAG = "hooks = true" + MARK
TRUST_MARK = "  # trusted by hookwire install for "
#: created_keys entry: the file had no ``[hooks.state`` table before the install
NO_STATE = "hooks.state-absent"
_STATE = re.compile(r'^\[hooks\.state\.("(?:[^"\\]|\\.)*")\](.*)$')
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
        notes=("the installed hooks are trusted in $CODEX_HOME/config.toml [hooks.state] as "
               "Codex's /hooks records it (project hooks also need a trusted project)",
               "PreToolUse gets no context: Codex rejects additionalContext there"),
    )
    fast_entry = {"reply": "additional_context"}
    fields = {"turn_id": ("turn_id",)}

    def targets(self, scope: str, home: Path, project: Path | None,
                plugin: PluginHooks) -> list[Target]:
        user = env_dir("CODEX_HOME", home, home / ".codex")
        if scope == "user":
            return [Target(path=user / "hooks.json"),
                    Target(path=user / "config.toml", kind="text", role="config")]
        base = need_project(project, self.name) / ".codex"
        return [Target(path=base / "hooks.json"),
                Target(path=base / "config.toml", kind="text", role="feature-flag"),
                Target(path=user / "config.toml", kind="text", role="trust")]

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
        created: list[str] = []
        warnings: list[str] = []
        if target.role in ("config", "feature-flag"):
            text = self._flag(target, text, created, warnings)
        if target.role in ("config", "trust"):
            if "[hooks.state" not in text:
                created.append(NO_STATE)
            text = _set_trust(text, ctx.root, self._trust(target, ctx))
        after: bytes | None = text.encode("utf-8")
        if before is None and not text:
            after = None
        return Built(after=before if after == before else after, created_keys=tuple(created),
                     warnings=tuple(warnings))

    def _flag(self, target: Target, text: str, created: list[str], warnings: list[str]) -> str:
        state = _flag_state(text)
        if state is not None:  # set already (by the user, or by an earlier install)
            if state != "true":
                warnings.append(f"{target.path} sets [features] hooks = {state}: Codex will not "
                                "run hooks until it is true (left as you set it)")
            return text
        lines = text.splitlines(keepends=True)
        header = next((i for i, ln in enumerate(lines)
                       if re.fullmatch(r"\s*\[features\]\s*(#.*)?", ln.rstrip("\n"))), None)
        if header is None:
            sep = "" if not text or text.endswith("\n\n") else ("\n" if text.endswith("\n")
                                                                else "\n\n")
            created += ["[features]", "hooks"]
            return text + sep + "[features]" + MARK + "\n" + FLAG + "\n"
        lines.insert(header + 1, FLAG + "\n")
        created.append("hooks")
        return "".join(lines)

    def _trust(self, target: Target, ctx: InstallContext) -> list[tuple[str, str]]:
        """(key, hash) of every handler this plugin's entries will have in hooks.json."""
        from hookwire.dialects.codex import events as cev
        from hookwire.dialects.codex import trust

        hooks_path = target.path.parent / "hooks.json" if target.role == "config" else None
        if hooks_path is None:  # project scope: the hooks file sits beside the flag file
            project = ctx.project
            if project is None:
                return []
            hooks_path = project / ".codex" / "hooks.json"
        hooks_target = Target(path=hooks_path)
        built = super().build(hooks_target, read_bytes(hooks_path), ctx)
        doc = parse_json(built.after, str(hooks_path))
        out: list[tuple[str, str]] = []
        for event, groups in (doc.get("hooks") or {}).items():
            if event not in cev.LABELS or not isinstance(groups, list):
                continue
            for gi, group in enumerate(groups):
                if not self._is_ours(group, ctx.root):
                    continue
                matcher = None if event in cev.MATCHERLESS else group.get("matcher")
                for hi, handler in enumerate(group["hooks"]):
                    timeout = handler.get("timeout")
                    if event in cev.SHORT_TIMEOUT_EVENTS:
                        timeout = cev.SHORT_DEFAULT_TIMEOUT if timeout is None else min(
                            max(timeout, 1), cev.SHORT_MAX_TIMEOUT)
                    else:
                        timeout = max(cev.DEFAULT_TIMEOUT if timeout is None else timeout, 1)
                    norm = {"command": handler["command"], "timeout": timeout,
                            "async": bool(handler.get("async", False)),
                            "statusMessage": handler.get("statusMessage")}
                    out.append((trust.hook_key(str(hooks_path), event, gi, hi),
                                trust.hook_hash(event, matcher, norm)))
        return out

    def unbuild(self, target: Target, current: bytes, root: str, created_keys: Sequence[str],
                created_file: bool) -> bytes | None:
        if target.kind != "text":
            return super().unbuild(target, current, root, created_keys, created_file)
        text = current.decode("utf-8")
        if target.role in ("config", "trust") or TRUST_MARK in text:
            text = _drop_trust(text, root, NO_STATE in created_keys)
        if "hooks" in created_keys:
            text = text.replace(FLAG + "\n", "", 1)
        if "[features]" in created_keys:
            text = re.sub(r"\n*\[features\]" + re.escape(MARK) + r"\n(?=\[|\Z)", "", text, count=1)
            if text and not text.endswith("\n"):
                text += "\n"
        if created_file and not text.strip():
            return None
        return text.encode("utf-8")

    def respond(self, native: str, contexts: Sequence[Context]) -> bytes:
        return additional_context(native, contexts, CONTEXT)


def _blocks(text: str) -> list[tuple[int, int, str, str]]:
    """Each ``[hooks.state."<key>"]`` table: (start line, end line, key, header comment)."""
    lines = text.splitlines(keepends=True)
    out = []
    for i, line in enumerate(lines):
        m = _STATE.match(line.rstrip("\n"))
        if not m:
            continue
        j = i + 1
        while j < len(lines) and not lines[j].lstrip().startswith("["):
            j += 1
        while j > i + 1 and not lines[j - 1].strip():
            j -= 1  # the blank lines before the next table are not this one's
        out.append((i, j, json.loads(m.group(1)), m.group(2)))
    return out


def _strip(text: str, drop: set[int]) -> str:
    """``text`` without the tables starting on the lines in ``drop`` (and one blank line each
    that separated them from what came before)."""
    lines = text.splitlines(keepends=True)
    blocks = {b[0]: b for b in _blocks(text)}
    keep: list[str] = []
    for i, line in enumerate(lines):
        owner = next((b for s, b in blocks.items() if s in drop and s <= i < b[1]), None)
        if owner is None:
            keep.append(line)
        elif i == owner[0] and keep and not keep[-1].strip():
            keep.pop()
    return "".join(keep)


def _set_trust(text: str, root: str, records: list[tuple[str, str]]) -> str:
    """``text`` with this plugin's trust tables replaced by ``records``."""
    ours = {b[0] for b in _blocks(text) if b[3] == TRUST_MARK + root}
    text = _strip(text, ours) if ours else text
    if not records:
        return text
    if text and not text.endswith("\n"):
        text += "\n"
    parts = [text] if text else []
    for key, digest in records:
        sep = "\n" if parts else ""
        parts.append(f"{sep}[hooks.state.{json.dumps(key)}]{TRUST_MARK}{root}\n"
                     f"trusted_hash = {json.dumps(digest)}\n")
    return "".join(parts)


def _split_key(key: str) -> tuple[str, str, int, int] | None:
    try:
        src, event, gi, hi = key.rsplit(":", 3)
        return src, event, int(gi), int(hi)
    except ValueError:
        return None


def _drop_trust(text: str, root: str, no_state_before: bool) -> str:
    """Remove this plugin's trust tables and any trust recorded for the same positions, and move
    the records of later groups of the same event down, as Codex counts positions."""
    blocks = _blocks(text)
    removed: dict[tuple[str, str], set[int]] = {}
    for _, _, key, comment in blocks:
        parts = _split_key(key)
        if comment == TRUST_MARK + root and parts:
            removed.setdefault(parts[:2], set()).add(parts[2])
    drop = set()
    for start, _, key, comment in blocks:
        parts = _split_key(key)
        if comment == TRUST_MARK + root or (parts and parts[2] in removed.get(parts[:2], ())):
            drop.add(start)
    lines = text.splitlines(keepends=True)
    for start, _, key, comment in blocks:
        parts = _split_key(key)
        if start in drop or parts is None or parts[:2] not in removed:
            continue
        shift = sum(1 for g in removed[parts[:2]] if g < parts[2])
        if shift:
            new = f"{parts[0]}:{parts[1]}:{parts[2] - shift}:{parts[3]}"
            eol = "\n" if lines[start].endswith("\n") else ""
            lines[start] = f"[hooks.state.{json.dumps(new)}]{comment}{eol}"
    text = _strip("".join(lines), drop)
    if no_state_before and not _blocks(text):
        text = re.sub(r"\n*^\[hooks\.state\][ \t]*(#.*)?\n(?=\s*(\[|\Z))", "\n", text,
                      flags=re.M)
        text = text.lstrip("\n") if not text.strip() else text
    return text


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
