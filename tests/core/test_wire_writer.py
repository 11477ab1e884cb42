"""``hookwire.wire.json_writer`` writes what ``json.dumps`` writes with the same options."""

from __future__ import annotations

import json
import math
from typing import Any

import pytest

from hookwire.wire import json_writer


class Odd:
    def __str__(self) -> str:
        return "odd!"


VALUES: list[Any] = [
    {}, [], "", "plain", "é ü 日本 \U0001F600", "\ud800 lone", "quote \" back \\ nl \n tab \t",
    0, -1, 10**30, 1.0, 1.5, -0.0, 1e21, 1e-7, True, False, None,
    {"session_id": "s", "tool_input": {"command": "ls -la", "n": [1, 2.5, {"k": None}]}},
    [[[[["deep"]]]]], {"1": 1, "": ""},
]


@pytest.mark.parametrize("separators", [(",", ":"), (", ", ": ")])
@pytest.mark.parametrize("value", VALUES, ids=repr)
def test_the_same_text_as_json_dumps(value: Any, separators: tuple[str, str]) -> None:
    write = json_writer(separators=separators)
    assert write(value) == json.dumps(value, ensure_ascii=False, separators=separators)


def test_default_and_its_absence() -> None:
    assert json_writer(default=str)({"x": Odd()}) == '{"x":"odd!"}'
    with pytest.raises(TypeError, match="Odd is not JSON serializable"):
        json_writer()({"x": Odd()})


def test_nan_as_json_dumps_says_it() -> None:
    assert json_writer()([math.nan, math.inf]) == json.dumps([math.nan, math.inf],
                                                              separators=(",", ":"))
    with pytest.raises(ValueError):
        json_writer(allow_nan=False)([math.nan])


def test_a_cycle_is_an_error_not_a_hang() -> None:
    cyclic: dict[str, Any] = {}
    cyclic["self"] = cyclic
    with pytest.raises((RecursionError, ValueError)):
        json_writer()(cyclic)
