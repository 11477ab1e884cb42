"""Trust pins the helper files a hook loads from its folder, and runs their verified copies (#22).

Real scripts in ``tmp_path``: a shell hook sourcing ``lib.sh``, a Python hook importing
``helper.py``, a node hook requiring ``util.js``. An edit of a helper after approval makes the
hook ``changed`` with the file named; an approved hook behaves exactly as before approval
(stdin, stdout, exit status, ``$0``, ``__file__``, ``sys.path[0]``, cwd); a helper swapped
between the check and the exec changes nothing that runs.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
from pathlib import Path

import anyio
import attrs
import pytest

from hookwire import Decision, HookEntry, Kernel, Provenance, Seam, ToolPre, Verdict, trust
from hookwire.runner import Command, run
from hookwire.trust import TrustGate, TrustState, TrustStore

NODE = shutil.which("node")
needs_node = pytest.mark.skipif(NODE is None, reason="node is not installed")


def write(path: Path, text: str, mode: int = 0o644) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    path.chmod(mode)
    return path


def entry(command: tuple[str, ...] | str) -> HookEntry:
    return HookEntry(dialect="echo", event="tool_pre", command=command,
                     provenance=Provenance.IMPORTED)


def sample(kernel: Kernel, e: HookEntry, tmp_path: Path) -> Command:
    return trust.sample_command(e, kernel.dialect("echo"), project_dir=str(tmp_path))


def pin(kernel: Kernel, e: HookEntry, tmp_path: Path) -> trust.Pin:
    return trust.resolve(sample(kernel, e, tmp_path))[0]


def approve(kernel: Kernel, store: TrustStore, e: HookEntry, tmp_path: Path) -> None:
    kernel.add_hooks([e])
    trust.approve(e, store, pin(kernel, e, tmp_path))


def checked(setup: tuple[Kernel, TrustStore, TrustGate], e: HookEntry, tmp_path: Path,
            command: Command) -> Command:
    """Approve ``e``, then pass ``command`` through the gate's check, as the kernel does."""
    kernel, store, gate = setup
    approve(kernel, store, e, tmp_path)
    check = gate(e, Seam.TOOL_PRE)
    assert callable(check)
    result = check(command)
    assert isinstance(result, Command)
    return result


def fire(kernel: Kernel, tmp_path: Path) -> Verdict:
    async def go() -> Verdict:
        async with kernel.session(cwd=str(tmp_path), project_dir=str(tmp_path)) as s:
            return await s.dispatch(ToolPre(tool_name="Bash", tool_input={"command": "ls"}))
    return anyio.run(go)


def marker(tmp_path: Path) -> list[str]:
    m = tmp_path / "marker"
    return m.read_text().splitlines() if m.exists() else []


# -- one hook per language, each loading a helper from its folder ------------------------------


def shell_hook(tmp_path: Path, shell: str = "sh") -> tuple[tuple[str, ...], Path]:
    lib = write(tmp_path / "hooks" / "lib.sh",
                f'say() {{ echo "lib-v1 $1" >> "{tmp_path}/marker"; }}\n')
    write(tmp_path / "hooks" / "run.sh",
          f'#!/bin/{shell}\n. "$(dirname "$0")/lib.sh"\nsay "$0"\n', 0o755)
    return (shell, "./hooks/run.sh") if shell != "sh" else ("./hooks/run.sh",), lib


def python_hook(tmp_path: Path) -> tuple[tuple[str, ...], Path]:
    helper = write(tmp_path / "hooks" / "helper.py",
                   f"def say(w):\n    open({str(tmp_path / 'marker')!r}, 'a').write("
                   "'helper-v1 ' + w + '\\n')\n")
    write(tmp_path / "hooks" / "guard.py", "import helper\nhelper.say(__file__)\n")
    return (sys.executable, "./hooks/guard.py"), helper


def node_hook(tmp_path: Path) -> tuple[tuple[str, ...], Path]:
    util = write(tmp_path / "hooks" / "util.js",
                 "const fs = require('fs');\nexports.say = (w) => fs.appendFileSync("
                 f"{json.dumps(str(tmp_path / 'marker'))}, 'util-v1 ' + w + '\\n');\n")
    write(tmp_path / "hooks" / "hook.js", "require('./util').say(__filename);\n")
    return (str(NODE), "./hooks/hook.js"), util


def node_esm_hook(tmp_path: Path) -> tuple[tuple[str, ...], Path]:
    util = write(tmp_path / "hooks" / "util.mjs",
                 "import { appendFileSync } from 'node:fs';\nexport const say = (w) => "
                 f"appendFileSync({json.dumps(str(tmp_path / 'marker'))}, "
                 "'util-v1 ' + w + '\\n');\n")
    write(tmp_path / "hooks" / "hook.mjs", "import { say } from './util.mjs';\n"
                                           "say(import.meta.url);\n")
    return (str(NODE), "./hooks/hook.mjs"), util


HOOKS = {"shell": shell_hook, "python": python_hook,
         "node": pytest.param(node_hook, marks=needs_node),
         "node-esm": pytest.param(node_esm_hook, marks=needs_node)}


@pytest.mark.parametrize("make", list(HOOKS.values()), ids=list(HOOKS))
def test_an_edited_helper_makes_the_hook_changed_naming_the_file(setup, tmp_path: Path,
                                                                 make) -> None:
    kernel, store, _ = setup
    command, helper = make(tmp_path)
    e = entry(command)
    approve(kernel, store, e, tmp_path)
    assert str(helper) in dict(pin(kernel, e, tmp_path).helpers or ())
    assert fire(kernel, tmp_path).decision is not Decision.DENY
    assert [w.split()[0] for w in marker(tmp_path)] == [helper.stem + "-v1"]

    helper.write_text(helper.read_text().replace("-v1", "-v2"))
    assert trust.state_of(e, store, pin(kernel, e, tmp_path)) == TrustState.CHANGED
    verdict = fire(kernel, tmp_path)
    assert verdict.decision is Decision.DENY
    assert f"{helper}, a file the hook loads, changed since it was approved" in (
        verdict.reason or "")
    assert len(marker(tmp_path)) == 1  # the edited helper never ran

    trust.approve(e, store, pin(kernel, e, tmp_path))  # approving again runs the new one
    assert fire(kernel, tmp_path).decision is not Decision.DENY
    assert [w.split()[0] for w in marker(tmp_path)] == [helper.stem + "-v1",
                                                         helper.stem + "-v2"]


@pytest.mark.parametrize("make", list(HOOKS.values()), ids=list(HOOKS))
def test_a_helper_swapped_between_check_and_exec_never_runs(setup, tmp_path: Path,
                                                            make) -> None:
    kernel = setup[0]
    command, helper = make(tmp_path)
    e = entry(command)
    verified = checked(setup, e, tmp_path, kernel.dialect("echo").command(
        e, ToolPre(tool_name="Bash"), "tool_pre",
        kernel.session(cwd=str(tmp_path), project_dir=str(tmp_path)).info))
    evil = helper.with_name("evil")
    evil.write_text(helper.read_text().replace("-v1", "-EVIL"))
    os.replace(evil, helper)  # the swap, in the window
    outcome = anyio.run(run, verified)
    assert outcome.ok, outcome.stderr
    (line,) = marker(tmp_path)
    assert line.split()[0].endswith("-v1")


# -- an approved hook behaves exactly as before approval -----------------------------------------

PROBE_SH = """\
. "$(dirname "$0")/lib.sh"
. ./hooks/lib2.sh
DIR="$(cd "$(dirname "$0")" && pwd)"
. "$DIR/lib3.sh"
read -r line
printf '%s|%s|%s|%s|%s\\n' "$line" "$0" "$(pwd)" "$A$B$C" "$*"
exit 3
"""
PROBE_BASH = PROBE_SH.replace(
    "exit 3", 'main() { printf "%s %s %s\\n" "${BASH_SOURCE[0]}" "${BASH_SOURCE[0]%/*}" '
    '"$BASH_SOURCE"; exit 3; }\n'
    'if [[ "${BASH_SOURCE[0]}" == "$0" ]]; then main; fi\necho sourced; exit 4')
PROBE_PY = """\
import os, sys
import helper
from pkg import sub
print(sys.stdin.read().strip(), __file__, sys.argv, sys.path[0], os.getcwd(),
      helper.WORD, helper.__file__, sub.WORD, __name__, sep="|")
sys.exit(3)
"""
PROBE_JS = """\
const util = require('./util');
const cfg = require('./lib/config.json');
const data = require('fs').readFileSync(0, 'utf8').trim();
console.log([data, __filename, process.argv.slice(1).join(','), process.cwd(), util.word,
             util.file, cfg.word, require.main === module].join('|'));
process.exit(3);
"""


def probe(tmp_path: Path, kind: str) -> tuple[str, ...]:
    hooks = tmp_path / "hooks"
    if kind in ("sh", "bash"):
        write(hooks / "lib.sh", "A=a\n")
        write(hooks / "lib2.sh", "B=b\n")
        write(hooks / "lib3.sh", "C=c\n")
        write(hooks / "probe.sh", PROBE_SH if kind == "sh" else PROBE_BASH)
        return (kind, "./hooks/probe.sh", "x y")
    if kind == "python":
        write(hooks / "helper.py", "WORD = 'helper'\n")
        write(hooks / "pkg" / "__init__.py", "")
        write(hooks / "pkg" / "sub.py", "WORD = 'sub'\n")
        write(hooks / "probe.py", PROBE_PY)
        return (sys.executable, "./hooks/probe.py", "x y")
    write(hooks / "util.js", "exports.word = 'util'; exports.file = __filename;\n")
    write(hooks / "lib" / "config.json", '{"word": "cfg"}\n')
    write(hooks / "probe.js", PROBE_JS)
    return (str(NODE), "./hooks/probe.js", "x y")


@pytest.mark.parametrize("kind", ["sh", "bash", "python",
                                  pytest.param("node", marks=needs_node)])
def test_an_approved_hook_behaves_exactly_as_before_approval(setup, tmp_path: Path,
                                                             kind: str) -> None:
    kernel, _, gate = setup
    e = entry(probe(tmp_path, kind))
    command = attrs.evolve(sample(kernel, e, tmp_path), stdin=b"the-stdin\n")
    before = anyio.run(run, command)
    verified = checked(setup, e, tmp_path, command)
    assert verified.argv != command.argv  # runs a verified copy
    after = anyio.run(run, verified)
    assert (after.exit_code, after.stdout, after.stderr) == (
        before.exit_code, before.stdout, before.stderr)
    assert before.exit_code == 3 and b"the-stdin|" in before.stdout
    assert str(gate._dir) not in after.stdout.decode()  # no private path shows through
    helpers = dict(pin(kernel, e, tmp_path).helpers or ())
    assert len([d for d in helpers.values() if d != "absent"]) >= 2


# -- what is pinned, and how it is said ------------------------------------------------------


def test_a_file_named_like_an_imported_module_appearing_beside_the_hook_is_a_change(
        setup, tmp_path: Path) -> None:
    kernel, store, _ = setup
    write(tmp_path / "hooks" / "guard.py", "import json\njson.dumps(1)\n")
    e = entry((sys.executable, "./hooks/guard.py"))
    approve(kernel, store, e, tmp_path)
    assert fire(kernel, tmp_path).decision is not Decision.DENY
    write(tmp_path / "hooks" / "json.py", "import os; os._exit(0)\n")  # would shadow json
    verdict = fire(kernel, tmp_path)
    assert verdict.decision is Decision.DENY
    assert f"{tmp_path / 'hooks' / 'json.py'} appeared since it was approved" in (
        verdict.reason or "")


def test_an_optional_helper_that_appears_later_is_a_change(setup, tmp_path: Path) -> None:
    kernel, store, _ = setup
    write(tmp_path / "hooks" / "run.sh",
          '#!/bin/sh\n[ -f "$(dirname "$0")/local.sh" ] && . "$(dirname "$0")/local.sh"\n'
          "exit 0\n", 0o755)
    e = entry(("./hooks/run.sh",))
    approve(kernel, store, e, tmp_path)
    assert fire(kernel, tmp_path).decision is not Decision.DENY
    write(tmp_path / "hooks" / "local.sh", "exit 2\n")
    verdict = fire(kernel, tmp_path)
    assert verdict.decision is Decision.DENY
    assert "local.sh appeared since it was approved" in (verdict.reason or "")


def test_a_source_named_at_run_time_pins_the_folder_and_strict_refuses_it(
        setup, tmp_path: Path) -> None:
    kernel, store, gate = setup
    write(tmp_path / "hooks" / "a.sh", "exit 0\n")
    notes = write(tmp_path / "hooks" / "notes.txt", "v1\n")
    write(tmp_path / "hooks" / "run.sh", '#!/bin/sh\nfor f in a; do . "./hooks/$f.sh"; done\n',
          0o755)
    e = entry(("./hooks/run.sh",))
    approve(kernel, store, e, tmp_path)
    p = pin(kernel, e, tmp_path)
    assert p.folder == str(tmp_path / "hooks")
    assert p.window and "read from its path after the check" in p.window
    assert "its folder" in p.pinned and "read after the check" in p.pinned
    assert fire(kernel, tmp_path).decision is not Decision.DENY
    gate.strict = True
    verdict = fire(kernel, tmp_path)
    assert verdict.decision is Decision.DENY and "trust is strict" in (verdict.reason or "")
    gate.strict = False
    notes.write_text("v2\n")  # the folder is pinned as a unit: any file of it counts
    verdict = fire(kernel, tmp_path)
    assert verdict.decision is Decision.DENY and str(notes) in (verdict.reason or "")


def test_the_folder_unit_is_bounded(setup, tmp_path: Path,
                                    monkeypatch: pytest.MonkeyPatch) -> None:
    from hookwire import _helpers

    kernel, _, _ = setup
    monkeypatch.setattr(_helpers, "MAX_FILES", 3)
    for i in range(5):
        write(tmp_path / "hooks" / f"f{i}.py", "")
    write(tmp_path / "hooks" / "guard.py", "import importlib\nimportlib.import_module('f0')\n")
    p = pin(kernel, entry((sys.executable, "./hooks/guard.py")), tmp_path)
    assert p.folder == str(tmp_path / "hooks")
    assert p.window == "it loads more than 3 helper files"
    assert len(p.helpers or ()) == 3


def test_perl_scripts_are_pinned_but_read_after_the_check_and_refused_when_strict(
        setup, tmp_path: Path) -> None:
    if shutil.which("perl") is None:
        pytest.skip("perl is not installed")
    kernel, store, gate = setup
    write(tmp_path / "hooks" / "Lib.pm", "package Lib; 1;\n")
    write(tmp_path / "hooks" / "x.pl", "use lib '.'; exit 0;\n")
    e = entry(("perl", "./hooks/x.pl"))
    approve(kernel, store, e, tmp_path)
    p = pin(kernel, e, tmp_path)
    assert p.window and "perl scripts run from their path after the check" in p.window
    assert str(tmp_path / "hooks" / "Lib.pm") in dict(p.helpers or ())
    assert fire(kernel, tmp_path).decision is not Decision.DENY
    gate.strict = True
    assert fire(kernel, tmp_path).decision is Decision.DENY


def test_a_record_from_before_helper_pins_loads_and_asks_again_only_when_helpers_exist(
        setup, tmp_path: Path) -> None:
    kernel, store, _ = setup
    command, helper = shell_hook(tmp_path)
    with_helper = entry(command)
    write(tmp_path / "alone.sh", "exit 0\n")
    alone = entry(("sh", "./alone.sh"))
    for e in (with_helper, alone):
        approve(kernel, store, e, tmp_path)
    # what an older hookwire wrote: no "helpers", "folder" or "window" in the pin
    data = json.loads(store.path.read_text())
    for record in data["records"].values():
        for key in ("helpers", "folder", "window"):
            del record["pin"][key]
    store.path.write_text(json.dumps(data))
    assert trust.state_of(alone, store, pin(kernel, alone, tmp_path)) == TrustState.TRUSTED
    assert trust.state_of(with_helper, store,
                          pin(kernel, with_helper, tmp_path)) == TrustState.CHANGED
    verdict = fire(kernel, tmp_path)
    assert verdict.decision is Decision.DENY
    assert (f"approved before hookwire pinned the files a hook loads, and it loads {helper}"
            in (verdict.reason or ""))
