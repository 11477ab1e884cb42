"""What every CrewAI test runs under: CrewAI offline, its state in the test's own home."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("HOME", str(tmp_path / "home"))  # CrewAI keeps state under $HOME
    monkeypatch.setenv("CREWAI_DISABLE_TELEMETRY", "true")  # offline: no telemetry lookups
    monkeypatch.setenv("CREWAI_TRACING_ENABLED", "false")
    yield
