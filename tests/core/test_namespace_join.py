"""``hookwire`` joins only its own slices: a ``hookwire/`` folder in the current directory
(even one shaped like a slice) never becomes part of the package, and ``python -m hookwire``
runs from there."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import hookwire


def test_a_hookwire_folder_in_the_current_directory_is_not_joined(tmp_path: Path) -> None:
    decoy = tmp_path / "hookwire"
    for sub in ("plugins", "evil"):
        (decoy / sub).mkdir(parents=True)
        (decoy / sub / "__init__.py").write_text("raise SystemExit('decoy imported')\n")
    probe = ("import hookwire, hookwire.plugins, json; "
             "print(json.dumps([hookwire.__path__, hookwire.plugins.__path__]))")
    for argv in ([sys.executable, "-c", probe], [sys.executable, "-m", "hookwire", "--version"]):
        proc = subprocess.run(argv, cwd=tmp_path, capture_output=True, text=True, timeout=60)
        assert proc.returncode == 0, proc.stderr
    out = subprocess.run([sys.executable, "-c", probe], cwd=tmp_path, capture_output=True,
                         text=True, timeout=60).stdout
    paths = [p for group in json.loads(out) for p in group]
    assert paths and not any(p.startswith(str(tmp_path)) for p in paths)
    version = subprocess.run([sys.executable, "-m", "hookwire", "--version"], cwd=tmp_path,
                             capture_output=True, text=True, timeout=60).stdout
    assert version == f"hookwire {hookwire.__version__}\n"


def test_the_version_is_written_once() -> None:
    root = Path(__file__).resolve().parents[2]
    from hookwire import _version

    assert hookwire.__version__ == _version.__version__
    pyproject = (root / "pyproject.toml").read_text()
    assert 'dynamic = ["version"]' in pyproject and "\nversion =" not in pyproject
    assert f"## {_version.__version__}" in (root / "CHANGELOG.md").read_text()
    assert "MIT License" in (root / "LICENSE").read_text()
