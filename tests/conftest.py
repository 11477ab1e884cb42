"""Suite-wide settings.

Hooks a repository brings wait for approval by default (docs/trust.md). The suite's fixture
projects are written under pytest's temporary folder, which this file trusts for the whole run
through ``$HOOKWIRE_TRUSTED_FOLDERS``, as a CI job trusts its workspace; the tests of that
default itself (tests/trust/test_repository.py) clear the variable with the ``untrusted``
fixture. The user's own hookwire folder is never read: ``$XDG_CONFIG_HOME`` points at an empty
folder of the run, and neither are the machine's Claude Code managed settings:
``$HOOKWIRE_CLAUDE_MANAGED_DIR`` points at an empty folder too.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

TRUSTED = "HOOKWIRE_TRUSTED_FOLDERS"
MANAGED = "HOOKWIRE_CLAUDE_MANAGED_DIR"


@pytest.fixture(scope="session", autouse=True)
def _trusted_workspace(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    base = tmp_path_factory.getbasetemp()
    config = tmp_path_factory.mktemp("xdg-config")
    managed = tmp_path_factory.mktemp("claude-managed")
    saved = {k: os.environ.get(k) for k in (TRUSTED, "XDG_CONFIG_HOME", MANAGED)}
    os.environ[TRUSTED] = str(base.resolve())
    os.environ["XDG_CONFIG_HOME"] = str(config)
    os.environ[MANAGED] = str(managed)
    yield
    for key, value in saved.items():
        if value is None:
            os.environ.pop(key, None)
        else:
            os.environ[key] = value


@pytest.fixture
def untrusted(monkeypatch: pytest.MonkeyPatch) -> None:
    """No folder is trusted by the environment: a repository's hooks wait for approval."""
    monkeypatch.delenv(TRUSTED, raising=False)
