"""Real-client runs of ``hookwire install`` (``nox -s clients``; issue #15, item 4).

Not part of the default test run: these tests install client CLIs from npm (hundreds of MB) and
run them, so they are collected only when ``HOOKWIRE_CLIENTS=1`` (the nox session sets it).
``HOOKWIRE_CLIENTS_CACHE`` (default ``~/.cache/hookwire-clients``) holds one npm prefix per
client; a client missing there is installed with ``npm install --prefix`` at its pinned version.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

HERE = Path(__file__).parent

if os.environ.get("HOOKWIRE_CLIENTS") != "1":
    collect_ignore_glob = ["*.py"]


def _load(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"_hookwire_clients_{name}", HERE / f"{name}.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


mockmodel = _load("mockmodel")


@pytest.fixture
def model() -> Iterator[object]:
    with mockmodel.MockModel() as server:
        yield server
