"""Install and uninstall: plan every file change first, then write (or only print the diff).

Install reads the plugin's ``hooks.json`` (an invalid one is refused, with its problems),
asks the client for each target's new content, and records a receipt: every file, whether
hookwire created it, the keys it added, and the original bytes. Uninstall needs only the
receipt: a file still exactly as hookwire left it gets its original bytes back; a file edited
since loses only hookwire's entries and the containers hookwire created.
"""

from __future__ import annotations

import json
from pathlib import Path

import attrs

from hookwire.dialects.portable import config as portable_config
from hookwire.errors import ConfigError
from hookwire.plugins.install import capability, entry, receipt
from hookwire.plugins.install._base import Client, InstallContext, Target
from hookwire.plugins.install.errors import InstallError
from hookwire.plugins.install.names import DEFAULT_PREFIX
from hookwire.plugins.install.plan import FileChange, read_bytes, write_atomic


@attrs.frozen(kw_only=True)
class Result:
    """What happened (or, with ``dry_run``, would happen)."""

    client: str
    plugin: str
    changes: tuple[FileChange, ...]
    receipt_path: Path
    report: str = ""
    skipped: tuple[str, ...] = ()
    dry_run: bool = False

    @property
    def changed(self) -> bool:
        return any(c.changed for c in self.changes)


def clients() -> dict[str, Client]:
    """Every supported client by its ``--client`` name."""
    from hookwire.plugins.install.claude_code import ClaudeCode
    from hookwire.plugins.install.cline import Cline
    from hookwire.plugins.install.codex import Codex
    from hookwire.plugins.install.copilot_cli import CopilotCli
    from hookwire.plugins.install.cursor import Cursor
    from hookwire.plugins.install.gemini_cli import GeminiCli
    from hookwire.plugins.install.grok import Grok
    from hookwire.plugins.install.kilo import Kilo
    from hookwire.plugins.install.kiro import Kiro
    from hookwire.plugins.install.opencode import OpenCode
    from hookwire.plugins.install.pi import Pi
    from hookwire.plugins.install.windsurf import Windsurf

    found = [ClaudeCode(), Codex(), Cursor(), CopilotCli(), GeminiCli(), Cline(), Windsurf(),
             OpenCode(), Grok(), Kilo(), Pi(), Kiro()]
    return {c.name: c for c in found}


def client(name: str) -> Client:
    table = clients()
    if name not in table:
        raise InstallError(f"unknown client {name!r} (known: {', '.join(table)})")
    return table[name]


def load_plugin(plugin_dir: Path) -> portable_config.PluginHooks:
    try:
        hooks = portable_config.load(Path(plugin_dir).absolute())
    except ConfigError as exc:
        raise InstallError(f"cannot read the plugin's hooks: {exc}") from None
    if not hooks.ok:
        problems = "\n  ".join(str(p) for p in hooks.problems if p.severity == "error")
        raise InstallError(f"the plugin's hooks.json is invalid; nothing installed:\n  {problems}")
    if not hooks.handlers:
        raise InstallError(f"{hooks.file} declares no handlers; nothing to install")
    return hooks


def install(client_name: str, plugin_dir: Path, *, scope: str = "user", home: Path,
            project: Path | None = None, dry_run: bool = False,
            prefix: tuple[str, ...] | None = None) -> Result:
    """``prefix``: how entries start the shim (``--command``); ``None`` writes the fast entry
    for the clients that have one (``entry.py``) and ``DEFAULT_PREFIX`` for the others."""
    cl = client(client_name)
    hooks = load_plugin(plugin_dir)
    rpath = receipt.location(home, cl.name, scope, project, hooks.name)
    plan_file = entry.plan_path(rpath)
    fast = prefix is None and cl.fast_entry is not None
    ctx = InstallContext(plugin=hooks, prefix=prefix or DEFAULT_PREFIX,
                         plan=plan_file if fast else None,
                         project=Path(project).absolute() if scope == "project" and project
                         else None)
    old = receipt.load(rpath)
    if old is not None and old.root != str(hooks.root):
        raise InstallError(f"a plugin named {hooks.name!r} from {old.root} is installed for "
                           f"{cl.name}; uninstall it first")
    targets = cl.targets(scope, home, project, hooks)
    changes: list[FileChange] = []
    records: list[receipt.FileRecord] = []
    backups: dict[int, bytes] = {}
    skipped: list[str] = []
    warnings: list[str] = []
    for target in targets:
        before = read_bytes(target.path)
        built = cl.build(target, before, ctx)
        skipped += built.skipped
        warnings += built.warnings
        prior = old.file(str(target.path)) if old else None
        change = FileChange(path=str(target.path), before=before, after=built.after,
                            mode=built.mode)
        changes.append(change)
        if prior is None and not change.changed and target.kind != "shared":
            continue  # (a shared file, e.g. the TypeScript bridge, is recorded by every plugin)
        if prior is not None:
            keys = [*prior.created_keys, *(k for k in built.created_keys
                                           if k not in prior.created_keys)]
            record = attrs.evolve(prior, after=receipt.sha256(built.after), created_keys=keys,
                                  native_events=list(built.natives))
            if before is not None and receipt.sha256(before) != prior.after:
                # Edited since the last install: what "original" means is now this file
                # without hookwire's entries, or the saved bytes would undo the user's edits.
                base = cl.unbuild(target, before, ctx.root, keys, prior.created)
                record.created = base is None
                record.backup = None
                if base is not None:
                    backups[len(records)] = base
        else:
            record = receipt.FileRecord(path=str(target.path), kind=target.kind,
                                        created=before is None,
                                        after=receipt.sha256(built.after),
                                        created_keys=list(built.created_keys),
                                        native_events=list(built.natives))
            if before is not None:
                backups[len(records)] = before
        records.append(record)
    rec = receipt.Receipt(client=cl.name, plugin=hooks.name, root=str(hooks.root), scope=scope,
                          project=str(project) if project else None,
                          hookwire_version=_version(), files=records)
    if old is not None:
        rec.installed_at = old.installed_at
        rec.created_dirs = list(old.created_dirs)
    written = [rpath, *(Path(c.path) for c in changes if c.changed and c.after is not None)]
    rec.created_dirs += [d for d in receipt.missing_dirs(written) if d not in rec.created_dirs]
    report = capability.render(cl.display, cl.capabilities, hooks.events,
                               [str(t.path) for t in targets if _touched(t, changes, records)])
    if skipped:
        report += "  not installed (a hook file of your own is there): " + ", ".join(skipped) \
                  + "\n"
    report += "".join(f"  warning: {w}\n" for w in warnings)
    result = Result(client=cl.name, plugin=hooks.name, changes=tuple(changes),
                    receipt_path=rpath, report=report, skipped=tuple(skipped), dry_run=dry_run)
    if dry_run:
        return result
    for i, data in backups.items():
        records[i].backup = receipt.save_backup(rpath, records[i].path, data)
    if fast:  # the plan first: an entry that finds none runs the full shim
        plan = json.dumps(entry.compile_plan(cl, hooks), indent=1, ensure_ascii=False)
        write_atomic(plan_file, plan.encode("utf-8") + b"\n", 0o600)
        entry.precompile()
    elif plan_file.exists():
        write_atomic(plan_file, None)
    for change in changes:
        if change.changed:
            write_atomic(Path(change.path), change.after, change.mode)
    receipt.save(rpath, rec)
    return result


def uninstall(client_name: str, plugin_dir: Path, *, scope: str = "user", home: Path,
              project: Path | None = None, dry_run: bool = False) -> Result:
    cl = client(client_name)
    root = Path(plugin_dir).absolute()
    name = portable_config.plugin_name(root)
    rpath = receipt.location(home, cl.name, scope, project, name)
    rec = receipt.load(rpath)
    if rec is None:
        raise InstallError(f"{name} is not installed for {cl.name} ({scope} scope): no receipt "
                           f"at {rpath}")
    targets = {str(t.path): t for t in _targets_of(cl, rec)}
    changes: list[FileChange] = []
    for record in rec.files:
        path = Path(record.path)
        current = read_bytes(path)
        if current is None:
            continue  # removed by the user already
        if receipt.sha256(current) == record.after and record.kind != "shared":
            original = None if record.created else (
                receipt.read_backup(rpath, record.backup) if record.backup else None)
            if not record.created and original is None:
                raise InstallError(f"the saved original of {path} is missing; not touching it")
            after = original
        else:
            target = targets.get(record.path) or Target(path=path, kind=record.kind)
            after = cl.unbuild(target, current, rec.root, record.created_keys, record.created)
        changes.append(FileChange(path=record.path, before=current, after=after))
    result = Result(client=cl.name, plugin=name, changes=tuple(changes), receipt_path=rpath,
                    dry_run=dry_run)
    if not dry_run:
        for change in changes:
            if change.changed:
                write_atomic(Path(change.path), change.after)
        receipt.remove(rpath)
        if entry.plan_path(rpath).exists():
            write_atomic(entry.plan_path(rpath), None)
        _tidy(cl, rec, home)
    return result


def _tidy(cl: Client, rec: receipt.Receipt, home: Path) -> None:
    """After an uninstall: the client's session markers of this plugin (when no install of it
    for this client remains), then every folder the install created that is empty now. A
    folder still in use passes to the remaining receipts, so the last uninstall removes it."""
    import shutil

    from hookwire.plugins.install._base import state_dir

    others = receipt.all_receipts(home)
    if not any(p.parent.parent.name == cl.name and p.stem == rec.plugin for p in others):
        markers = state_dir(rec.plugin) / f"{cl.name}-sessions"
        shutil.rmtree(markers, ignore_errors=True)
        receipt.prune_dirs([str(markers.parent), str(markers.parent.parent)])
    left = receipt.prune_dirs(rec.created_dirs)
    if not left:
        return
    for path in others:
        other = receipt.load(path)
        if other is None:
            continue
        other.created_dirs += [d for d in left if d not in other.created_dirs]
        receipt.save(path, other)


def _targets_of(cl: Client, rec: receipt.Receipt) -> list[Target]:
    try:
        hooks = portable_config.PluginHooks(root=Path(rec.root), name=rec.plugin,
                                            file=Path(rec.root) / "hooks.json")
        project = Path(rec.project) if rec.project else None
        home = Path("/")  # only the targets' kinds and roles matter here
        found = cl.targets(rec.scope, home, project, hooks)
    except InstallError:
        return []
    by_name = {t.path.name: t for t in found}
    out = []
    for f in rec.files:
        t = by_name.get(Path(f.path).name)
        out.append(Target(path=Path(f.path), kind=f.kind, role=t.role if t else "hooks"))
    return out


def _touched(target: Target, changes: list[FileChange], records: list[receipt.FileRecord]
             ) -> bool:
    return any(r.path == str(target.path) for r in records)


def _version() -> str:
    from hookwire import __version__

    return __version__
