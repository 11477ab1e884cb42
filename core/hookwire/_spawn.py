"""Starting one hook process in its own session with three given pipe ends.

One path on every supported CPython, on public interfaces only: the C library's
``posix_spawn`` (a ``vfork``-style start) through :mod:`ctypes`, with ``setsid``, every
signal back at its default (Python ignores ``SIGPIPE`` and ``SIGXFSZ``), and file actions
that put the pipes on 0-2, close every other descriptor and change into the hook's
directory. ``os.posix_spawn`` has no ``chdir`` file action, and every Claude Code hook runs
in the project directory; ``subprocess.Popen`` does what this does but re-encodes the
environment and builds its arguments in Python on every call (about 90 µs of CPU per spawn
here, a third of the parent's cost). Here a hook's :class:`~hookwire._command.Environment`
becomes a C array once, when its spawn plan first runs.

Where the C library lacks ``posix_spawn_file_actions_addchdir_np`` or ``..._addclosefrom_np``
(not glibc >= 2.34, or not Linux) the same call goes through ``Popen`` with
``start_new_session``. Either way a failed ``chdir`` or ``exec`` raises the ``OSError``
``Popen`` would (a failed ``chdir`` names the cwd as its filename).
"""

from __future__ import annotations

import ctypes
import os
import subprocess
import sys
import threading
from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from hookwire._command import Environment


class Process(Protocol):
    pid: int
    returncode: int | None

    def poll(self) -> int | None: ...
    def wait(self) -> int: ...


def spawn(argv: Sequence[str], executable: str | None, env: Mapping[str, str] | None,
          cwd: str | None, stdin: int, stdout: int, stderr: int) -> Process:
    """Start ``argv`` (``executable``: the file to run, default ``argv[0]`` searched on the
    environment's ``PATH``) with ``stdin``/``stdout``/``stderr`` as its 0-2, in a new session."""
    if _LIBC is None:
        return _popen(argv, executable, env, cwd, stdin, stdout, stderr)
    args = _argv(argv)
    envp = _envp(env)
    bcwd = None if cwd is None else os.fsencode(cwd)
    if executable is not None or os.sep in argv[0]:
        return _Spawned(_posix_spawn(os.fsencode(executable or argv[0]), args, envp, bcwd,
                                     (stdin, stdout, stderr), cwd, executable or argv[0]))
    first: OSError | None = None  # as Popen: the first error that is not "no such file"
    for folder in os.get_exec_path(env):
        path = os.path.join(folder, argv[0])
        if not os.path.exists(path):
            continue
        try:
            return _Spawned(_posix_spawn(os.fsencode(path), args, envp, bcwd,
                                         (stdin, stdout, stderr), cwd, argv[0]))
        except OSError as exc:
            if exc.filename == cwd:
                raise
            if not isinstance(exc, FileNotFoundError | NotADirectoryError):
                first = first or exc
    if first is not None:
        raise first
    raise FileNotFoundError(2, os.strerror(2), argv[0])


class _Spawned:
    """A child started by ``posix_spawn``: ``Popen``'s ``pid``, ``returncode``, ``poll`` and
    ``wait``, safe to ``wait`` from a reaper thread while another polls."""

    __slots__ = ("_lock", "pid", "returncode")

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.returncode: int | None = None
        self._lock = threading.Lock()

    def poll(self) -> int | None:
        if self.returncode is None and self._lock.acquire(blocking=False):
            try:
                if self.returncode is None:
                    pid, status = os.waitpid(self.pid, os.WNOHANG)
                    if pid:
                        self.returncode = os.waitstatus_to_exitcode(status)
            except ChildProcessError:  # reaped elsewhere (SIGCHLD ignored): as Popen, 0
                self.returncode = 0
            finally:
                self._lock.release()
        return self.returncode

    def wait(self) -> int:
        with self._lock:
            if self.returncode is None:
                try:
                    _, status = os.waitpid(self.pid, 0)
                    self.returncode = os.waitstatus_to_exitcode(status)
                except ChildProcessError:
                    self.returncode = 0
        return self.returncode


def _popen(argv: Sequence[str], executable: str | None, env: Mapping[str, str] | None,
           cwd: str | None, stdin: int, stdout: int, stderr: int) -> Process:
    environ: Mapping[bytes, bytes] | Mapping[str, str] | None
    if env is None:
        environ = None
    elif isinstance(env, Environment):
        environ = env.as_bytes
    else:
        environ = env if isinstance(env, dict) else dict(env)
    return subprocess.Popen(argv, executable=executable, stdin=stdin, stdout=stdout,
                            stderr=stderr, env=environ, cwd=cwd, start_new_session=True)


def _argv(argv: Sequence[str]) -> Any:
    """``argv`` as the C array ``posix_spawn`` takes, kept for the next run of the same
    command (a bounded number of them)."""
    key = argv if isinstance(argv, tuple) else tuple(argv)
    array = _ARGVS.get(key)
    if array is None:
        if len(_ARGVS) >= _ARGVS_KEPT:
            _ARGVS.clear()
        array = _ARGVS[key] = _c_strings([os.fsencode(a) for a in argv])
    return array


_ARGVS: dict[tuple[str, ...], Any] = {}
_ARGVS_KEPT = 256


def _envp(env: Mapping[str, str] | None) -> Any:
    """The environment as the C array ``posix_spawn`` takes: built once per
    :class:`Environment` (kept on it), per call for another mapping, the process's own
    ``environ`` for ``None``."""
    if env is None:
        return _ENVIRON
    if isinstance(env, Environment):
        if env.spawn_cache is None:
            env.spawn_cache = _c_strings([k + b"=" + v for k, v in env.as_bytes.items()])
        return env.spawn_cache
    return _c_strings([os.fsencode(k) + b"=" + os.fsencode(v) for k, v in env.items()])


def _c_strings(items: list[bytes]) -> Any:
    if any(b"\0" in item for item in items):
        raise ValueError("embedded null byte")
    return (ctypes.c_char_p * (len(items) + 1))(*items, None)


def _posix_spawn(path: bytes, args: Any, envp: Any, cwd: bytes | None,
                 fds: tuple[int, int, int], cwd_name: str | None, name: str) -> int:
    lib = _LIBC
    assert lib is not None
    pid = ctypes.c_int()
    err = lib.posix_spawn(ctypes.byref(pid), path, _file_actions(fds, cwd), _ATTR, args,
                          envp if isinstance(envp, ctypes.Array) else envp.value)
    if err:
        # The C library reports the errno of the child's chdir or exec alike; name the cwd
        # when it is what failed, as Popen does.
        failed_cwd = cwd_name is not None and not (os.path.isdir(cwd_name)
                                                   and os.access(cwd_name, os.X_OK))
        raise OSError(err, os.strerror(err), cwd_name if failed_cwd else name)
    return pid.value


class _Actions(threading.local):
    """This thread's file actions by (pipe ends, cwd): the pipes of one run after another
    get the same descriptor numbers, so a hook's actions are built once (six C calls, six
    ``getrlimit``) and reused. Per thread, as one thread may be inside ``posix_spawn`` with a
    set while another would evict it."""

    def __init__(self) -> None:
        self.sets: dict[tuple[tuple[int, int, int], bytes | None], Any] = {}


_ACTIONS = _Actions()
_ACTIONS_KEPT = 16


def _file_actions(fds: tuple[int, int, int], cwd: bytes | None) -> Any:
    sets = _ACTIONS.sets
    key = (fds, cwd)
    actions = sets.get(key)
    if actions is not None:
        return actions
    lib = _LIBC
    assert lib is not None
    if len(sets) >= _ACTIONS_KEPT:  # the oldest goes
        lib.posix_spawn_file_actions_destroy(sets.pop(next(iter(sets))))
    actions = ctypes.create_string_buffer(_ACTIONS_SIZE)
    lib.posix_spawn_file_actions_init(actions)
    try:
        errors = [lib.posix_spawn_file_actions_adddup2(actions, fd, target)
                  for target, fd in enumerate(fds)]
        errors.append(lib.posix_spawn_file_actions_addclosefrom_np(actions, 3))
        if cwd is not None:
            errors.append(lib.posix_spawn_file_actions_addchdir_np(actions, cwd))
        for err in errors:  # each returns an errno value, 0 for success
            if err:
                raise OSError(err, os.strerror(err))
    except BaseException:
        lib.posix_spawn_file_actions_destroy(actions)
        raise
    sets[key] = actions
    return actions


# glibc's posix_spawn_file_actions_t is 80 bytes and posix_spawnattr_t 336 on 64-bit Linux;
# the buffers leave room for any layout.
_ACTIONS_SIZE = 512
_SETSIGDEF, _SETSID = 0x04, 0x80  # POSIX_SPAWN_* flags, the same in glibc and musl


def _load() -> tuple[ctypes.CDLL | None, Any]:
    if sys.platform != "linux":
        return None, None
    try:
        lib = ctypes.CDLL(None, use_errno=True)
        needed = ("posix_spawn", "posix_spawn_file_actions_addchdir_np",
                  "posix_spawn_file_actions_addclosefrom_np", "posix_spawnattr_setsigdefault")
        if not all(hasattr(lib, name) for name in needed):
            return None, None
    except OSError:
        return None, None
    void = ctypes.c_void_p
    lib.posix_spawn.argtypes = [void, ctypes.c_char_p, void, void, void, void]
    lib.posix_spawn_file_actions_adddup2.argtypes = [void, ctypes.c_int, ctypes.c_int]
    lib.posix_spawn_file_actions_addclosefrom_np.argtypes = [void, ctypes.c_int]
    lib.posix_spawn_file_actions_addchdir_np.argtypes = [void, ctypes.c_char_p]
    attr = ctypes.create_string_buffer(1024)
    sigset = ctypes.create_string_buffer(256)
    lib.posix_spawnattr_init(attr)
    # Every signal at its default, as a hook of Claude Code or Gemini CLI (libuv) starts.
    # Given the full set, the C library sets each disposition without reading it first. The
    # bits are set by hand: sigfillset leaves out glibc's own signals 32 and 33, which its
    # posix_spawn then sets to SIG_IGN in the child, and an ignored signal stays ignored
    # across exec. (Nothing signals the child before its exec: it is not a thread of ours.)
    ctypes.memset(sigset, 0xFF, 8)  # signals 1-64: bits 0-63 of a sigset_t
    if (lib.posix_spawnattr_setsigdefault(attr, sigset)
            or lib.posix_spawnattr_setflags(attr, ctypes.c_short(_SETSIGDEF | _SETSID))):
        return None, None
    return lib, attr


_LIBC, _ATTR = _load()
# the C library's ``environ``, read at each spawn (``os.environ`` changes it)
_ENVIRON = None if _LIBC is None else ctypes.c_void_p.in_dll(_LIBC, "environ")
