"""Codex's spilling of oversized hook text to a file, with a head/tail preview.

Text above the limit (approximate tokens = ceil(UTF-8 bytes / 4); default 2,500, per hook
``additionalContextLimit``, ``0`` disables) is written in full to
``<root>/<thread id>/<uuid>.txt`` and replaced by Codex's truncation preview (``Warning:
truncated output (original token count: N)``, line count, head ``…N tokens truncated…`` tail)
plus ``Full hook output saved to: <path>``, the whole staying within the limit.
"""

from __future__ import annotations

import logging
import uuid
from pathlib import Path

log = logging.getLogger("hookwire")
_BYTES_PER_TOKEN = 4


def approx_tokens(text: str) -> int:
    return (len(text.encode("utf-8")) + _BYTES_PER_TOKEN - 1) // _BYTES_PER_TOKEN


def _split(s: str, head_bytes: int, tail_bytes: int) -> tuple[str, str]:
    total = len(s.encode("utf-8"))
    tail_start = max(total - tail_bytes, 0)
    prefix_end, suffix_start, pos, started = 0, len(s), 0, False
    for idx, ch in enumerate(s):
        end = pos + len(ch.encode("utf-8"))
        if end <= head_bytes:
            prefix_end = idx + 1
        elif pos >= tail_start and not started:
            suffix_start, started = idx, True
        pos = end
    suffix_start = max(suffix_start, prefix_end)
    return s[:prefix_end], s[suffix_start:]


def truncate_middle(s: str, max_tokens: int) -> str:
    """Codex's ``truncate_middle_with_token_budget`` (the string part)."""
    if not s:
        return ""
    size = len(s.encode("utf-8"))
    max_bytes = max_tokens * _BYTES_PER_TOKEN
    if max_tokens > 0 and size <= max_bytes:
        return s
    if max_bytes == 0:
        return f"…{approx_tokens(s)} tokens truncated…"
    left = max_bytes // 2
    head, tail = _split(s, left, max_bytes - left)
    removed = (size - max_bytes + _BYTES_PER_TOKEN - 1) // _BYTES_PER_TOKEN
    return f"{head}…{removed} tokens truncated…{tail}"


def formatted_truncate(s: str, max_tokens: int) -> str:
    if len(s.encode("utf-8")) <= max_tokens * _BYTES_PER_TOKEN:
        return s
    lines = s.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return (f"Warning: truncated output (original token count: {approx_tokens(s)})\n"
            f"Total output lines: {len(lines)}\n\n{truncate_middle(s, max_tokens)}")


def maybe_spill(text: str, *, limit: int, root: Path, thread_id: str) -> str:
    """``text`` itself when within ``limit`` tokens (or ``limit`` is 0), else its preview."""
    if limit <= 0 or approx_tokens(text) <= limit:
        return text
    path = root / thread_id / f"{uuid.uuid4()}.txt"
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    except OSError as exc:
        log.warning("failed to write hook output %s: %s", path, exc)
        return formatted_truncate(text, limit)
    footer = f"\n\nFull hook output saved to: {path}"
    return formatted_truncate(text, max(limit - approx_tokens(footer), 0)) + footer
