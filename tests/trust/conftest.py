from __future__ import annotations

from pathlib import Path

import pytest

from hookwire import Kernel
from hookwire.testing import EchoDialect
from hookwire.trust import TrustGate, TrustStore


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A private HOME and XDG_CONFIG_HOME: the real ones are never touched."""
    home = tmp_path / "home"
    (home / ".config").mkdir(parents=True)
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / ".config"))
    return home


@pytest.fixture
def setup(tmp_path: Path, home: Path) -> tuple[Kernel, TrustStore, TrustGate]:
    """A kernel with the echo dialect, a trust store in ``tmp_path`` and a gate that is not
    strict (whatever the environment says)."""
    kernel = Kernel(load_entry_points=False)
    kernel.add_dialect(EchoDialect())
    store = TrustStore(tmp_path / "trust.json")
    gate = TrustGate(kernel, store, strict=False)
    kernel.trust_gate = gate
    return kernel, store, gate
