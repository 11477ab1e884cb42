"""The ``hookwire`` command line.

Exit status: 0 when the command did its job (whatever verdict ``fire`` printed), 2 for
unusable input (unknown dialect or event, malformed data, unreadable config), 1 when a check
found problems.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from hookwire.errors import HookwireError

if TYPE_CHECKING:
    from hookwire.kernel import Kernel

EXIT_USAGE = 2
#: 128 + SIGPIPE and 128 + SIGINT, as a shell reports a command those signals ended.
EXIT_PIPE, EXIT_INTERRUPTED = 141, 130


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> Any:  # one line, exit 2, no usage dump
        sys.stderr.write(f"hookwire: error: {message}\n")
        raise SystemExit(EXIT_USAGE)


CORE_COMMANDS = ("demo", "dialects", "fire", "import", "trust", "check")


def build_parser(*, with_plugins: bool = False,
                 kernel: Kernel | None = None) -> argparse.ArgumentParser:
    parser = _Parser(prog="hookwire", description="Run Claude Code, Codex and portable-profile "
                     "hooks faithfully inside any Python agent runtime.")
    parser.add_argument("--version", action="version", version=_version())
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    demo = sub.add_parser("demo", help="run a short session of the reference host with sample "
                                       "hooks and print its timeline")
    demo.add_argument("--keep", action="store_true", help="keep the temporary project")
    demo.add_argument("--json", action="store_true", help="print the timeline as JSON lines")

    sub.add_parser("dialects", help="list installed dialects and plugins")

    fire = sub.add_parser("fire", help="dispatch one event through the hooks of a config file, "
                                       "or (no --config) of every file a host would load here")
    fire.add_argument("event", help="the event name as the dialect spells it (PreToolUse, ...)")
    fire.add_argument("--dialect", required=True,
                      help="the dialect of the config file: claude, codex, portable or any "
                           "other installed one (`hookwire dialects`)")
    fire.add_argument("--config",
                      help="the dialect's own config file (.claude/settings.json, hooks.json), "
                      "or its JSON text itself, as Claude Code's --settings takes it; default: "
                      "what Kernel.discover loads for the project (hookwire's hooks files, "
                      "then every harness's)")
    fire.add_argument("--data", default="{}",
                      help="event fields as JSON, spelled as the dialect spells them; "
                           "@FILE reads a file, - reads stdin")
    fire.add_argument("--session-id", help="the session id hooks see (default: --data's "
                                           "session_id, else a new one)")
    fire.add_argument("--cwd", help="the session's working directory (default: --data's cwd, "
                                    "else the current directory)")
    fire.add_argument("--project-dir", help="the project directory, e.g. $CLAUDE_PROJECT_DIR "
                                            "(default: the session's cwd)")
    fire.add_argument("--transcript-path", help="the transcript file hooks are told about")
    fire.add_argument("--permission-mode", help="the permission mode hooks are told about "
                                                "(default, plan, acceptEdits, ...)")
    fire.add_argument("--model", help="the model name hooks are told about")
    fire.add_argument("--compact", action="store_true", help="print the JSON on one line")
    from hookwire._cli_config import add_commands

    add_commands(sub)
    if with_plugins:
        _plugin_commands(sub, kernel)
    return parser


def _plugin_commands(sub: Any, kernel: Kernel | None) -> None:
    """Let plugins add their subcommands (``register_commands``), each in its own boundary."""
    if kernel is None:
        from hookwire.kernel import Kernel

        kernel = Kernel()
    # the registry's pm as it stands: plugins loaded, dialect modules not imported for --help
    for impl in kernel.registry.pm.hook.register_commands.get_hookimpls():
        try:
            impl.function(sub)
        except Exception as exc:
            logging.getLogger("hookwire").warning(
                "commands of plugin %s unavailable: %r", impl.plugin_name, exc)


def main(argv: Sequence[str] | None = None, *, kernel: Kernel | None = None) -> int:
    """Run the command line; ``kernel`` (tests, embedding) replaces the one built from entry
    points for plugin subcommands and ``fire`` (its native plugins answer there too). A closed
    pipe (``hookwire trust | head``) ends the command quietly with status 141; Ctrl-C with
    130."""
    try:
        try:
            status = _main(argv, kernel)
        finally:  # --help and --version exit from argparse: their output is flushed here too
            sys.stdout.flush()  # a closed pipe shows here, not at interpreter exit
        return status
    except BrokenPipeError:
        # the reader went away: nothing more to say, and nothing for Python to flush at exit
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return EXIT_PIPE
    except KeyboardInterrupt:
        sys.stderr.write("\n")
        return EXIT_INTERRUPTED


def _main(argv: Sequence[str] | None, kernel: Kernel | None) -> int:
    logging.basicConfig(format="hookwire: %(levelname)s: %(message)s", level=logging.WARNING)
    argv = list(sys.argv[1:] if argv is None else argv)
    first = next((a for a in argv if not a.startswith("-")), None)
    plugins = first not in CORE_COMMANDS and argv[:1] != ["--version"]  # --version: no Kernel
    args = build_parser(with_plugins=plugins, kernel=kernel).parse_args(argv)
    try:
        handler = getattr(args, "handler", None)
        if handler is not None:
            return int(handler(args))
        if args.command == "demo":
            from hookwire.demo import run_demo

            return run_demo(keep=args.keep, as_json=args.json)
        if args.command == "dialects":
            return _dialects()
        if args.command == "fire":
            return _fire(args, kernel)
    except HookwireError as exc:
        sys.stderr.write(f"hookwire: error: {exc}\n")
        return EXIT_USAGE
    except (KeyboardInterrupt, BrokenPipeError):
        raise
    except Exception as exc:  # a bug of ours: one line, not a traceback (HOOKWIRE_DEBUG shows it)
        if os.environ.get("HOOKWIRE_DEBUG"):
            raise
        sys.stderr.write(f"hookwire: internal error: {exc!r} (set HOOKWIRE_DEBUG=1 for "
                         f"the traceback)\n")
        return 1
    raise AssertionError(args.command)  # pragma: no cover


def _version() -> str:
    from hookwire import __version__

    return f"hookwire {__version__}"


def _dialects() -> int:
    from hookwire.kernel import Kernel

    kernel = Kernel()
    print("dialects:")
    for name, info in sorted(kernel.dialects.items()):
        origin = f"{info.dist} {info.version}" if info.dist else "in-process"
        print(f"  {name:<12} {info.dialect.harness:<28} ({origin})")
    plugins = [lo for lo in kernel.loaded if lo.group == "hookwire.plugins"]
    print("plugins:")
    for lo in plugins:
        print(f"  {lo.name:<12} ({lo.dist} {lo.version})")
    if not plugins:
        print("  (none)")
    disabled = kernel.registry.disabled
    if disabled:
        print("disabled by HOOKWIRE_DISABLE_PLUGINS:")
        for group, name in disabled:
            print(f"  {name:<12} ({group.rpartition('.')[2][:-1]})")
    return 1 if kernel.load_errors else 0


def _read_data(raw: str) -> dict[str, Any]:
    from hookwire.errors import EventDataError

    source = "--data"
    if raw == "-":
        raw, source = sys.stdin.read(), "stdin"
    elif raw.startswith("@"):
        path = raw[1:]
        try:
            raw, source = Path(path).read_text(), path
        except OSError as exc:
            raise EventDataError(f"cannot read {path}: {exc.strerror}") from None
    try:
        data = json.loads(raw)
    except json.JSONDecodeError as exc:
        raise EventDataError(f"{source} is not JSON: {exc.msg} at line {exc.lineno} "
                             f"column {exc.colno}") from None
    if not isinstance(data, dict):
        raise EventDataError(f"{source} must be a JSON object, not {type(data).__name__}")
    return data


def _fire(args: argparse.Namespace, kernel: Kernel | None = None) -> int:
    import anyio

    from hookwire.dialect import ProblemKind
    from hookwire.errors import ConfigError
    from hookwire.kernel import Kernel

    data = _read_data(args.data)
    kernel = kernel or Kernel()
    dialect = kernel.dialect(args.dialect)
    config: str | None = args.config
    if config is not None and not config.lstrip().startswith("{") and \
            not Path(config).is_file():
        raise ConfigError("no such config file", file=config)
    from hookwire import _eventcheck
    from hookwire.errors import EventDataError

    try:
        event = dialect.event_from_wire(args.event, data)
    except EventDataError as exc:
        raise _eventcheck.readable(exc, args.event) from None
    except NotImplementedError:  # the base class's: no event from the command line
        from hookwire.errors import HookwireError

        raise HookwireError(f"dialect {args.dialect!r} ({dialect.harness}) cannot fire events: "
                            "it does not implement Dialect.event_from_wire") from None
    _eventcheck.check(event)
    # A project's own config file (.claude/settings.json) is the repository's: its hooks wait
    # for folder trust or approval, as in every host (docs/trust.md); any other file named
    # here is the user's. Without --config, fire loads what a host's discover() loads.
    problems = []
    if config is None:
        where = args.project_dir or args.cwd or data.get("cwd") or os.getcwd()
        kernel.discover(str(where))  # its problems are logged when the session starts
    else:
        problems = list(kernel.add_config(args.dialect, config).problems)
    # A file that cannot be read is unusable input (exit 2), whichever dialect reports it as a
    # problem rather than raising. Lesser problems are not printed here: the session logs each
    # one once when it starts.
    for problem in problems:
        if problem.severity == "error" and problem.kind is ProblemKind.CONFIG:
            raise ConfigError(problem.message, file=problem.location.file,
                              line=problem.location.line, event=problem.event)

    def pick(flag: str | None, key: str) -> str | None:
        value = flag if flag is not None else data.get(key)
        return str(value) if value is not None else None

    cwd = pick(args.cwd, "cwd") or os.getcwd()
    fields: dict[str, Any] = {  # SessionInfo's fields, by name (Kernel.session)
        "session_id": pick(args.session_id, "session_id"),
        "cwd": cwd,
        "project_dir": args.project_dir or cwd,
        "transcript_path": pick(args.transcript_path, "transcript_path"),
        "permission_mode": pick(args.permission_mode, "permission_mode"),
        "model": pick(args.model, "model"),
    }

    async def go() -> dict[str, Any]:
        async with kernel.session(**fields) as session:
            verdict = await session.dispatch(event)
            out = {"dialect": args.dialect, "event": args.event, **verdict.to_json()}
            out["session_id"] = session.info.session_id
            return out

    out = anyio.run(go)
    print(json.dumps(out, ensure_ascii=False, indent=None if args.compact else 2))
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
