"""The trust tier: which external hooks may run, pinned by content, checked without a race.

Trust attaches to an entry's provenance, never to the file it sits in. Hooks the user or the
project wrote (and managed settings) run. Hooks that were *imported*, are *read live* from a
foreign config, or come *bundled with a plugin* run only when the user approved them with
``hookwire trust``, which stores a record in ``trust.json`` in the user's hookwire config
directory (see :func:`hookwire.config.loader.user_dir`). A record pins:

* the hook's identity — dialect, event, matcher and the exact command text or argv (its hash
  is the hook's id, so an edited command is a new, pending hook);
* the resolved path of the file that runs (the executable, or the script an interpreter runs);
* the SHA-256 of that file's content;
* the helper files the script loads from its folder (sourced, imported, required), each with
  its SHA-256, or that folder as a unit (:mod:`hookwire._helpers`).

States: ``pending`` (no record), ``trusted`` (record and file agree), ``changed`` (the file's
path or content differs from the record: it does not run, and is pending approval again).

At run time the gate does not check a path and then run it (the file could be swapped in
between). It reads the file once through one descriptor, hashes exactly those bytes, and runs a
private read-only copy of them from a directory only this process writes to; the command is
rewritten to that copy. What runs is therefore exactly what was approved.
"""

from __future__ import annotations

import contextlib
import datetime as _dt
import hashlib
import json
import logging
import os
import shlex
import shutil
import tempfile
import weakref
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

import attrs

from hookwire import _helpers, _policy, _runs
from hookwire._files import atomic_write
from hookwire._pins import INTERPRETERS as INTERPRETERS
from hookwire._pins import Pin as Pin
from hookwire._pins import cannot_run as cannot_run
from hookwire._pins import command_argv as command_argv
from hookwire._pins import digest_of as digest_of
from hookwire._pins import resolve as resolve
from hookwire._pins import resolve_all as resolve_all
from hookwire._pins import resolve_chain as resolve_chain
from hookwire._sample import dialect_trust as dialect_trust
from hookwire._sample import sample_command as sample_command
from hookwire.config.loader import user_dir
from hookwire.dialect import HookEntry, Provenance
from hookwire.events import CONTINUE_SEAMS, Seam
from hookwire.runner import Command
from hookwire.verdicts import Answer, Decision

log = logging.getLogger("hookwire.trust")

TRUST_FILE = "trust.json"
#: Provenances that run only with a trust record.
GATED = frozenset({Provenance.IMPORTED, Provenance.LIVE, Provenance.PLUGIN})
def _env_flag(name: str) -> bool:
    return os.environ.get(name, "").strip().lower() in ("1", "true", "yes", "on")


def strict_setting() -> bool:
    """``HOOKWIRE_TRUST_STRICT=1``: refuse gated hooks pinned by command text only."""
    return _env_flag("HOOKWIRE_TRUST_STRICT")


class TrustState:
    """The trust states of a hook (plain strings, for printing and JSON)."""

    AUTHORED = "authored"  #: user-, project- or admin-authored: runs without a record
    PENDING = "pending"    #: gated, never approved (or revoked)
    TRUSTED = "trusted"    #: approved, and the pinned file is unchanged
    CHANGED = "changed"    #: approved, but the pinned file's path or content changed


def needs_trust(entry: HookEntry) -> bool:
    """Whether ``entry`` runs only with a trust record (by provenance, never by file)."""
    return entry.provenance in GATED


def _canonical(value: Any) -> bytes:
    return json.dumps(value, sort_keys=True, separators=(",", ":"),
                      ensure_ascii=False).encode("utf-8")


def identity(entry: HookEntry) -> dict[str, Any]:
    """What a record pins besides the file: dialect, event, matcher and the command as written
    (shell text and an argv with the same words are different hooks)."""
    command: Any = entry.command if isinstance(entry.command, str) else list(entry.command)
    found = {"dialect": entry.dialect, "event": entry.event, "matcher": entry.matcher,
             "command": command, "form": "shell" if isinstance(entry.command, str) else "argv"}
    if entry.project is not None:  # a repository's hook is approved for that repository only
        found["project"] = _policy.normal(entry.project)
    return found


def command_hash(entry: HookEntry) -> str:
    """``sha256:<hex>`` of the entry's identity."""
    return "sha256:" + hashlib.sha256(_canonical(identity(entry))).hexdigest()


def hook_id(entry: HookEntry) -> str:
    """The short id ``hookwire trust`` shows and takes (12 hex digits of the command hash)."""
    return command_hash(entry)[7:19]


# -- records --------------------------------------------------------------------------------------


@attrs.frozen(kw_only=True)
class Record:
    """One approval: the hook's ``id``, its ``command_hash``, the ``pin`` and what the user saw
    when approving (``dialect``, ``event``, ``command``, ``source``, ``approved``)."""

    id: str
    command_hash: str
    pin: Pin
    dialect: str
    event: str
    command: str
    source: str = ""
    approved: str = ""


class TrustStore:
    """The user's ``trust.json`` (re-read when it changes on disk, written atomically, 0600)."""

    def __init__(self, path: str | Path | None = None,
                 env: Mapping[str, str] | None = None) -> None:
        self.path = Path(path) if path is not None else user_dir(env) / TRUST_FILE
        self._records: dict[str, Record] = {}
        self._folders: list[str] = []
        self._stamp: tuple[int, int] | None = None
        self._load()

    def _load(self) -> None:
        try:
            st = self.path.stat()
        except OSError:
            self._records, self._folders, self._stamp = {}, [], None
            return
        stamp = (st.st_mtime_ns, st.st_size)
        if stamp == self._stamp:
            return
        folders: list[str] = []
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
            folders = [str(f["path"]) for f in data.get("folders") or ()]
            records = {}
            for rid, raw in (data.get("records") or {}).items():
                pin = Pin.from_json(raw["pin"])
                records[rid] = Record(id=rid, command_hash=raw["command_hash"], pin=pin,
                                      dialect=raw.get("dialect", ""),
                                      event=raw.get("event", ""),
                                      command=raw.get("command", ""),
                                      source=raw.get("source", ""),
                                      approved=raw.get("approved", ""))
        except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
            # an unreadable store trusts nothing (fail closed) and says so
            log.warning("cannot read trust records %s: %r; no imported hook is trusted",
                        self.path, exc)
            records, folders = {}, []
        self._records, self._folders, self._stamp = records, folders, stamp

    def get(self, rid: str) -> Record | None:
        self._load()
        return self._records.get(rid)

    @property
    def records(self) -> Mapping[str, Record]:
        self._load()
        return dict(self._records)

    @property
    def folders(self) -> list[str]:
        """The folders the user trusts (``hookwire trust --folder``), normalised."""
        self._load()
        return list(self._folders)

    def trust_folder(self, path: str | os.PathLike[str], *, revoke: bool = False) -> bool:
        """Add (or with ``revoke`` remove) a trusted folder; ``False`` when nothing changed."""
        self._load()
        folder = _policy.normal(path)
        if (folder in self._folders) != revoke:
            return False
        self._folders = [f for f in self._folders if f != folder] + ([] if revoke else [folder])
        self._save()
        return True

    def put(self, record: Record) -> None:
        self._load()
        self._records[record.id] = record
        self._save()

    def remove(self, rid: str) -> bool:
        self._load()
        found = self._records.pop(rid, None) is not None
        if found:
            self._save()
        return found

    def _save(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        data = {"version": 1, "records": {
            rid: {**attrs.asdict(r, filter=lambda a, _: a.name not in ("id", "pin")),
                  "pin": r.pin.to_json()}
            for rid, r in sorted(self._records.items())},
            "folders": [{"path": f} for f in self._folders]}
        text = json.dumps(data, indent=2, ensure_ascii=False) + "\n"
        atomic_write(self.path, text.encode("utf-8"), mode=0o600)
        self._stamp = None
        self._load()


# -- what a hook would run, outside a session: hookwire._sample ---------------------------------

def state_of(entry: HookEntry, store: TrustStore, current: Pin) -> str:
    """The trust state of ``entry`` given what its command resolves to now."""
    if not needs_trust(entry) and entry.project is None:
        return TrustState.AUTHORED
    record = store.get(hook_id(entry))
    if record is None or record.command_hash != command_hash(entry):
        return TrustState.PENDING
    return TrustState.TRUSTED if record.pin.same(current) else TrustState.CHANGED


def approve(entry: HookEntry, store: TrustStore, current: Pin, *, source: str = "") -> Record:
    """Record ``entry`` as trusted with the file it resolves to now."""
    record = Record(id=hook_id(entry), command_hash=command_hash(entry), pin=current,
                    dialect=entry.dialect, event=entry.event, command=entry.display,
                    source=source or entry.provenance.value,
                    approved=_dt.datetime.now(_dt.UTC).isoformat(timespec="seconds"))
    store.put(record)
    return record


# -- the run-time gate -----------------------------------------------------------------------------


def describe(entry: HookEntry) -> str:
    where = ""
    if entry.location.file:
        where = f" from {entry.location.file}" + (
            f":{entry.location.line}" if entry.location.line else "")
    return (f"{entry.dialect}:{entry.event} hook `{entry.display}` "
            f"({entry.provenance.value}{where}, id {hook_id(entry)})")


class TrustGate:
    """The kernel's ``trust_gate``: ``kernel.trust_gate = TrustGate(kernel)``.

    Authored hooks pass untouched. A gated hook without a record is refused; with one, the
    kernel hands its built Command to a check that verifies the pinned file and rewrites the
    command to a private, read-only copy of the verified bytes.
    """

    def __init__(self, kernel: Any, store: TrustStore | None = None,
                 private_dir: str | None = None, *, strict: bool | None = None,
                 pin_harness_trusted: bool | None = None) -> None:
        self.kernel = kernel
        self.store = store if store is not None else TrustStore()
        self._dir = private_dir
        self._warned: set[str] = set()
        #: Refuse hooks whose exec chain is pinned by command text only.
        self.strict = strict_setting() if strict is None else strict
        #: Pin by content also the hooks a harness trusts by its own records (Codex: command
        #: identity); off by default, so Codex keeps its own semantics.
        self.pin_harness_trusted = (_env_flag("HOOKWIRE_TRUST_PIN_HARNESS")
                                    if pin_harness_trusted is None else pin_harness_trusted)

    def folders(self) -> list[str]:
        """Every trusted folder: the host's, ``$HOOKWIRE_TRUSTED_FOLDERS``, the user's list."""
        host = [_policy.normal(f) for f in getattr(self.kernel, "trusted_folders", ())]
        return [*host, *_policy.from_env(), *self.store.folders]

    def waiting(self, entry: HookEntry) -> str | None:
        """Why ``entry`` waits for approval, with the commands that approve it; ``None`` when
        it may run (authored, approved, in a trusted folder, or its harness decides)."""
        gated = needs_trust(entry)
        if not gated and (entry.project is None or self.folder_trusted(entry.project)):
            return None
        if gated and not self.pin_harness_trusted and \
                dialect_trust(self.kernel, entry).runs is not None:
            return None  # the harness's own trust record decides (Codex)
        record = self.store.get(hook_id(entry))
        if record is not None and record.command_hash == command_hash(entry):
            return None  # approved: its pinned content is checked when it runs
        how = f"approve it with `hookwire trust {hook_id(entry)}`"
        if not gated and entry.project is not None:
            how += (f", or trust its folder with "
                    f"`hookwire trust --folder {shlex.quote(entry.project)}`")
        return f"{describe(entry)} waits for approval: {how}"

    def folder_trusted(self, project: str) -> bool:
        """Whether a repository in ``project`` is trusted (or ``project_hooks="run"``)."""
        if getattr(self.kernel, "project_hooks", _policy.ASK) == _policy.RUN:
            return True
        return _policy.covering(project, self.folders()) is not None

    def __call__(self, entry: HookEntry, seam: Seam) -> Answer | Callable[..., Any] | None:
        if not needs_trust(entry):
            if entry.project is None or self.folder_trusted(entry.project):
                return None
            why = self.waiting(entry)  # a repository's hook in an untrusted folder
            if why is not None:  # named at session start; skipped, never a deny
                return Answer(diagnostics=(f"skipped: {why}",))
        if not self.pin_harness_trusted and dialect_trust(self.kernel, entry).runs is True:
            return None
        record = self.store.get(hook_id(entry))
        if record is None or record.command_hash != command_hash(entry):
            return self.refuse(entry, seam, "it was never approved (pending)")

        def check(command: Command) -> Command | Answer:
            return self.verified(entry, seam, record, command)
        return check

    def refuse(self, entry: HookEntry, seam: Seam, why: str) -> Answer:
        """Deny on a blocking event, skip with a warning on an advisory one."""
        rid = hook_id(entry)
        text = (f"untrusted {describe(entry)} was not run: {why}; "
                f"approve it with `hookwire trust {rid}`")
        spec = None
        with contextlib.suppress(Exception):
            spec = self.kernel.dialect(entry.dialect).events.get(entry.event)
        if rid not in self._warned:
            self._warned.add(rid)
            log.warning("%s", text)
        # On stop seams a block would mean "keep the agent going": never do that for a hook
        # that did not run.
        if spec is not None and spec.can_block and seam not in CONTINUE_SEAMS:
            decision = Decision.DENY if seam in (Seam.TOOL_PRE, Seam.APPROVE) else Decision.BLOCK
            return Answer(decision=decision, reason=f"hookwire: {text}", diagnostics=(text,))
        return Answer(diagnostics=(f"skipped {text}",))

    def verified(self, entry: HookEntry, seam: Seam, record: Record,
                 command: Command) -> Command | Answer:
        try:
            found = resolve_all(command)
            current, chain = found.pin, found.chain
            if not record.pin.same(current):
                return self.refuse(entry, seam, difference(record.pin, current))
            if current.text_only and self.strict:
                return self.refuse(entry, seam, f"it is {current.pinned} and trust is strict")
            if current.window and self.strict:
                return self.refuse(entry, seam, f"part of it is read from its path after the "
                                   f"check ({current.window}) and trust is strict")
            if chain is None or current.path is None:
                return command  # nothing pinned but the command text (recorded as such)
            argv = _runs.rewrite(chain, found.data, self._folder(), command, found.helpers)
            if command.argv is not None:
                return attrs.evolve(command, argv=tuple(argv))
            return attrs.evolve(command, shell=shlex.join(argv))
        except Exception as exc:  # fail closed
            log.exception("trust check failed for %s", describe(entry))
            return self.refuse(entry, seam, f"the trust check failed ({exc!r})")

    def _folder(self) -> str:
        if self._dir is None or not os.path.isdir(self._dir):
            self._dir = tempfile.mkdtemp(prefix="hookwire-trusted-")  # 0700, ours alone
            weakref.finalize(self, shutil.rmtree, self._dir, True)
        return self._dir


def difference(pinned: Pin, now: Pin) -> str:
    if pinned.path != now.path:
        return (f"it changed since it was approved: it now runs {now.path or now.note!s}, "
                f"approved was {pinned.path or pinned.note!s}")
    if pinned.interpreter != now.interpreter:
        return (f"its interpreter changed since it was approved ({pinned.interpreter} → "
                f"{now.interpreter})")
    if (pinned.digest, pinned.chain) == (now.digest, now.chain):
        helper = _helpers.difference(pinned.helpers, now.helpers or ())
        if helper is not None:
            return helper
        if pinned.folder != now.folder:
            return (f"the files it loads changed since it was approved: its folder "
                    f"{now.folder or pinned.folder} is {'now' if now.folder else 'no longer'} "
                    "pinned as a unit")
    return (f"{now.path} changed since it was approved (content "
            f"{(now.digest or now.note or '?')[:19]}, approved {(pinned.digest or '?')[:19]})")


def install(kernel: Any, store: TrustStore | None = None, *, strict: bool = False
            ) -> TrustGate:
    """Put a :class:`TrustGate` on ``kernel`` and return it. ``strict`` (a hooks file's
    ``trust: {strict: true}``) only tightens: ``HOOKWIRE_TRUST_STRICT=1`` still applies."""
    gate = TrustGate(kernel, store, strict=strict or strict_setting())
    kernel.trust_gate = gate
    return gate


def pending(entries: Iterable[tuple[HookEntry, Pin]], store: TrustStore) -> list[
        tuple[HookEntry, Pin, str]]:
    """The gated entries that are not trusted, with their state."""
    out = []
    for entry, pin in entries:
        state = state_of(entry, store, pin)
        if state in (TrustState.PENDING, TrustState.CHANGED):
            out.append((entry, pin, state))
    return out
