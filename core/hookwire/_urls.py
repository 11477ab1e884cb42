"""Stable public addresses: the documentation site and the JSON schemas it serves.

Messages and written files cite these, never ``docs/...`` paths (a wheel has no ``docs/``).
``nox -s docs`` checks that every page cited here exists in the site.
"""

from __future__ import annotations

#: The documentation site (``[project.urls] Documentation`` in pyproject.toml).
DOCS = "https://hookwire.dev/"
#: The schema of hookwire's hooks file (its ``$id``; the site serves it at this address).
HOOKS_SCHEMA = DOCS + "schemas/hooks-file-v1.json"


def doc(page: str, anchor: str | None = None) -> str:
    """The address of ``docs/<page>.md`` on the site (``doc("config")``)."""
    return f"{DOCS}{page}/" + (f"#{anchor}" if anchor else "")
