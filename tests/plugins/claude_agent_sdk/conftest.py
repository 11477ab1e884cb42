"""The scripted Anthropic API the Claude Agent SDK tests run the real CLI against, loaded once
for the test modules of this folder (``sys.modules["_hookwire_sdk_api"]``)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

_spec = importlib.util.spec_from_file_location("_hookwire_sdk_api",
                                               Path(__file__).with_name("scripted_api.py"))
assert _spec and _spec.loader
_module = importlib.util.module_from_spec(_spec)
sys.modules[_spec.name] = _module
_spec.loader.exec_module(_module)
