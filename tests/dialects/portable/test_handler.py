"""The typed handler of the portable profile."""

from __future__ import annotations

import pytest

from hookwire import ConfigError, HookEntry
from hookwire.dialects.portable import PortableDialect
from hookwire.dialects.portable.handler import PortableHandler


def test_handler_from_options_and_export_round_trip() -> None:
    d = PortableDialect()
    h = PortableHandler(root="/plug", plugin="demo", env={"A": "1"}, context=True)
    exported = d.export(HookEntry(dialect="portable", event="turn-start", command=("x",),
                                  handler=h))
    assert d.handler_from_options(exported.options) == h
    assert PortableDialect.handler_type is PortableHandler
    assert d.config_paths(__import__("pathlib").Path(".")) == []


def test_unknown_options_and_a_blocking_failure_policy_are_rejected() -> None:
    d = PortableDialect()
    with pytest.raises(ConfigError, match="colour"):
        d.handler_from_options({"colour": 1})
    with pytest.raises(ConfigError, match="onFailure"):
        d.handler_from_options({"onFailure": "block"})
