"""The fast path of an installed client entry: standard library only, no hookwire import.

``hookwire install`` compiles the plugin's ``hooks.json`` (through the portable dialect) and
the client's payload shape into a *plan* (JSON, beside the install receipt) and writes client
entries of the form::

    PYTHON -I -S -c 'import sys;sys.path[:0]=[DIR];import hookwire_entry' hookwire-entry \
        --plan PLAN --client NAME --event NATIVE --plugin ROOT || true

This module reads the client's payload, builds the portable envelope for the events the plugin
has handlers for (nothing is built for an event without one), runs the handlers in declaration
order (own process group, timeout, byte cap, SIGTERM then SIGKILL), prints the client's answer
and exits 0. When the plan is stale (``hooks.json`` or ``plugin.json`` changed since install),
unreadable, or for a client it does not know, it execs the full shim
(``python -m hookwire.plugins.install.shim``) with the same arguments before reading stdin.
The ``|| true`` keeps a missing interpreter or a removed hookwire from changing the client's
behaviour: exit 0 and an empty answer.
"""

import _json  # the C half of json: `json` itself imports re and enum (~10 ms at start-up)
import _signal as signal  # `signal` imports enum
import os
import select
import sys
import time

SHIM = "hookwire.plugins.install.shim"
CAP = 1024 * 1024
GRACE = 0.5
DRAIN = 0.05
BASE_ENV = ("PATH", "HOME", "USER", "LOGNAME", "SHELL", "LANG", "LANGUAGE", "TERM", "TMPDIR",
            "TZ", "SYSTEMROOT", "XDG_RUNTIME_DIR")
_running = []  # the process group of the handler running now (for the client's SIGTERM)


class _Decoding:
    """What ``_json.make_scanner`` reads from a ``json.JSONDecoder``: the defaults."""

    strict = True
    object_hook = object_pairs_hook = None
    parse_float, parse_int = float, int
    parse_constant = {"-Infinity": float("-inf"), "Infinity": float("inf"),
                      "NaN": float("nan")}.__getitem__
    memo = {}


_scan = _json.make_scanner(_Decoding())
# json.dumps(..., ensure_ascii=False, default=str) and json.dumps(...): the same C encoder
_dump_utf8 = _json.make_encoder(None, str, _json.encode_basestring, None, ": ", ", ", False,
                                False, True)
_dump_ascii = _json.make_encoder(None, None, _json.encode_basestring_ascii, None, ": ", ", ",
                                 False, False, True)


def _loads(data):
    """``json.loads`` of bytes or text (ValueError when it is not one JSON document)."""
    if isinstance(data, bytes):
        data = data.decode("utf-8-sig")
    text = data.strip(" \t\n\r")
    try:
        value, end = _scan(text, 0)
    except StopIteration:
        raise ValueError("not JSON") from None
    if end != len(text):
        raise ValueError("extra data")
    return value


def _dumps(value, ascii_only=True):
    return "".join((_dump_ascii if ascii_only else _dump_utf8)(value, 0))


def main(argv):
    opts = _options(argv)
    plan = _plan(opts)
    if plan is None:
        _fallback(argv)
    client, native = plan["client"], opts.get("--event", "")
    raw = sys.stdin.buffer.read()
    try:
        payload = _loads(raw) if raw.strip() else {}
    except ValueError:
        payload = {}
    if not isinstance(payload, dict) or _duplicate(plan, payload):
        return 0
    signal.signal(signal.SIGTERM, _on_sigterm)
    contexts = []
    try:
        for event, envelope in _translations(plan, native, payload):
            contexts += _fire(plan, event, envelope)
    except Exception as exc:  # never let a portable hook problem reach the client
        sys.stderr.write(f"hookwire: portable hooks not run: {exc}\n")
    out = _respond(client, native, contexts)
    if out:
        sys.stdout.buffer.write(out)
        sys.stdout.flush()
    return 0


def _options(argv):
    opts, i = {}, 0
    while i + 1 < len(argv):
        if argv[i].startswith("--"):
            opts[argv[i]] = argv[i + 1]
            i += 2
        else:
            i += 1
    return opts


def _signature(path):
    try:
        st = os.stat(path)
    except OSError:
        return None
    return [st.st_size, st.st_mtime_ns]


def _plan(opts):
    """The compiled plan, or ``None`` when the full shim must run instead."""
    try:
        with open(opts["--plan"], "rb") as fh:
            plan = _loads(fh.read())
        root = plan["root"]
        if plan["schema"] != 1 or root != opts.get("--plugin"):
            return None
        for name, sig in plan["signatures"].items():
            if _signature(os.path.join(root, name)) != sig:
                return None
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return plan


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
        os.execv(sys.executable, [sys.executable, "-m", SHIM, *args])
    except OSError as exc:
        sys.stderr.write(f"hookwire: portable hooks not run: {exc}\n")
        os._exit(0)


def _duplicate(plan, payload):
    """This client's copy under another client that reads its files (Cursor, Copilot CLI and
    Grok run Claude Code's settings; Grok runs Cursor's) when the plugin is installed for that
    client too: it fires there through its own entry (the shim's rule, ``_base.running_under``)."""
    host = None
    for name, (names, keys) in plan["client"].get("duplicate_of", {}).items():
        if any(n in os.environ for n in names) or any(k in payload for k in keys):
            host = name
            break
    if host is None:
        return False
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


def _s(value):
    return value if isinstance(value, str) else None


def _first(data, keys):
    for key in keys:
        value = data.get(key)
        if value is not None:
            return value
    return None


def _normalise(client, payload):
    f = {key: _first(payload, names) for key, names in client["fields"].items()}
    tweak = client.get("tweak")
    if tweak == "workspace_roots":
        roots = payload.get("workspace_roots")
        if isinstance(roots, list) and roots:
            f["project_dir"] = roots[0]
            if f["cwd"] is None:
                f["cwd"] = roots[0]
    elif tweak == "response_error":
        response = payload.get("tool_response")
        if isinstance(response, dict) and response.get("error"):
            f["error"] = str(response["error"])
    return f


def _translations(plan, native, payload):
    """(portable event, envelope) for the native event, when the plugin has handlers for it
    (the envelope is built only then)."""
    client = plan["client"]
    portable = client["natives"].get(native)
    if portable is None or not any(h["event"] == portable for h in plan["handlers"]):
        return []
    f = _normalise(client, payload)
    t = time.time()
    stamp = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(t)) + ".%03dZ" % (int(t * 1000) % 1000)
    cwd = _s(f["cwd"]) or os.getcwd()
    project = next((os.environ[n] for n in client.get("project_env", ()) if os.environ.get(n)),
                   None) or _s(f.get("project_dir")) or cwd
    out = {"$schema": plan["payload_id"], "event": portable,
           "session_id": _s(f["session_id"]) or "unknown", "turn_id": _s(f["turn_id"]),
           "cwd": cwd, "project_dir": project, "timestamp": stamp,
           "client": {"name": client["name"], "version": _s(f["version"]), "event": native}}
    if portable == "session-start":
        out["source"] = _s(f["source"]) or "startup"
    elif portable == "turn-start":
        out["prompt"] = _s(f["prompt"]) or ""
    elif portable == "turn-end":
        out["last_assistant_message"] = _s(f["last_message"])
    elif portable == "session-end":
        out["reason"] = _s(f["reason"]) or "other"
    else:
        tool_input = f["tool_input"]
        if isinstance(tool_input, str):
            try:
                tool_input = _loads(tool_input)
            except ValueError:
                tool_input = {"value": tool_input}
        out["tool"] = {"name": _s(f["tool_name"]) or "unknown",
                       "use_id": _s(f["tool_use_id"]) or None,
                       "input": dict(tool_input) if isinstance(tool_input, dict) else {}}
        if portable == "post-tool-use":
            failed = native in client["failure_events"] or f["success"] is False or bool(
                f["error"])
            if failed:
                out["result"] = {"status": "failed", "error": _s(f["error"]) or "failed",
                                 "duration_ms": None}
            else:
                out["result"] = {"status": "succeeded", "output": f["tool_output"],
                                 "duration_ms": None}
    return [(portable, out)]


def _expand(value, root, data):
    return value.replace("${PLUGIN_ROOT}", "\0R").replace("${PLUGIN_DATA}", "\0D").replace(
        "\0R", root).replace("\0D", data)


def _contained(path, base, what):
    real, real_base = os.path.realpath(path), os.path.realpath(base)
    if real != real_base and not real.startswith(real_base.rstrip("/") + "/"):
        raise ValueError(f"{what} {path!r} resolves to {real!r}, outside {real_base!r}")
    return real


def _which(name, path):
    for folder in (path or os.defpath).split(os.pathsep):
        candidate = os.path.join(folder or ".", name)
        if os.access(candidate, os.X_OK) and not os.path.isdir(candidate):
            return candidate
    return name


def _data_dir(plan):
    xdg = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local",
                                                          "share")
    path = os.path.join(xdg, "hookwire", "plugin-data", plan["name"])
    os.makedirs(path, exist_ok=True)
    return os.path.realpath(path)


def _fire(plan, event, envelope):
    root = plan["root"]
    data = _data_dir(plan)
    stdin = (_dumps(envelope, ascii_only=False) + "\n").encode("utf-8")
    base = {k: v for k, v in os.environ.items() if k in BASE_ENV or (
        k.startswith("LC_") and k[3:].isalpha() and k[3:].isupper())}
    contexts = []
    for h in plan["handlers"]:
        if h["event"] != event:
            continue
        display = h["display"]
        try:
            token = h["command"]
            exe = _contained(os.path.join(root, token[2:]), root, "command") if \
                token.startswith("./") else _which(token, base.get("PATH"))
            env = dict(base)
            env.update({k: _expand(v, root, data) for k, v in h["env"].items()})
            env["PLUGIN_ROOT"], env["PLUGIN_DATA"] = root, data
            raw_cwd = h["cwd"]
            if raw_cwd is None or raw_cwd in (".", "./"):
                cwd = _contained(root, root, "cwd")
            elif raw_cwd.startswith("./"):
                cwd = _contained(os.path.join(root, raw_cwd[2:]), root, "cwd")
            else:
                cwd = _contained(_expand(raw_cwd, root, data),
                                 data if raw_cwd.startswith("${PLUGIN_DATA}") else root, "cwd")
            argv = [exe, *(_expand(a, root, data) for a in h["args"])]
        except Exception as exc:
            sys.stderr.write(f"hookwire: {display}: cannot build the command: {exc!r}\n")
            continue
        _code, out, problem = _run(argv, env, cwd, stdin, h["timeout"])
        if problem is not None:
            sys.stderr.write(f"hookwire: {display}: {problem}\n")
        elif h["context"]:
            text, note = _context(out, plan["context_limit"])
            if note:
                sys.stderr.write(f"hookwire: {display}: {note}\n")
            if text:
                contexts.append(text)
    return contexts


def _context(out, limit):
    text = out.decode("utf-8")
    if not text.strip():
        return None, None
    try:
        data = _loads(text)
    except ValueError:
        return None, "context result is not JSON: nothing contributed"
    if not isinstance(data, dict) or not isinstance(data.get("context", ""), str):
        return None, 'context result must be {"context": string}: nothing contributed'
    context = data.get("context", "")
    size = len(context.encode("utf-8"))
    if size > limit:
        return None, (f"context of {size} bytes exceeds the client's limit of {limit} bytes: "
                      "dropped")
    return context or None, None


def _spawn(argv, env, cwd, ends):
    """fork + exec in a new session; an exec failure comes back as errno on a pipe."""
    err_r, err_w = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: only async-signal-safe work from here on
        try:
            signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # Python ignores them; hooks must not
            signal.signal(signal.SIGXFSZ, signal.SIG_DFL)
            signal.signal(signal.SIGTERM, signal.SIG_DFL)
            os.setsid()
            os.chdir(cwd)
            for i, fd in enumerate(ends):
                os.dup2(fd, i)
            os.execve(argv[0], argv, env)
        except OSError as exc:
            os.write(err_w, str(exc.errno).encode())
        finally:
            os._exit(127)
    os.close(err_w)
    failure = os.read(err_r, 16)
    os.close(err_r)
    if failure:
        os.waitpid(pid, 0)
        errno_ = int(failure)
        return None, ("not_found" if errno_ in (2, 20) else "not_executable"
                      if errno_ in (8, 13) else os.strerror(errno_))
    return pid, None


def _run(argv, env, cwd, stdin, timeout):
    """(exit status, stdout, problem): the portable runner's rules in miniature."""
    in_r, in_w = os.pipe()
    out_r, out_w = os.pipe()
    err_r, err_w = os.pipe()
    pid, start_error = _spawn(argv, env, cwd, (in_r, out_w, err_w))
    for fd in (in_r, out_w, err_w):
        os.close(fd)
    if pid is None:
        for fd in (in_w, out_r, err_r):
            os.close(fd)
        return None, b"", f"failed to start: {start_error}"
    _running[:] = [pid]
    try:
        pidfd = os.pidfd_open(pid)
    except (AttributeError, OSError):
        pidfd = None
    deadline = time.monotonic() + timeout
    bufs = {out_r: bytearray(), err_r: bytearray()}
    reading = set(bufs)
    pending = memoryview(stdin)
    os.set_blocking(in_w, False)
    poller = select.poll()
    poller.register(in_w, select.POLLOUT)
    for fd in (out_r, err_r, pidfd):
        if fd is not None:
            poller.register(fd, select.POLLIN)
    status, over, exited_at = None, False, None
    while True:
        now = time.monotonic()
        if status is None and pidfd is None:
            got, st = os.waitpid(pid, os.WNOHANG)
            if got:
                status, exited_at = st, now
        if status is not None and (not reading or now - exited_at >= DRAIN):
            break
        if now >= deadline or over:
            break
        limit = deadline if exited_at is None else min(deadline, exited_at + DRAIN)
        if pidfd is None:
            limit = min(limit, now + 0.01)
        for fd, _ev in poller.poll(max(0.0, limit - now) * 1000):
            if fd == pidfd:
                status, exited_at = os.waitpid(pid, 0)[1], time.monotonic()
                poller.unregister(pidfd)
            elif fd == in_w:
                try:
                    pending = pending[os.write(in_w, pending):]
                except OSError:
                    pending = memoryview(b"")
                if not pending:
                    poller.unregister(in_w)
                    os.close(in_w)
                    in_w = None
            else:
                chunk = os.read(fd, 65536)
                if chunk:
                    bufs[fd] += chunk
                    over = over or len(bufs[fd]) > CAP
                else:
                    poller.unregister(fd)
                    reading.discard(fd)
    timed_out = status is None and time.monotonic() >= deadline
    status = _end_group(pid, status)
    _running[:] = []
    for fd in (in_w, out_r, err_r, pidfd):
        if fd is not None:
            os.close(fd)
    out = bytes(bufs[out_r])
    if timed_out:
        return None, b"", "timed_out (ignored: portable hooks are observe-only)"
    if over:
        return None, b"", "over_cap (ignored: portable hooks are observe-only)"
    if os.WIFSIGNALED(status):
        return None, b"", f"killed by signal {os.WTERMSIG(status)}"
    code = os.WEXITSTATUS(status)
    if code != 0:
        return code, b"", f"exited {code} (ignored: portable hooks are observe-only)"
    try:
        out.decode("utf-8")
        bytes(bufs[err_r]).decode("utf-8")
    except UnicodeDecodeError:
        return code, b"", "not_utf8 (ignored: portable hooks are observe-only)"
    return code, out, None


def _end_group(pid, status):
    """SIGTERM what is left of the handler's group, a grace, SIGKILL; reap the handler."""
    try:
        os.killpg(pid, signal.SIGTERM)
    except OSError:
        return status if status is not None else os.waitpid(pid, 0)[1]
    end = time.monotonic() + GRACE
    while time.monotonic() < end:
        if status is None:
            got, st = os.waitpid(pid, os.WNOHANG)
            if got:
                status = st
        if status is not None:
            try:
                os.killpg(pid, 0)
            except OSError:
                return status
        time.sleep(0.005)
    try:
        os.killpg(pid, signal.SIGKILL)
    except OSError:
        pass
    return status if status is not None else os.waitpid(pid, 0)[1]


def _on_sigterm(signum, frame):
    for pid in _running:
        try:
            os.killpg(pid, signal.SIGTERM)
        except OSError:
            pass
    os._exit(0)


def _respond(client, native, contexts):
    reply = client["reply"]
    text = "\n\n".join(contexts)
    if reply == "additional_context":
        if not contexts or native not in client["context"]:
            return b""
        return _dumps({"hookSpecificOutput": {"hookEventName": native,
                                              "additionalContext": text}}).encode() + b"\n"
    if reply == "cursor":
        body = {"additional_context": text} if contexts and native in client["context"] else {}
        return _dumps(body).encode() + b"\n"
    return b""


try:
    _code = main(sys.argv[1:])
except SystemExit:
    raise
except BaseException as _exc:  # fail open whatever happened
    sys.stderr.write(f"hookwire: portable hooks not run: {_exc!r}\n")
    _code = 0
sys.stdout.flush()
os._exit(_code or 0)
