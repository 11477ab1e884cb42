"""Install receipts: every file and key an install touched, so uninstall needs nothing else.

A receipt lives at ``~/.config/hookwire/installs/<client>/<scope>/<plugin>.json`` (project
scope: ``project-<hash of the project path>``). Beside it, ``<plugin>.orig/<n>`` keeps each
file's bytes from before the first install (mode 0600), so that an uninstall of a file nobody
touched since restores it byte for byte.
"""

from __future__ import annotations

import datetime
import hashlib
import json
import os
from pathlib import Path
from typing import Any

import attrs

from hookwire.plugins.install.plan import read_bytes, write_atomic

SCHEMA = 1


def sha256(data: bytes | None) -> str | None:
    return None if data is None else hashlib.sha256(data).hexdigest()


@attrs.define(kw_only=True)
class FileRecord:
    """One touched file: ``created`` when it did not exist, ``backup`` the name of the saved
    original, ``after`` the digest of what hookwire last wrote, ``created_keys`` the JSON
    pointers hookwire added (``/hooks``, ``/hooks/PreToolUse``, ``/version``) and
    ``native_events`` the client events it wired."""

    path: str
    kind: str
    created: bool
    after: str | None
    backup: str | None = None
    created_keys: list[str] = attrs.field(factory=list)
    native_events: list[str] = attrs.field(factory=list)


@attrs.define(kw_only=True)
class Receipt:
    client: str
    plugin: str
    root: str
    scope: str
    project: str | None
    installed_at: str = attrs.field(factory=lambda: datetime.datetime.now(
        datetime.UTC).isoformat(timespec="seconds"))
    hookwire_version: str = ""
    files: list[FileRecord] = attrs.field(factory=list)
    #: Folders that did not exist before the install (client folders, hookwire's own state
    #: folders), deepest first: uninstall removes each one that is empty then.
    created_dirs: list[str] = attrs.field(factory=list)
    schema: int = SCHEMA

    def file(self, path: str) -> FileRecord | None:
        return next((f for f in self.files if f.path == path), None)

    def to_json(self) -> dict[str, Any]:
        return attrs.asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Receipt:
        files = [FileRecord(**f) for f in data.pop("files", [])]
        return cls(files=files, **data)


def config_home(home: Path) -> Path:
    """Where hookwire keeps its own state for ``home`` (XDG_CONFIG_HOME only for the real
    home, so tests with a temporary home never touch it)."""
    xdg = os.environ.get("XDG_CONFIG_HOME")
    if xdg and Path(home) == Path.home():
        return Path(xdg) / "hookwire"
    return Path(home) / ".config" / "hookwire"


def scope_key(scope: str, project: Path | None) -> str:
    if scope == "user" or project is None:
        return "user"
    digest = hashlib.sha256(str(Path(project).resolve()).encode()).hexdigest()[:12]
    return f"project-{digest}"


def location(home: Path, client: str, scope: str, project: Path | None, plugin: str) -> Path:
    return config_home(home) / "installs" / client / scope_key(scope, project) / f"{plugin}.json"


def load(path: Path) -> Receipt | None:
    data = read_bytes(path)
    return None if data is None else Receipt.from_json(json.loads(data))


def save(path: Path, receipt: Receipt) -> None:
    text = json.dumps(receipt.to_json(), indent=2, ensure_ascii=False) + "\n"
    write_atomic(path, text.encode("utf-8"), 0o600)


def backup_dir(path: Path) -> Path:
    return path.with_suffix(".orig")


def save_backup(path: Path, target: str, data: bytes) -> str:
    folder = backup_dir(path)
    folder.mkdir(parents=True, exist_ok=True, mode=0o700)
    name = hashlib.sha256(target.encode()).hexdigest()[:16]
    write_atomic(folder / name, data, 0o600)
    return name


def read_backup(path: Path, name: str) -> bytes | None:
    return read_bytes(backup_dir(path) / name)


def missing_dirs(paths: list[Path]) -> list[str]:
    """The folders an install will create to write ``paths``, deepest first."""
    out: list[str] = []
    for path in paths:
        parent = Path(path).parent
        chain = []
        while not parent.exists() and parent != parent.parent:
            chain.append(str(parent))
            parent = parent.parent
        out += [c for c in chain if c not in out]
    return sorted(out, key=lambda p: -p.count("/"))


def prune_dirs(dirs: list[str]) -> list[str]:
    """Remove each folder of ``dirs`` that is empty (deepest first); the ones left."""
    left = []
    for folder in sorted(dict.fromkeys(dirs), key=lambda p: -p.count("/")):
        try:
            os.rmdir(folder)
        except FileNotFoundError:
            continue
        except OSError:
            left.append(folder)
    return left


def all_receipts(home: Path) -> list[Path]:
    base = config_home(home) / "installs"
    return sorted(p for p in base.glob("*/*/*.json") if not p.name.endswith(".entry.json"))


def remove(path: Path) -> None:
    folder = backup_dir(path)
    if folder.is_dir():
        for child in folder.iterdir():
            child.unlink()
        folder.rmdir()
    write_atomic(path, None)
