"""``hookwire install``, ``hookwire uninstall`` and ``hookwire portable-hook`` (the shim the
installed client entries run). :func:`add_parser` registers them on the main CLI's
subparsers; each sets ``handler`` (a function of the parsed args returning the exit status).
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
from pathlib import Path
from typing import Any

from hookwire.plugins.install.errors import InstallError
from hookwire.plugins.install.names import CLIENT_NAMES, DEFAULT_PREFIX, add_shim_arguments

EXIT_USAGE = 2


def add_parser(subparsers: Any) -> None:
    """Register ``install``, ``uninstall`` and ``portable-hook`` on ``subparsers``."""
    # no installer is imported to build the parsers (``hookwire --help`` builds them all)
    names = ", ".join(CLIENT_NAMES)
    for verb in ("install", "uninstall"):
        where = "into" if verb == "install" else "from"
        p = subparsers.add_parser(
            verb, help=f"{verb} a portable plugin's hooks.json {where} an agent client "
                       f"({names})")
        p.add_argument("--client", required=True, help=names)
        p.add_argument("plugin_dir", type=Path, help="the plugin root (holds hooks.json)")
        p.add_argument("--scope", choices=("user", "project"), default="user",
                       help="the client's user-wide config or the project's (default: user)")
        p.add_argument("--project", type=Path, default=None,
                       help="project directory for --scope project (default: cwd)")
        p.add_argument("--home", type=Path, default=None,
                       help=f"home directory to {verb} {where} (default: ~)")
        p.add_argument("--dry-run", action="store_true", help="print the diff, write nothing")
        p.add_argument("--json", action="store_true", help="print the result as JSON")
        if verb == "install":
            p.add_argument("--command", default=None,
                           help="how clients start hookwire's shim (default: "
                                f"{shlex.join(DEFAULT_PREFIX)})")
        p.set_defaults(handler=handle_install if verb == "install" else handle_uninstall)
    hook = subparsers.add_parser("portable-hook",
                                 help="(run by clients) fire a plugin's portable hooks")
    add_shim_arguments(hook)
    hook.set_defaults(handler=_portable_hook)


def _portable_hook(args: argparse.Namespace) -> int:
    from hookwire.plugins.install import shim

    return shim.run(args)


def handle_install(args: argparse.Namespace) -> int:
    from hookwire.plugins.install import engine

    prefix = tuple(shlex.split(args.command)) if args.command else None
    return _run(args, lambda **kw: engine.install(prefix=prefix, **kw))


def handle_uninstall(args: argparse.Namespace) -> int:
    from hookwire.plugins.install import engine

    return _run(args, engine.uninstall)


def _run(args: argparse.Namespace, action: Any) -> int:
    home = args.home or Path.home()
    project = args.project or (Path.cwd() if args.scope == "project" else None)
    try:
        result = action(client_name=args.client, plugin_dir=args.plugin_dir, scope=args.scope,
                        home=home, project=project, dry_run=args.dry_run)
    except InstallError as exc:
        sys.stderr.write(f"hookwire: error: {exc}\n")
        return EXIT_USAGE
    from hookwire.plugins.install import diff

    patch = diff.render(result.changes)
    if args.json:
        print(json.dumps({"client": result.client, "plugin": result.plugin,
                          "dry_run": result.dry_run, "changed": result.changed,
                          "files": [c.path for c in result.changes if c.changed],
                          "receipt": str(result.receipt_path), "diff": patch,
                          "skipped": list(result.skipped)}, indent=2))
        return 0
    if args.dry_run:
        sys.stdout.write(patch or "(no changes)\n")
    elif not result.changed:
        state = "installed" if args.handler is handle_install else "removed"
        print(f"{result.plugin}: already {state} for {result.client}; nothing changed")
    else:
        for change in result.changes:
            if change.changed:
                verb = "removed" if change.after is None else (
                    "created" if change.before is None else "updated")
                print(f"{verb} {change.path}")
    if result.report:
        sys.stdout.write(result.report)
    return 0


def main(argv: list[str] | None = None) -> int:
    """A standalone entry for testing the commands before the main CLI wires them."""
    parser = argparse.ArgumentParser(prog="hookwire")
    sub = parser.add_subparsers(dest="command", required=True)
    add_parser(sub)
    args = parser.parse_args(argv)
    result: int = args.handler(args)
    return result


if __name__ == "__main__":
    raise SystemExit(main())

