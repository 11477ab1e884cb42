"""The reference host: a scripted-model agent loop with real tools (``hookwire demo``)."""

from hookwire.reference.agent import Agent, RunResult, ToolRun
from hookwire.reference.model import (
    Message,
    ModelTurn,
    ScriptedModel,
    ToolCall,
    TransientModelError,
)
from hookwire.reference.tools import Tool, ToolContext, ToolError, default_tools

__all__ = [
    "Agent", "Message", "ModelTurn", "RunResult", "ScriptedModel", "Tool", "ToolCall",
    "ToolContext", "ToolError", "ToolRun", "TransientModelError", "default_tools",
]
