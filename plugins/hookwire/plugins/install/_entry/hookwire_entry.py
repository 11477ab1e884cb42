"""The fast path of an installed client entry: standard library only, no hookwire import.

``hookwire install`` compiles the plugin's ``hooks.json`` (through the portable dialect) and
the client's payload shape into a *plan* (JSON, beside the install receipt) and writes client
entries of the form::

    PYTHON -I -S -c 'import sys;sys.path[:0]=[DIR];import hookwire_entry' hookwire-entry \
        --plan PLAN --client NAME --event NATIVE --plugin ROOT || true

(Cline's hook files and the TypeScript bridge of OpenCode, Kilo and Pi pass one ``--plan PLAN
--plugin ROOT`` pair per installed plugin, in order.) This module reads the client's payload,
has ``hookwire_payload`` build the portable envelopes for the events the plugins have handlers
for (nothing is built for an event without one), runs the handlers in declaration order (own
process group, timeout, byte cap, SIGTERM then SIGKILL), prints the client's answer and exits
0. When a plan is stale (``hooks.json`` or ``plugin.json`` changed since install), missing,
unreadable, or for another client or root, it execs the full shim
(``python -m hookwire.plugins.install.shim``) with the same arguments before reading stdin.
The ``|| true`` keeps a missing interpreter or a removed hookwire from changing the client's
behaviour: exit 0 and an empty answer; a crash of the entry itself prints the client's empty
answer and exits 0.
"""

import posix  # loaded by the interpreter itself: `os` costs ~1.5 ms, and only a handler needs it
import sys

import hookwire_payload as P

SHIM = "hookwire.plugins.install.shim"
_empty = [b""]  # the client's empty answer, printed when the entry crashes


def main(argv):
    opts = _options(argv)
    plans = _plans(opts)
    if plans is None:
        _fallback(argv)
    client, native = plans[0]["client"], opts.get("--event", "")
    _empty[0] = P.respond(client, native, [])
    raw = sys.stdin.buffer.read()
    try:
        payload = P.loads(raw) if raw.strip() else {}
    except ValueError:
        payload = {}
    if not isinstance(payload, dict):
        return 0
    contexts = []
    try:
        for plan in plans:
            if _duplicate(plan, payload):
                continue  # as the shim: that plugin only, the answer still printed
            for event, envelope in P.translations(plan, native, payload):
                import hookwire_run  # the runner: only an event with handlers loads it

                contexts += hookwire_run.fire(plan, event, envelope)
    except Exception as exc:  # never let a portable hook problem reach the client
        sys.stderr.write(f"hookwire: portable hooks not run: {exc}\n")
    out = P.respond(client, native, contexts)
    _empty[0] = b""
    if out:
        sys.stdout.buffer.write(out)
        sys.stdout.flush()
    return 0


def _options(argv):
    """``--flag value`` pairs; ``--plan`` and ``--plugin`` may repeat (kept in order)."""
    opts, i = {"--plan": [], "--plugin": []}, 0
    while i + 1 < len(argv):
        if argv[i].startswith("--"):
            if argv[i] in ("--plan", "--plugin"):
                opts[argv[i]].append(argv[i + 1])
            else:
                opts[argv[i]] = argv[i + 1]
            i += 2
        else:
            i += 1
    return opts


def _signature(path):
    try:
        st = posix.stat(path)
    except OSError:
        return None
    return [st.st_size, st.st_mtime_ns]


def _plans(opts):
    """The compiled plan of each ``--plugin`` (its ``--plan``), or ``None`` when the full shim
    must run instead: one of them missing, unreadable, stale, or not for this client."""
    paths, roots = opts["--plan"], opts["--plugin"]
    if not paths or len(paths) != len(roots):
        return None
    plans = []
    for path, root in zip(paths, roots, strict=True):
        try:
            with open(path, "rb") as fh:
                plan = P.loads(fh.read())
            if (plan["schema"] != 1 or plan["root"] != root
                    or plan["client"]["name"] != opts.get("--client")):
                return None
            for name, sig in plan["signatures"].items():
                if _signature(f"{root}/{name}") != sig:
                    return None
        except (OSError, ValueError, KeyError, TypeError):
            return None
        plans.append(plan)
    return plans


def _fallback(argv):
    """Exec the full shim with the client's stdin untouched."""
    args, skip = [], False
    for i, a in enumerate(argv):
        if skip:
            skip = False
        elif a == "--plan":
            skip = True
        elif a != "hookwire-entry" or i:
            args.append(a)
    try:
        posix.execv(sys.executable, [sys.executable, "-m", SHIM, *args])
    except OSError as exc:
        sys.stderr.write(f"hookwire: portable hooks not run: {exc}\n")
        posix._exit(0)


def _duplicate(plan, payload):
    """This client's copy under another client that reads its files (Cursor, Copilot CLI and
    Grok run Claude Code's settings; Grok runs Cursor's) when the plugin is installed for that
    client too: it fires there through its own entry (the shim's rule, ``_base.running_under``)."""
    host, env = None, posix.environ  # bytes: `os.environ` is not loaded yet
    for name, (names, keys) in plan["client"].get("duplicate_of", {}).items():
        if any(n.encode() in env for n in names) or any(k in payload for k in keys):
            host = name
            break
    if host is None:
        return False
    import os

    home = os.environ.get("HOME") or os.path.expanduser("~")
    xdg = os.environ.get("XDG_CONFIG_HOME")
    base = os.path.join(xdg, "hookwire") if xdg and os.path.realpath(home) == os.path.realpath(
        os.path.expanduser("~")) else os.path.join(home, ".config", "hookwire")
    folder = os.path.join(base, "installs", host)
    try:
        scopes = os.listdir(folder)
    except OSError:
        return False
    return any(os.path.exists(os.path.join(folder, s, plan["name"] + ".json")) for s in scopes)


try:
    _code = main(sys.argv[1:])
except SystemExit:
    raise
except BaseException as _exc:  # fail open whatever happened, with the client's empty answer
    sys.stderr.write(f"hookwire: portable hooks not run: {_exc!r}\n")
    if _empty[0]:
        sys.stdout.buffer.write(_empty[0])
    _code = 0
sys.stdout.flush()
posix._exit(_code or 0)
