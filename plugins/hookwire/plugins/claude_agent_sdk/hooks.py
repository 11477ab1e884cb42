"""hookwire's hooks as Claude Agent SDK hook callbacks.

The Claude Agent SDK drives the real Claude Code CLI, which is the harness itself: the CLI
owns the loop, its tools and its permission prompts, and asks in-process callbacks at its hook
events. :class:`HookwireHooks` answers those callbacks with hookwire: Codex, portable and native
plugins' hooks, and the user's Claude Code hooks where the CLI does not load them. Each answer
is the Claude Code hook output the CLI reads (``permissionDecision``, ``updatedInput``,
``additionalContext``, ``decision: "block"``, ``continue: false``).

=====================  ==========================================================================
CLI hook event         hookwire seam
=====================  ==========================================================================
UserPromptSubmit       ``prompt_submit`` (the first callback also starts the session)
PreToolUse             ``tool_pre``
PostToolUse            ``tool_post``
PostToolUseFailure     ``tool_failure``
Stop / SubagentStop    ``stop`` / ``subagent_stop``
SubagentStart          ``subagent_start``
PreCompact             ``pre_compact``
Notification           ``notification``
=====================  ==========================================================================

**Never twice.** The CLI runs the hooks of the Claude Code settings it loads
(``setting_sources``: ``None`` loads user, project and local settings). :meth:`options` refuses a
kernel holding Claude Code hooks from those files: load them in hookwire (and give the CLI
``setting_sources=[]``), or let the CLI run them (``kernel.discover(..., dialects=[...])``
without ``"claude"``).
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from claude_agent_sdk import ClaudeAgentOptions, HookMatcher

from hookwire.driver import HostAdapter
from hookwire.errors import ConfigError
from hookwire.plugins.claude_agent_sdk.profile import PROFILE
from hookwire.render import render_context
from hookwire.verdicts import Decision, Halt, Verdict

#: The CLI's hook events the SDK lets a callback answer, and the seam each one fires.
EVENTS = ("UserPromptSubmit", "PreToolUse", "PostToolUse", "PostToolUseFailure", "Stop",
          "SubagentStart", "SubagentStop", "PreCompact", "Notification")


class HookwireHooks(HostAdapter):
    """hookwire's hooks and plugins as Claude Agent SDK hook callbacks:
    ``ClaudeSDKClient(options=hooks.options(ClaudeAgentOptions(...)))``. One session for every
    client given these options, until :meth:`close`."""

    def __init__(self, kernel: Any, *, max_stop_blocks: int | None = 8,
                 **session_fields: Any) -> None:
        super().__init__(kernel, host=PROFILE, max_stop_blocks=max_stop_blocks,
                         **session_fields)

    @property
    def halted(self) -> Halt | None:
        """Who stopped the CLI with ``continue: false``, and why, until :meth:`close` (the
        SDK reports only a result with ``terminal_reason="hook_stopped"``)."""
        session = self.driver.session
        return session.halted if session is not None else None

    def options(self, options: ClaudeAgentOptions | None = None) -> ClaudeAgentOptions:
        """``options`` with hookwire's callbacks added to its own hooks (kept, first)."""
        options = options or ClaudeAgentOptions()
        self._check_twice(options)
        hooks: dict[Any, list[HookMatcher]] = {k: list(v) for k, v in
                                               (options.hooks or {}).items()}
        for event in EVENTS:
            callback: Any = self._callback  # the SDK's input and output are TypedDicts of this
            hooks.setdefault(event, []).append(HookMatcher(hooks=[callback]))
        return dataclasses.replace(options, hooks=hooks)

    def _check_twice(self, options: ClaudeAgentOptions) -> None:
        """Refuse Claude Code hooks that the CLI loads itself as well."""
        sources = ("user", "project", "local") if options.setting_sources is None \
            else tuple(options.setting_sources)
        cwd = Path(options.cwd or os.getcwd())
        home = Path((options.env or {}).get("CLAUDE_CONFIG_DIR")
                    or os.environ.get("CLAUDE_CONFIG_DIR") or Path.home() / ".claude")
        files = {"user": home / "settings.json", "project": cwd / ".claude" / "settings.json",
                 "local": cwd / ".claude" / "settings.local.json"}
        loaded = {str(files[s].resolve()) for s in sources if s in files}
        twice = sorted({e.location.file for e in self.kernel.hooks if e.dialect == "claude"
                        and e.location.file and str(Path(e.location.file).resolve()) in loaded})
        if twice:
            raise ConfigError(
                f"the Claude Code CLI loads {', '.join(twice)} itself (setting_sources="
                f"{list(sources)}): its hooks would run twice. Give the CLI setting_sources=[] "
                "to let hookwire run them, or load the kernel without the claude dialect")

    # -- the callback --------------------------------------------------------------------------

    async def _callback(self, data: Mapping[str, Any], tool_use_id: str | None,
                        context: Any) -> dict[str, Any]:
        fields = self.driver.session_fields
        fields.setdefault("session_id", data.get("session_id"))
        fields.setdefault("cwd", data.get("cwd"))
        event = str(data.get("hook_event_name"))
        verdict: Verdict = await self.acall(self._dispatch, event, dict(data))
        before = []
        if event == "UserPromptSubmit":  # session_start's contexts go with the first prompt
            before, self.driver.carry[:] = [t.text for t in self.driver.carry], []
        return _output(event, verdict, before)

    async def _dispatch(self, event: str, data: dict[str, Any]) -> Verdict:
        session = self.driver.session
        assert session is not None
        tool = (data.get("tool_name", ""), data.get("tool_input") or {},
                data.get("tool_use_id") or "")
        if event == "UserPromptSubmit":
            with session.turn() as origin:  # the CLI's turn: this prompt starts it
                pass
            return await session.prompt_submit(str(data.get("prompt") or ""), origin=origin)
        if event == "PreToolUse":
            return await session.tool_pre(*tool)
        if event == "PostToolUse":
            return await session.tool_post(tool[0], tool[1], data.get("tool_response"), tool[2])
        if event == "PostToolUseFailure":
            return await session.tool_failure(tool[0], tool[1], str(data.get("error") or ""),
                                              tool[2])
        if event == "Stop":
            return await session.stop(last_assistant_message=data.get("last_assistant_message"))
        if event == "SubagentStart":
            return await session.subagent_start(str(data.get("agent_id") or ""),
                                                str(data.get("agent_type") or ""))
        if event == "SubagentStop":
            return await session.subagent_stop(
                str(data.get("agent_id") or ""), str(data.get("agent_type") or ""),
                last_assistant_message=data.get("last_assistant_message"))
        if event == "PreCompact":
            return await session.pre_compact(str(data.get("trigger") or "manual"),
                                             data.get("custom_instructions"))
        return await session.notification(str(data.get("message") or ""),
                                          data.get("notification_type"))


def _output(event: str, verdict: Verdict, before: list[str]) -> dict[str, Any]:
    """``verdict`` as the Claude Code hook output the CLI reads for ``event`` (``before``:
    contexts that come first)."""
    out: dict[str, Any] = {}
    specific: dict[str, Any] = {"hookEventName": event}
    # the CLI presents a context as its event's hook context: other than Claude Code's and
    # Codex's own, each is labelled with its source (hookwire's neutral form)
    contexts = "\n\n".join([*before, *(c.text if c.source.dialect in ("claude", "codex")
                                        else render_context(c) for c in verdict.contexts)])
    if contexts and event in ("UserPromptSubmit", "PreToolUse", "PostToolUse",
                              "PostToolUseFailure", "SubagentStart"):
        specific["additionalContext"] = contexts
    if verdict.system_messages:
        out["systemMessage"] = "\n".join(verdict.system_messages)
    if verdict.halt is not None:
        out["continue_"] = False
        if verdict.halt.reason:
            out["stopReason"] = verdict.halt.reason
    decision = verdict.decision
    if event == "PreToolUse":
        wire = {Decision.DENY: "deny", Decision.ASK: "ask", Decision.ALLOW: "allow",
                Decision.DEFER: "defer"}.get(decision)
        if wire is not None:
            specific["permissionDecision"] = wire
            if verdict.reason:
                specific["permissionDecisionReason"] = verdict.reason
        if verdict.input_rewritten and verdict.effective_input is not None:
            specific["updatedInput"] = dict(verdict.effective_input)
    elif decision is Decision.BLOCK or verdict.denied or verdict.continue_turn:
        out["decision"] = "block"
        out["reason"] = verdict.reason or "blocked by a hook"
    if event == "PostToolUse" and verdict.updated_output is not None:
        specific["updatedMCPToolOutput"] = verdict.updated_output
    if len(specific) > 1:
        out["hookSpecificOutput"] = specific
    return out


__all__ = ["EVENTS", "HookwireHooks"]
