"""atomic_write: permissions kept, set or derived from the umask; no temporary file left."""

from __future__ import annotations

import os
from pathlib import Path

from hookwire._files import atomic_write


def test_new_file_gets_the_umask_mode_and_replacing_keeps_the_mode(tmp_path: Path) -> None:
    target = tmp_path / "sub" / "f.json"
    umask = os.umask(0o022)
    try:
        atomic_write(target, b"one")
    finally:
        os.umask(umask)
    assert target.read_bytes() == b"one" and target.stat().st_mode & 0o777 == 0o644
    target.chmod(0o640)
    atomic_write(target, b"two")
    assert target.read_bytes() == b"two" and target.stat().st_mode & 0o777 == 0o640
    atomic_write(target, b"three", mode=0o600)
    assert target.stat().st_mode & 0o777 == 0o600
    assert sorted(p.name for p in target.parent.iterdir()) == ["f.json"]
