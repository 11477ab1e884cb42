"""The entry-point scan (``hookwire._entrypoints``) finds what ``importlib.metadata`` finds, for
hookwire's groups: compared with it on this environment and on distributions written to
``tmp_path`` (a name shadowed by an earlier one, an ``.egg-info``, a zip file on the path,
comments and extras), and a load error still names the distribution and its version."""

from __future__ import annotations

import zipfile
from importlib import metadata
from pathlib import Path

import pytest

from hookwire import _entrypoints
from hookwire._version import __version__
from hookwire.kernel import Kernel

Row = tuple[str, str, str, "str | None", "str | None"]


def _ours(path: list[str]) -> list[Row]:
    found = _entrypoints._scan(path)
    return [(g, e.name, e.value, e.dist and e.dist.name, e.dist and e.dist.version)
            for g in _entrypoints.GROUPS
            for e in sorted((e for e in found if e.group == g), key=lambda e: e.name)]


def _theirs(path: list[str]) -> list[Row]:
    """importlib.metadata's answer for ``path``: its distributions, the first of each name."""
    seen: set[str] = set()
    eps: list[metadata.EntryPoint] = []
    for dist in metadata.distributions(path=path):
        name = dist._normalized_name  # type: ignore[attr-defined]
        if name not in seen:
            seen.add(name)
            eps += dist.entry_points
    return [(g, e.name, e.value, e.dist and e.dist.metadata["Name"], e.dist and e.dist.version)
            for g in _entrypoints.GROUPS
            for e in sorted((e for e in eps if e.group == g), key=lambda e: e.name)]


def _dist(root: Path, folder: str, name: str, version: str, entry_points: str,
          metadata_file: str = "METADATA") -> None:
    info = root / folder
    info.mkdir(parents=True)
    (info / metadata_file).write_text(
        f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n"
        "Summary: Name: not this one\n\nVersion: nor this\n")
    (info / "entry_points.txt").write_text(entry_points)


def test_the_scan_matches_importlib_metadata_here() -> None:
    import sys

    ours = [(g, e.name, e.value, e.dist and e.dist.name, e.dist and e.dist.version)
            for g, e in _entrypoints.iter_entry_points()]
    eps = metadata.entry_points()
    theirs = [(g, e.name, e.value, e.dist and e.dist.metadata["Name"], e.dist and e.dist.version)
              for g in _entrypoints.GROUPS
              for e in sorted(eps.select(group=g), key=lambda e: e.name)]
    assert ours == theirs and ("hookwire.dialects", "claude", "hookwire.dialects.claude:plugin",
                               "hookwire", __version__) in ours, sys.path


def test_the_scan_matches_importlib_metadata_on_odd_distributions(tmp_path: Path) -> None:
    first, second = tmp_path / "first", tmp_path / "second"
    _dist(first, "Toy.Plugin-1.0.dist-info", "toy.plugin", "1.0",
          "# comment\n[console_scripts]\ntoy = toy:main\n\n[hookwire.plugins]\n"
          "  toy = toy_plugin.mod:obj.attr [extra1, extra2]\n"
          "[hookwire.dialects]\nzeta=toy_plugin:z\nalpha = toy_plugin:a\n")
    # the same normalized name later on the path: importlib.metadata takes the first only
    _dist(second, "toy_plugin-2.0.dist-info", "toy_plugin", "2.0",
          "[hookwire.plugins]\nshadowed = nowhere:x\n")
    _dist(second, "Legacy_Thing-0.3.egg-info", "Legacy-Thing", "0.3",
          "[hookwire.dialects]\nlegacy = legacy:plugin\n", metadata_file="PKG-INFO")
    (second / "flat-1.0.egg-info").write_text("Name: flat\nVersion: 1.0\n")  # a file, no eps
    _dist(second, "nothing-1.0.dist-info", "nothing", "1.0", "[other.group]\nx = y:z\n")
    packed = tmp_path / "packed.zip"
    with zipfile.ZipFile(packed, "w") as zf:
        zf.writestr("zipped-4.2.dist-info/METADATA", "Name: Zipped\nVersion: 4.2\n")
        zf.writestr("zipped-4.2.dist-info/entry_points.txt", "[hookwire.plugins]\nz = zz:p\n")
    path = [str(first), str(tmp_path / "missing"), str(second), str(packed)]
    ours = _ours(path)
    assert ours == _theirs(path)
    assert ours == [
        ("hookwire.dialects", "alpha", "toy_plugin:a", "toy.plugin", "1.0"),
        ("hookwire.dialects", "legacy", "legacy:plugin", "Legacy-Thing", "0.3"),
        ("hookwire.dialects", "zeta", "toy_plugin:z", "toy.plugin", "1.0"),
        ("hookwire.plugins", "toy", "toy_plugin.mod:obj.attr [extra1, extra2]", "toy.plugin",
         "1.0"),
        ("hookwire.plugins", "z", "zz:p", "Zipped", "4.2")]


def test_a_line_without_a_value_is_skipped_and_said(caplog: pytest.LogCaptureFixture) -> None:
    # importlib.metadata raises on it, for every entry point of every distribution
    with caplog.at_level("WARNING", logger="hookwire"):
        found = _entrypoints._parse("[hookwire.plugins]\nno value here\nok = m:p\n"
                                    "[other.group]\nnot ours\n", "x.dist-info")
    assert [(e.name, e.value) for e in found] == [("ok", "m:p")]
    [record] = caplog.records
    assert "'no value here'" in record.getMessage() and "x.dist-info" in record.getMessage()


def test_an_entry_point_loads_its_attribute_path(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "toy_startup_mod.py").write_text("class obj:\n    attr = 42\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    ep = _entrypoints.EntryPoint("toy", "toy_startup_mod:obj.attr [x]", "hookwire.plugins", None)
    assert ep.load() == 42
    assert _entrypoints.EntryPoint("m", "toy_startup_mod", "g", None).load().obj.attr == 42


def test_a_broken_entry_point_names_its_distribution(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    _dist(tmp_path, "broken_toy-9.9.dist-info", "Broken-Toy", "9.9",
          "[hookwire.plugins]\nbroken-toy = hookwire_no_such_module:plugin\n"
          "raising-toy = toy_raising_mod:plugin\n")
    (tmp_path / "toy_raising_mod.py").write_text(
        "from hookwire import declare\n"
        "def register_dialects():\n    raise RuntimeError('no dialect today')\n"
        "plugin = declare(register_dialects=register_dialects)\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delenv(_entrypoints.DENY_ENV, raising=False)
    errors = {e.entry_point: e for e in Kernel().load_errors}
    assert {"broken-toy", "raising-toy"} <= set(errors)
    assert (errors["broken-toy"].dist, errors["broken-toy"].version) == ("Broken-Toy", "9.9")
    assert "from Broken-Toy 9.9: ModuleNotFoundError" in str(errors["broken-toy"])
    assert "from Broken-Toy 9.9: RuntimeError('no dialect today')" in str(errors["raising-toy"])

    monkeypatch.setenv(_entrypoints.DENY_ENV, "broken-toy, raising-toy")
    kernel = Kernel()
    assert not [e for e in kernel.load_errors if e.dist == "Broken-Toy"]
    assert {("hookwire.plugins", "broken-toy"), ("hookwire.plugins", "raising-toy")} <= set(
        kernel.registry.disabled)


def test_loaded_entry_points_name_their_distribution() -> None:
    loaded = {lo.name: lo for lo in Kernel().loaded}
    assert (loaded["runlog"].dist, loaded["runlog"].version) == ("hookwire", __version__)
    assert loaded["claude"].group == "hookwire.dialects"


def test_an_entry_points_file_that_is_not_utf8_is_said(tmp_path: Path,
                                                       caplog: pytest.LogCaptureFixture) -> None:
    bad = tmp_path / "entry_points.txt"
    bad.write_bytes(b"[hookwire.plugins]\nx = m:p  # \xff\n")
    with caplog.at_level("WARNING", logger="hookwire"):
        assert _entrypoints._read(str(bad)) == ""
    assert "not UTF-8" in caplog.text and str(bad) in caplog.text
