"""The trust hash of a Codex ``mcp_tool`` hook, and what makes its file fail, against what the
real Codex 0.171.0 said (``codex app-server``, ``hooks/list``: each hook's ``currentHash``,
and the file's warnings) for the very same files. The hash does not depend on the file's
path, only on the event, the matcher and the handler, so the recorded hashes hold anywhere.

What Codex does that a plain reading would not: an absent ``input`` is hashed as ``{}``; each
number in ``input`` is hashed as the table serde_json hands TOML,
``{"$serde_json::private::Number": <text>}``, its text as written in a ``hooks.json`` (an
integer printed anew, an exponent as ``e`` with its sign) and as Rust prints a TOML float.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from hookwire.dialects.codex import config, trust
from hookwire.errors import ConfigError

HOOK = '{"type": "mcp_tool", "server": "s", "tool": "t"%s}'

#: one group per handler; numbers written as a person might
HOOKS_JSON = "".join((
    '{"hooks": {"PreToolUse": [',
    '{"matcher": "Bash", "hooks": [%s]}, ' % (HOOK % ""),
    '{"matcher": "Bash", "hooks": [%s]}, ' % (HOOK % ', "input": {"cmd": '
                                                    '"${tool_input.command}", "n": 1.5, "z": '
                                                    '[1, "é"]}, "timeout": 30, '
                                                    '"statusMessage": "checking…"'),
    '{"hooks": [%s]}, ' % (HOOK % ', "input": {}'),
    '{"hooks": [%s]}, ' % (HOOK % ', "input": {"x": 2.00, "y": 1e3, "z": -0, "w": 10.50, '
                                  '"neg": -7, "q": 1.0E+2, "t": 1E-7, '
                                  '"big": 9223372036854775807, "e": 1e400, "m": -1.50e-002}'),
    '{"hooks": [%s]}],\n' % (HOOK % ', "input": {"under": -9223372036854775809, '
                                    '"huge": 18446744073709551616, "neg0": -0.0, '
                                    '"s": "\\u00e9\\n", "l": [], "o": {}}'),
    '"PostToolUse": [{"matcher": "^exec_command$", "hooks": [%s]}],\n' % (HOOK % ', "timeout": 0'),
    '"SessionStart": [{"hooks": [%s]}],\n' % (HOOK % ', "timeout": 99999'),
    '"Stop": [{"matcher": "x", "hooks": [%s]}],\n' % (
        HOOK % ', "input": {"b": true, "a": {"deep": [1, 2.0]}}'),
    '"UserPromptSubmit": [{"hooks": [%s]}]}}\n' % (HOOK % ', "statusMessage": ""'),
))

#: ``hooks/list``'s ``currentHash`` for each hook of HOOKS_JSON, by key without the path
CODEX_0_171_0_JSON = {
    "pre_tool_use:0:0": "sha256:5a68520c1df69daf31e96c349d5850eda2ab679b3acd4a1f59cc68a82633e044",
    "pre_tool_use:1:0": "sha256:2053672e62f2fe9b1d23415d9630984dabb849322dcbad2c21a86caa2d5dc892",
    "pre_tool_use:2:0": "sha256:512cf58fb1a288c356a4eac3a7960c4fa4beef61cd5c4259b54760eaf8665f18",
    "pre_tool_use:3:0": "sha256:b6c803640ce0bbf356ddba6659d92163573f54a369894bde3e4106f8ee115418",
    "pre_tool_use:4:0": "sha256:a0f5e3bd0c8c9095818a0eeaceb3594bf410064d802254429433b4928ebdd47b",
    "post_tool_use:0:0": "sha256:8b2e89e909a81e92b91c0ce996cf742dce3938d1da541150f2644217bcf020ff",
    "session_start:0:0": "sha256:bf0ca3a3f84b376d7aad568aa2c73485477dc97d72bd2e9cccbaa00bd62548ec",
    "stop:0:0": "sha256:2091f4fa2e0ee4d15bbdb7aa6891c772ff93aaac9879541ca1fde608ea3f7b3e",
    "user_prompt_submit:0:0":
        "sha256:6cdbd82b1e02a81bb9b446ea658e256ca3e0bc59addafce36de0949ea8cab9da",
}

#: TOML values of ``input = { v = ... }``, one PostToolUse group each, and Codex's hashes
TOML_VALUES = {
    "1e16": "sha256:f5d488252beb144fb611efbec9937683e13751b1b1d45b21a58b5112f03b67a0",
    "1e-5": "sha256:7678af95267ae7796e9057fe518b8883416df1ad49bd89648db98dbb60d4cfba",
    "123.456": "sha256:a96d9e97def12ff26193c7e5e04bb32ac829ca1daaf9fe61a497fb105d35ff5d",
    "5e-324": "sha256:b1df198cdf8f199bc6f5e51f8feef2a022b1c26a6fde52f077a56ee838a77138",
    "-0.0": "sha256:04cf54d588a95fb1087fdcb65aaf4521ae5a50016f9c9b5c24725d1a3e74ee53",
    "1e15": "sha256:8a94533a196dbc6a5b82493e42c8aa969392603b91a6f58934b2764666d33d71",
    "1.5e-7": "sha256:7c587da6ac16fa2c9889bba01d890ff6bb72633cc5a6314e004413424b2ecbed",
    "100.0": "sha256:279f5e3fb0cda3ab58bfec1f513e7d6abea097c0b738665fc271e6e3736dc708",
    "123456789012345678.0":
        "sha256:1cc4261bc303aed7376830356bc044a644d907f68fabf1d1959926bbd23e6d0e",
    "7": "sha256:68186b4777232763ce660475770bcbcaeee9eed567e4e33e17d1d1cb4933237b",
    "-0": "sha256:73bf4684f9047c6e3657dbcf81c7a1089e4643b78582de7bf36db483b3d0aef3",
    '[1, 2.5, "x"]': "sha256:0101f9d8ea464b3cd635b78bfc4180754a155f21c4e908b0af61aca2fe6374b8",
    "{ a = true }": "sha256:667e20c88c7e06209b5939496b4c5249b09289380d6a41b2e755c3a8691edd6d",
}


def _toml_hook(value: str, event: str = "PostToolUse") -> str:
    return textwrap.dedent(f"""
        [[hooks.{event}]]
        [[hooks.{event}.hooks]]
        type = "mcp_tool"
        server = "s"
        tool = "t"
        input = {{ v = {value} }}
        """)


def _stop_file(*handlers: str) -> str:
    return '{"hooks": {"Stop": [{"hooks": [' + ", ".join(handlers) + "]}]}}"


def _hashes(result: config.ConfigResult) -> dict[str, str]:
    return {e.handler.key.split(":", 1)[1]: e.handler.hash for e in result.entries}


def test_hooks_json_mcp_tool_hashes_are_codexs(tmp_path: Path) -> None:
    path = tmp_path / "hooks.json"
    path.write_text(HOOKS_JSON, encoding="utf-8")
    result = config.read_file(path)
    assert result.problems == ()
    assert _hashes(result) == CODEX_0_171_0_JSON
    # what the hook is called with is the input as read, numbers as numbers
    entry = next(e for e in result.entries if e.handler.key.endswith("pre_tool_use:3:0"))
    assert entry.handler.input["x"] == 2.0 and entry.handler.input["z"] == 0


def test_config_toml_mcp_tool_hashes_are_codexs(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text("".join(_toml_hook(v) for v in TOML_VALUES), encoding="utf-8")
    result = config.read_file(path)
    assert result.problems == ()
    assert _hashes(result) == {f"post_tool_use:{i}:0": h
                               for i, h in enumerate(TOML_VALUES.values())}


@pytest.mark.parametrize(("value", "printed"), [
    (1e16, "1e+16"), (1e15, "1000000000000000.0"), (1e-5, "0.00001"), (0.0001, "0.0001"),
    (1.5e-7, "1.5e-7"), (123456789012345678.0, "1.2345678901234568e+17"), (-0.0, "-0.0"),
    (5e-324, "5e-324"), (100.0, "100.0"), (-12.5, "-12.5"), (1e300, "1e+300")])
def test_a_toml_float_is_printed_as_codex_hashes_it(value: float, printed: str) -> None:
    assert trust.rust_float(value) == printed


@pytest.mark.parametrize(("written", "message"), [
    ('"input": null', "invalid type: null, expected a map"),
    ('"input": {"a": [null]}', "MCP hook input must be representable as TOML"),
    ('"input": {"a": 9223372036854775808}', "MCP hook input must be representable as TOML"),
    ('"input": {"a": 18446744073709551615}', "MCP hook input must be representable as TOML"),
])
def test_an_input_codex_cannot_take_fails_the_whole_file(tmp_path: Path, written: str,
                                                         message: str) -> None:
    """As in Codex 0.171.0: ``failed to parse hooks config <path>: <message>``, and none of
    the file's hooks load, the good one beside it neither."""
    path = tmp_path / "hooks.json"
    path.write_text(_stop_file(HOOK % "", HOOK % f", {written}"), encoding="utf-8")
    result = config.read_file(path)
    assert result.entries == ()
    (problem,) = result.problems
    assert problem.message.startswith(f"failed to parse hooks config {path}: {message}")
    assert problem.severity == "error"


@pytest.mark.parametrize("value", ["nan", "inf", "-inf"])
def test_a_toml_input_holding_nan_or_inf_fails_the_discovery(tmp_path: Path, value: str) -> None:
    """Codex 0.171.0 then lists no hook at all, of any file (the hooks.json beside it too),
    and warns of nothing. hookwire runs none either: the discovery fails, naming the file, as
    for a config.toml it cannot read."""
    home = tmp_path / "codex-home"
    home.mkdir()
    (home / "hooks.json").write_text(_stop_file(HOOK % ""), encoding="utf-8")
    (home / "config.toml").write_text(_toml_hook("1", "Stop") + _toml_hook(value),
                                      encoding="utf-8")
    with pytest.raises(ConfigError, match="nan or inf") as caught:
        config.discover(tmp_path, codex_home=home, system_dir=None)
    assert caught.value.file == str(home / "config.toml")


def test_a_plugin_manifests_inline_mcp_tool_hook_is_hashed_from_its_text(
        tmp_path: Path) -> None:
    """Its numbers as written, as in a hooks.json; an inline item without hooks beside it
    reads as nothing."""
    plugin = tmp_path / "plug"
    (plugin / ".codex-plugin").mkdir(parents=True)
    (plugin / ".codex-plugin" / "plugin.json").write_text(
        '{"hooks": [{"hooks": {"Stop": [{"hooks": [%s]}]}}, {"description": "x"}]}'
        % (HOOK % ', "input": {"n": 2.50}'), encoding="utf-8")
    result = config.read_plugin("p@local", plugin, tmp_path / "data", {})
    (entry,) = result.entries
    assert entry.handler.hash == trust.hook_hash("Stop", None, {
        "type": "mcp_tool", "server": "s", "tool": "t", "timeout": 600,
        "input": {"n": {trust.NUMBER_KEY: "2.50"}}})
