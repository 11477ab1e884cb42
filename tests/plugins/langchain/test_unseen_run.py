"""A tool call whose agent run the middleware never saw start (a resume in a new process,
say) still meets the hooks: it gets a run of its own, with no prompt seam."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("langchain.agents")

from langchain_core.messages import ToolMessage

from hookwire.plugins.langchain import HookwireMiddleware


class Request:
    """The part of LangChain's tool call request the middleware reads."""

    def __init__(self, command: str) -> None:
        self.tool_call = {"name": "Bash", "args": {"command": command}, "id": "call-1"}


def test_a_tool_call_of_an_unseen_run_is_still_guarded(claude: Any, project: Any) -> None:
    ran: list[Any] = []
    with HookwireMiddleware(claude(PreToolUse=[("guard", "Bash")]), cwd=str(project)) as mw:
        answer = mw.wrap_tool_call(Request("rm -rf build"), ran.append)
    assert ran == [], "the guard must stop the tool"
    assert isinstance(answer, ToolMessage) and answer.status == "error"
    assert "Blocked: rm -rf is not allowed in this project" in str(answer.content)
