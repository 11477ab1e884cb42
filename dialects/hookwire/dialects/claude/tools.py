"""Claude Code's tools, as its hooks see them (2.1.332): names, input fields, aliases.

The names are also the vocabulary runtime tools are usually mapped onto (``as: Bash``): every
dialect that knows an equivalent turns them into its own spelling.
"""

from __future__ import annotations

from hookwire.tools import ToolShape, Vocabulary

TOOLS = {
    shape.name: shape
    for shape in (
        ToolShape(name="Bash", fields=("command", "description", "timeout",
                                       "run_in_background"), required=("command",)),
        ToolShape(name="Read", fields=("file_path", "offset", "limit"),
                  required=("file_path",)),
        ToolShape(name="Write", fields=("file_path", "content"),
                  required=("file_path", "content")),
        ToolShape(name="Edit", fields=("file_path", "old_string", "new_string", "replace_all"),
                  required=("file_path", "old_string", "new_string")),
        ToolShape(name="MultiEdit", fields=("file_path", "edits"),
                  required=("file_path", "edits")),
        ToolShape(name="NotebookEdit", fields=("notebook_path", "new_source", "cell_id",
                                               "cell_type", "edit_mode"),
                  required=("notebook_path", "new_source")),
        ToolShape(name="Glob", fields=("pattern", "path"), required=("pattern",)),
        ToolShape(name="Grep", fields=("pattern", "path", "glob", "type", "output_mode",
                                       "-i", "-n", "-A", "-B", "-C", "multiline",
                                       "head_limit"), required=("pattern",)),
        ToolShape(name="WebFetch", fields=("url", "prompt"), required=("url", "prompt")),
        ToolShape(name="WebSearch", fields=("query", "allowed_domains", "blocked_domains"),
                  required=("query",)),
        # The sub-agent tool; matchers written for its old name, Task, still match it.
        ToolShape(name="Agent", fields=("description", "prompt", "subagent_type"),
                  required=("description", "prompt"), aliases=("Task",)),
        ToolShape(name="TodoWrite", fields=("todos",), required=("todos",)),
    )
}

VOCABULARY = Vocabulary(tools=TOOLS)
