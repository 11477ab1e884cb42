"""The runner half of the fast entry (``hookwire_entry``): a plugin's handlers for one event,
resolved and run as the portable dialect does (``./`` commands contained after resolving
symlinks, bare names on the client's ``PATH``, ``${PLUGIN_ROOT}``/``${PLUGIN_DATA}`` expanded,
sanitised environment, contained cwd), each in its own session with the envelope on stdin, its
timeout, a 1 MiB cap per stream, and SIGTERM, a grace, SIGKILL for its group. Imported only
when an event has handlers: an event without one never loads ``os``, ``select`` or ``_signal``.
"""

import _signal as signal  # `signal` imports enum
import os
import select
import sys
import time

import hookwire_payload as P

CAP = 1024 * 1024
GRACE = 0.5
DRAIN = 0.05
BASE_ENV = ("PATH", "HOME", "USER", "LOGNAME", "SHELL", "LANG", "LANGUAGE", "TERM", "TMPDIR",
            "TZ", "SYSTEMROOT", "XDG_RUNTIME_DIR")
_running = []  # the process group of the handler running now (for the client's SIGTERM)
_armed = []  # whether the client's SIGTERM is routed to _on_sigterm yet


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


def fire(plan, event, envelope):
    """The context results of ``plan``'s handlers for ``event``, run in declaration order."""
    if not _armed:  # the client's SIGTERM ends the running handler's group
        signal.signal(signal.SIGTERM, _on_sigterm)
        _armed.append(True)
    root = plan["root"]
    data = P.data_dir(plan)
    stdin = (P.dumps(envelope, ascii_only=False) + "\n").encode("utf-8")
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
        data = P.loads(text)
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
    if not _signal_group(pid, signal.SIGTERM):
        return status if status is not None else os.waitpid(pid, 0)[1]
    end = time.monotonic() + GRACE
    while time.monotonic() < end:
        if status is None:
            got, st = os.waitpid(pid, os.WNOHANG)
            if got:
                status = st
        if status is not None and not _signal_group(pid, 0):
            return status
        time.sleep(0.005)
    _signal_group(pid, signal.SIGKILL)
    return status if status is not None else os.waitpid(pid, 0)[1]


def _signal_group(pid, signum):
    """Whether the process group ``pid`` was there to signal."""
    try:
        os.killpg(pid, signum)
    except OSError:
        return False
    return True


def _on_sigterm(signum, frame):
    for pid in _running:
        _signal_group(pid, signum)
    os._exit(0)
