"""Line numbers of the values in a JSON text, by JSON pointer (``$.hooks.Stop[0]``).

The positions come from :func:`hookwire.wire.read_json` (no recursion, any depth).
"""

from __future__ import annotations

from hookwire.wire import Document, pointer


def line_index(doc: Document) -> dict[str, int]:
    """Map JSON-path pointers to the line their value starts on."""
    return {pointer(path): line for path, line in doc.lines.items()}
