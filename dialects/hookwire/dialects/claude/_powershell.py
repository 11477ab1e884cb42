"""``shell: "powershell"``: a shell-form command run by PowerShell 7 (``pwsh``).

Claude Code 2.1.332 hands such a command to PowerShell instead of ``sh -c``. Its three
placeholders are rewritten to PowerShell's environment syntax, ``${env:CLAUDE_PROJECT_DIR}``
(since 2.1.198; the bare ``$CLAUDE_PROJECT_DIR`` is left alone, and PowerShell reads it as
``$null``), and read from the variables the hook is given; ``CLAUDE_CODE_SHELL_PREFIX`` does
not wrap it. hookwire runs ``pwsh -NoProfile -NonInteractive -Command <text>``, found on the
hook's ``PATH``; the flags Claude Code passes were not recorded. Without ``pwsh`` the hook
fails to start and is reported as such, like any command that is not found.
"""

from __future__ import annotations

PROGRAM = "pwsh"
FLAGS = ("-NoProfile", "-NonInteractive", "-Command")
_PLACEHOLDERS = ("CLAUDE_PROJECT_DIR", "CLAUDE_PLUGIN_ROOT", "CLAUDE_PLUGIN_DATA")


def rewrite(text: str) -> str:
    """``text`` with ``${CLAUDE_PROJECT_DIR}``-style placeholders in PowerShell's form."""
    for name in _PLACEHOLDERS:
        text = text.replace("${" + name + "}", "${env:" + name + "}")
    return text


def argv(text: str) -> tuple[str, ...]:
    """The argv that runs the (rewritten) command ``text``."""
    return (PROGRAM, *FLAGS, text)
