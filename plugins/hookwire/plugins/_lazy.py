"""The package ``__getattr__`` of each runtime adapter: every ``Kernel()`` imports the package
(its host profile's entry point is in it), so the adapter, which imports its runtime, is
imported on first use only."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

#: The driver's exceptions, which every adapter package re-exports.
EXCEPTIONS = ("PromptBlocked", "RunHalted", "ToolBatchBlocked")


def exports(module: str, *names: str) -> Callable[[str], Any]:
    """A package ``__getattr__`` giving ``names`` from ``module`` and the driver's exceptions."""

    def __getattr__(name: str) -> Any:
        if name in EXCEPTIONS:
            module_ = importlib.import_module("hookwire.driver")
        elif name in names:
            module_ = importlib.import_module(module)
        else:
            raise AttributeError(name)
        return getattr(module_, name)

    return __getattr__
