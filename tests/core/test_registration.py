"""Kernel-level hookspecs: register_dialects, register_hosts, register_commands."""

from __future__ import annotations

import argparse
from typing import Any

import pytest

from hookwire import Kernel, Seam, hookimpl
from hookwire.cli import main
from hookwire.hosts import HostProfile
from hookwire.testing import EchoDialect


class HostPlugin:
    @hookimpl
    def register_hosts(self) -> list[HostProfile]:
        return [HostProfile(name="tiny", seams=frozenset({Seam.TOOL_PRE}),
                            missing={Seam.STOP: "tiny hosts never stop"})]


def test_register_hosts_adds_profiles_beside_the_reference_host() -> None:
    kernel = Kernel(load_entry_points=False, plugins=[HostPlugin()])
    hosts = kernel.hosts
    assert set(hosts) == {"reference", "tiny"}
    assert hosts["tiny"].emits(Seam.TOOL_PRE) and not hosts["tiny"].emits(Seam.STOP)
    assert hosts["reference"].emits(Seam.PROMPT_SUBMIT)
    assert not hosts["reference"].emits(Seam.PRE_COMPACT)


def test_register_dialects_registers_through_a_plugin() -> None:
    class DialectPlugin:
        @hookimpl
        def register_dialects(self) -> list[EchoDialect]:
            return [EchoDialect()]

    kernel = Kernel(load_entry_points=False, plugins=[DialectPlugin()])
    assert kernel.dialect("echo").name == "echo"
    assert kernel.dialects["echo"].dist is None  # in-process


def test_register_dialects_rejects_non_dialects() -> None:
    class Bad:
        @hookimpl
        def register_dialects(self) -> list[object]:
            return [object()]

    with pytest.raises(TypeError, match="not a named Dialect"):
        Kernel(load_entry_points=False, plugins=[Bad()])


def test_register_commands_adds_a_subcommand(capsys: pytest.CaptureFixture[str]) -> None:
    calls: list[Any] = []

    class CommandPlugin:
        @hookimpl
        def register_commands(self, subparsers: Any) -> None:
            parser = subparsers.add_parser("hello", help="say hello")
            parser.add_argument("--name", default="world")

            def handler(args: argparse.Namespace) -> int:
                calls.append(args.name)
                print(f"hello {args.name}")
                return 3

            parser.set_defaults(handler=handler)

    kernel = Kernel(load_entry_points=False, plugins=[CommandPlugin()])
    assert main(["hello", "--name", "hookwire"], kernel=kernel) == 3
    assert calls == ["hookwire"]
    assert "hello hookwire" in capsys.readouterr().out


def test_a_failing_register_commands_leaves_the_others(caplog: pytest.LogCaptureFixture) -> None:
    class Broken:
        @hookimpl
        def register_commands(self, subparsers: Any) -> None:
            raise RuntimeError("cannot")

    kernel = Kernel(load_entry_points=False, plugins=[Broken()])
    with pytest.raises(SystemExit) as exc:
        main(["hello"], kernel=kernel)
    assert exc.value.code == 2
    assert "commands of plugin" in caplog.text


def test_declare_builds_the_plugin_object_of_an_entry_point() -> None:
    """``hookwire.declare`` is the one door: hook implementations by hookspec name, called
    without ``self``; the same function a built-in dialect's entry point uses."""
    from hookwire import declare
    from hookwire.plugins import declare as plugins_declare

    assert plugins_declare is declare
    calls: list[str] = []

    def register_dialects() -> list[EchoDialect]:
        calls.append("dialects")
        return [EchoDialect()]

    def register_hosts() -> list[HostProfile]:
        return [HostProfile(name="tiny", seams=frozenset({Seam.TOOL_PRE}))]

    plugin = declare(register_dialects=register_dialects, register_hosts=register_hosts)
    assert repr(plugin) == "<plugin register_dialects, register_hosts>"
    kernel = Kernel(load_entry_points=False, plugins=[plugin])
    assert kernel.dialect("echo").name == "echo" and calls == ["dialects"]
    assert "tiny" in kernel.hosts


def test_declare_with_a_misspelt_hookspec_fails_loudly() -> None:
    from hookwire import declare

    with pytest.raises(Exception, match="unknown hook 'register_dialect' in plugin"):
        Kernel(load_entry_points=False,
               plugins=[declare(register_dialect=lambda: [EchoDialect()])])


def test_the_built_in_dialects_are_declared_plugins() -> None:
    from hookwire.plugin import Declared

    kernel = Kernel()
    for name in ("claude", "codex", "portable"):
        if name in kernel.dialects:
            module = __import__(f"hookwire.dialects.{name}", fromlist=["plugin"])
            assert isinstance(module.plugin, Declared), name
