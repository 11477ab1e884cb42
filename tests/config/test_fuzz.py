"""Hypothesis: the loader never crashes; every failure is a ConfigError with a location."""

from __future__ import annotations

import os
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from ruamel.yaml import YAML

from hookwire.config import ConfigFileError, HooksFile, load_text
from hookwire.errors import ConfigError


def _examples(default: int) -> int:
    """``HOOKWIRE_FUZZ_EXAMPLES`` (``nox -s fuzz``) or the suite's modest default."""
    return int(os.environ.get("HOOKWIRE_FUZZ_EXAMPLES", default))


FIELDS = ["dialect", "event", "type", "command", "matcher", "timeout", "onFailure", "async",
          "options", "source", "version", "sources", "hooks", "path", "optional", "bogus"]
scalars = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=True),
                    st.text(max_size=12), st.sampled_from(["command", "echo", "stop", "block",
                                                           "imported:claude", ""]))
values = st.recursive(
    scalars,
    lambda inner: st.one_of(st.lists(inner, max_size=4),
                            st.dictionaries(st.sampled_from(FIELDS), inner, max_size=5)),
    max_leaves=20)
documents = st.dictionaries(st.sampled_from(["version", "sources", "hooks", "extra"]),
                            values, max_size=4)


def check(text: str) -> HooksFile | None:
    try:
        return load_text(text, file="fuzz.yaml").document
    except ConfigError as exc:
        assert isinstance(exc, ConfigFileError)
        for err in exc.errors:
            assert err.file == "fuzz.yaml"
            assert isinstance(err.line, int) and err.line >= 1
            # YAML also breaks lines at \r, NEL, LS and PS: splitlines() is an upper bound
            assert err.line <= len(text.splitlines()) + 1
            assert err.message
        return None


yaml_tokens = st.sampled_from([
    "hooks:", "sources:", "version: 1", "- ", "  ", "    ", "\n", "dialect: echo",
    "event: stop", "type: command", "command: [a, b]", "command: x", "&a ", "*a", "!!set",
    "!tag ", "{", "}", "[", "]", ",", ":", "? ", "'", '"', "#c", "<<: *a", "---", "...",
    "\t", "%YAML 1.2", "!!binary aGk=", "2020-01-01", "0x1F", ".inf", "\x00", "\ufeff",
])


@settings(max_examples=_examples(400), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(yaml_tokens, max_size=40).map("".join))
def test_token_soup_never_crashes(text: str) -> None:
    check(text)


@settings(max_examples=_examples(300), deadline=None)
@given(st.text(max_size=200))
def test_arbitrary_text_never_crashes(text: str) -> None:
    check(text)


@settings(max_examples=_examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(documents, st.booleans())
def test_structured_documents_load_or_fail_with_a_location(doc: dict[str, Any],
                                                           flow: bool) -> None:
    import io

    yaml = YAML()
    yaml.default_flow_style = flow
    buf = io.StringIO()
    yaml.dump(doc, buf)
    check(buf.getvalue())


# ruamel's emitter writes NEL/LS/PS unquoted, and they read back as line breaks (an emitter
# limitation the writer guards against by re-reading what it wrote)
argv = st.lists(st.text(min_size=1, max_size=8).filter(
    lambda s: not set(s) & {"\0", "\x85", "\u2028", "\u2029"}),
                min_size=1, max_size=4).filter(lambda a: a[0].strip() != "")  # a blank
# program is a config error (issue #25)


@settings(max_examples=_examples(200), deadline=None)
@given(st.lists(st.fixed_dictionaries(
    {"dialect": st.sampled_from(["echo", "claude"]), "event": st.sampled_from(["stop", "x"]),
     "type": st.just("command"), "command": argv},
    optional={"matcher": st.text(max_size=5), "timeout": st.floats(0.1, 100),
              "async": st.booleans(), "source": st.sampled_from(["imported:claude",
                                                                 "plugin:p"])}),
    max_size=4))
def test_valid_documents_round_trip(hooks: list[dict[str, Any]]) -> None:
    import io

    buf = io.StringIO()
    YAML().dump({"version": 1, "hooks": hooks}, buf)
    doc = load_text(buf.getvalue(), file="ok.yaml").document
    assert [list(h.command) for h in doc.hooks] == [h["command"] for h in hooks]
    assert [h.async_ for h in doc.hooks] == [h.get("async", False) for h in hooks]
