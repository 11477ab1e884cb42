"""Codex's own per-hook trust: positional keys, identity hashes and ``[hooks.state]`` records.

* **key** ``"<key source>:<event label>:<group index>:<handler index>"``; the key source is
  the absolute path of the ``hooks.json``/``config.toml`` (plugins: ``<plugin id>:<relative
  path>``). Moving a hook changes its key.
* **hash** ``"sha256:" + hex(sha256(canonical JSON))`` of the normalised identity
  ``{"event_name", "matcher"?, "hooks": [<normalised handler>]}``: keys sorted at every level,
  compact separators, UTF-8 (not ASCII-escaped). The handler is
  ``{"type": "command", "command", "timeout", "async"}`` plus ``statusMessage`` when set and
  ``additionalContextLimit`` when set and not 2500. The command text is the one before
  ``${PLUGIN_ROOT}`` substitution. An ``mcp_tool`` handler is ``{"type": "mcp_tool",
  "server", "tool", "input", "timeout"}`` plus ``statusMessage`` when set; ``input`` is
  ``{}`` when not given, and each number in it is the table :func:`mcp_input_identity`
  makes.
* **records** ``[hooks.state."<key>"]`` with ``trusted_hash`` and/or ``enabled = false`` in the
  user's ``$CODEX_HOME/config.toml`` (only the user layer can trust; project, managed and plugin
  layers cannot pre-trust themselves).

Status: ``managed`` (managed layers), ``trusted`` (recorded hash equal), ``modified`` (recorded,
different), ``untrusted`` (none). Codex skips non-managed hooks that are not ``trusted``, and
every hook with ``enabled = false``.
"""

from __future__ import annotations

import enum
import hashlib
import json
import math
import os
import shlex
from collections.abc import Iterator, Mapping
from decimal import Decimal
from pathlib import Path
from typing import Any

import attrs

from hookwire.dialects.codex.events import CONTEXT_LIMIT, LABELS
from hookwire.errors import WireError
from hookwire.wire import read_text, read_toml


class TrustStatus(enum.StrEnum):
    MANAGED = "managed"
    TRUSTED = "trusted"
    MODIFIED = "modified"
    UNTRUSTED = "untrusted"

    def __str__(self) -> str:
        return self.value


@attrs.frozen(kw_only=True)
class HookState:
    """One ``[hooks.state."<key>"]`` record."""

    trusted_hash: str | None = None
    enabled: bool | None = None


def hook_key(key_source: str, event: str, group_index: int, handler_index: int) -> str:
    return f"{key_source}:{LABELS[event]}:{group_index}:{handler_index}"


def identity(event: str, matcher: str | None, handler: Mapping[str, Any]) -> dict[str, Any]:
    """The normalised identity of one command handler (``handler`` as normalised at load:
    ``command``, ``timeout``, ``async``, optional ``statusMessage`` and
    ``additionalContextLimit``; an ``mcp_tool`` handler is taken as given, its ``input``
    already in the form :func:`mcp_input_identity` gives)."""
    norm: dict[str, Any]
    if handler.get("type") == "mcp_tool":
        norm = {k: v for k, v in handler.items() if v is not None}
        mcp: dict[str, Any] = {"event_name": LABELS[event], "hooks": [norm]}
        return mcp if matcher is None else {**mcp, "matcher": matcher}
    norm = {
        "type": "command",
        "command": handler["command"],
        "timeout": handler["timeout"],
        "async": handler["async"],
    }
    if handler.get("statusMessage") is not None:
        norm["statusMessage"] = handler["statusMessage"]
    limit = handler.get("additionalContextLimit")
    if limit is not None and limit != CONTEXT_LIMIT:
        norm["additionalContextLimit"] = limit
    ident: dict[str, Any] = {"event_name": LABELS[event], "hooks": [norm]}
    if matcher is not None:
        ident["matcher"] = matcher
    return ident


#: serde_json, built with ``arbitrary_precision`` in Codex, hands a number to a TOML value as
#: a one-key table holding the number's text; an mcp_tool hook's identity keeps that table.
NUMBER_KEY = "$serde_json::private::Number"
#: serde_json reads a JSON integer as an i64 or u64 when it fits, else keeps its text; TOML
#: integers are i64, so only an integer between the two maximums cannot be turned into TOML.
_I64_TO_U64 = range(2**63, 2**64)


@attrs.frozen
class JsonNumber:
    """A number of a JSON text as it is written there (:func:`literal_numbers`)."""

    text: str


def literal_numbers(text: str) -> Any:
    """The value of a JSON text already read once (depth and syntax checked), with each
    number a :class:`JsonNumber`: what an mcp_tool hook's identity is made of."""
    return json.loads(text, parse_int=JsonNumber, parse_float=JsonNumber)


def mcp_input_identity(value: Any) -> Any:
    """An mcp_tool hook's ``input`` as Codex 0.171.0 hashes it (observed with its
    ``hooks/list``): strings, booleans, lists and tables as they are; each number a table
    ``{NUMBER_KEY: text}``. The text of a JSON number is as written, except that an integer
    is printed anew (``-0`` is ``0``) and an exponent is ``e`` with its sign (``1E3`` is
    ``1e+3``); a TOML number (an ``int`` or ``float`` here) as :func:`rust_float` prints
    it."""
    if isinstance(value, dict):
        return {k: mcp_input_identity(v) for k, v in value.items()}
    if isinstance(value, list):
        return [mcp_input_identity(v) for v in value]
    if isinstance(value, JsonNumber):
        mantissa, exp, power = value.text.replace("E", "e").partition("e")
        if not exp and "." not in mantissa:
            return {NUMBER_KEY: str(int(mantissa))}
        if exp and power[0] not in "+-":
            power = "+" + power
        return {NUMBER_KEY: mantissa + exp + power}
    if isinstance(value, bool) or not isinstance(value, int | float):
        return value
    return {NUMBER_KEY: str(value) if isinstance(value, int) else rust_float(value)}


def rust_float(value: float) -> str:
    """The text Codex 0.171.0 hashes for the float ``value`` of a TOML file (observed): the
    shortest digits that read back as ``value``, laid out as Rust's ryu lays them out
    (``1000.0``, ``0.00001``, ``1.5e-7``), an exponent with its sign (``1e+16``)."""
    sign = "-" if str(value).startswith("-") else ""
    if value == 0:
        return sign + "0.0"
    shortest = Decimal(repr(abs(value))).normalize()
    digits = "".join(map(str, shortest.as_tuple().digits))
    exponent = int(shortest.as_tuple().exponent)
    point = len(digits) + exponent  # 10 ** (point - 1) <= value < 10 ** point
    if exponent >= 0 and point <= 16:
        return f"{sign}{digits}{'0' * exponent}.0"
    if 0 < point <= 16:
        return f"{sign}{digits[:point]}.{digits[point:]}"
    if -5 < point <= 0:
        return f"{sign}0.{'0' * -point}{digits}"
    mantissa = digits if len(digits) == 1 else f"{digits[0]}.{digits[1:]}"
    return f"{sign}{mantissa}e{point - 1:+d}"


def toml_representable(value: Any) -> bool:
    """Whether Codex can turn ``value`` (an mcp_tool hook's ``input``) into a TOML value: no
    null anywhere and no integer above i64's maximum up to u64's (a larger one, a smaller
    one and any float are kept as written). A file holding one that is not fails to parse
    as a whole in Codex 0.171.0 (observed)."""
    return not any(item is None or (type(item) is int and item in _I64_TO_U64)
                   for item in _scalars(value))


def finite(value: Any) -> bool:
    """Whether no float in ``value`` is nan or infinite. A TOML file whose mcp_tool hook
    input holds one loads no hook at all in Codex 0.171.0, of any file, and says nothing
    (observed: ``hooks/list`` empty, no warning)."""
    return all(math.isfinite(item) for item in _scalars(value) if isinstance(item, float))


def _scalars(value: Any) -> Iterator[Any]:
    """Every value in ``value`` that is not a table or a list, without recursion."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
        else:
            yield item


def canonical_json(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def hook_hash(event: str, matcher: str | None, handler: Mapping[str, Any]) -> str:
    text = canonical_json(identity(event, matcher, handler))
    return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()


def status(*, managed: bool, current_hash: str, state: HookState | None) -> TrustStatus:
    if managed:
        return TrustStatus.MANAGED
    recorded = state.trusted_hash if state else None
    if recorded is None:
        return TrustStatus.UNTRUSTED
    return TrustStatus.TRUSTED if recorded == current_hash else TrustStatus.MODIFIED


def enabled(*, managed: bool, state: HookState | None) -> bool:
    return managed or state is None or state.enabled is not False


def codex_home(env: Mapping[str, str] | None = None) -> Path:
    """``$CODEX_HOME``, else ``~/.codex``."""
    env = os.environ if env is None else env
    home = env.get("CODEX_HOME")
    return Path(home) if home else Path.home() / ".codex"


def load_states(config_toml: Path) -> dict[str, HookState]:
    """The ``[hooks.state]`` records of a user ``config.toml`` (empty when absent or broken)."""
    try:
        data = read_toml(read_text(config_toml), file=str(config_toml)).value
    except WireError:
        return {}
    return states_from(data)


def states_from(config: Mapping[str, Any]) -> dict[str, HookState]:
    hooks = config.get("hooks")
    table = hooks.get("state") if isinstance(hooks, Mapping) else None
    if not isinstance(table, Mapping):
        return {}
    out: dict[str, HookState] = {}
    for key, value in table.items():
        if not isinstance(value, Mapping):
            continue
        th = value.get("trusted_hash")
        en = value.get("enabled")
        out[str(key)] = HookState(trusted_hash=th if isinstance(th, str) else None,
                                  enabled=en if isinstance(en, bool) else None)
    return out


def trust_snippet(key: str, current_hash: str) -> str:
    """The ``config.toml`` lines that make Codex (and hookwire) trust one hook."""
    return f"[hooks.state.{json.dumps(key)}]\ntrusted_hash = {json.dumps(current_hash)}\n"


def trust_command(key: str, current_hash: str, home: Path | None = None) -> str:
    """A shell command that records the trust of one hook in the user's Codex config."""
    target = (home or codex_home()) / "config.toml"
    return (f"printf '%s' {shlex.quote(chr(10) + trust_snippet(key, current_hash))} "
            f">> {shlex.quote(str(target))}")


def session_flag(key: str, current_hash: str) -> str:
    """The per-run ``codex -c`` override that trusts one hook (dotted keys do not work)."""
    table = f"{{{json.dumps(key)}={{trusted_hash={json.dumps(current_hash)}}}}}"
    return shlex.quote(f"hooks.state={table}")
