"""Writing entries into a hooks file through ruamel's round trip.

Existing comments, key order, quoting and indentation survive; new entries are appended to
``hooks`` (created when missing). Entries already present (same dialect, event, matcher,
command and source) are not added again, so importing twice does not duplicate anything.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.util import load_yaml_guess_indent

from hookwire import _urls
from hookwire._files import atomic_write
from hookwire.config.loader import ConfigFileError, load_text, parse, yaml_rt
from hookwire.config.model import Scope
from hookwire.errors import ConfigError

if TYPE_CHECKING:
    from hookwire.dialect import HookEntry

#: In every hooks file hookwire creates: editors with the YAML language server (VS Code,
#: JetBrains, Neovim, Helix) validate and complete the file against the schema. The server
#: reads the modeline from any comment line of the document.
MODELINE = f"yaml-language-server: $schema={_urls.HOOKS_SCHEMA}"
HEADER = (f"hookwire hooks file ({_urls.doc('config')}). Own entries are argv-only;\n"
          "`source: imported:...` entries run only once approved with `hookwire trust`.\n"
          f"{MODELINE}")
_KEY_ORDER = ("dialect", "event", "matcher", "type", "command", "timeout", "onFailure", "async",
              "options", "source")


def entry_key(entry: Mapping[str, Any]) -> tuple[Any, ...]:
    """What makes two written entries the same hook."""
    command = entry.get("command")
    return (entry.get("dialect"), entry.get("event"), entry.get("matcher"),
            tuple(command) if isinstance(command, list) else command, entry.get("source"))


def document(entry: HookEntry, command: Sequence[str], options: Mapping[str, Any], *,
             source: str) -> dict[str, Any]:
    """The mapping hookwire's file holds for ``entry`` run as the argv ``command``: the fields
    every entry has, and ``options`` (an :class:`~hookwire.Export`'s, the dialect-specific
    fields as :meth:`~hookwire.Dialect.handler_from_options` reads them back). ``onFailure``
    among them is written as the file's own ``onFailure`` key, where the loader finds it."""
    written: dict[str, Any] = {"dialect": entry.dialect, "event": entry.event}
    if entry.matcher is not None:
        written["matcher"] = entry.matcher
    written["type"] = "command"
    written["command"] = list(command)
    if entry.timeout is not None:
        written["timeout"] = entry.timeout
    rest = dict(options)
    failure = rest.pop("onFailure", None)
    if failure is not None:
        written["onFailure"] = failure
    if entry.background:
        written["async"] = True
    if rest:
        written["options"] = rest
    written["source"] = source
    return written


def existing_keys(path: Path) -> set[tuple[Any, ...]]:
    """The keys of the entries a hooks file already holds (empty when it does not exist)."""
    if not path.is_file():
        return set()
    data = parse(path.read_text(encoding="utf-8"), str(path))
    hooks = data.get("hooks") if isinstance(data, Mapping) else None
    if not isinstance(hooks, list):
        return set()
    return {entry_key(h) for h in hooks if isinstance(h, Mapping)}


def _node(entry: Mapping[str, Any]) -> CommentedMap:
    node = CommentedMap()
    for key in sorted(entry, key=lambda k: _KEY_ORDER.index(k) if k in _KEY_ORDER else 99):
        value = entry[key]
        if key == "command":
            seq = CommentedSeq(value)
            seq.fa.set_flow_style()
            value = seq
        elif isinstance(value, Mapping):
            value = CommentedMap(value)
        node[key] = value
    return node


def append_entries(path: str | Path, entries: Iterable[Mapping[str, Any]], *,
                   comment: str | None = None) -> int:
    """Append ``entries`` not already in the file at ``path`` (created with a header when
    missing); returns how many were added. The result is validated before it replaces the
    file, so a file that loaded still loads."""
    path = Path(path)
    yaml = yaml_rt()
    text = path.read_text(encoding="utf-8") if path.is_file() else ""
    kept = ""  # what a file without a document holds (comments only): written back first
    if text.strip():
        parse(text, str(path))  # a clean ConfigFileError for a broken file
        data, indent, block_seq_indent = load_yaml_guess_indent(text)
        yaml.indent(mapping=indent or 2, sequence=(indent or 2) + (block_seq_indent or 0),
                    offset=block_seq_indent or 0)
        if data is None:
            kept = text if text.endswith("\n") else text + "\n"
            yaml.indent(mapping=2, sequence=4, offset=2)
    else:
        data = None
        yaml.indent(mapping=2, sequence=4, offset=2)
    if data is None:
        data = CommentedMap()
        data["version"] = 1
        if not kept:
            data.yaml_set_start_comment(HEADER)
        elif "yaml-language-server:" not in kept:
            data.yaml_set_start_comment(MODELINE)
    if not isinstance(data, CommentedMap):
        raise ConfigFileError([ConfigError("a hooks file must be a mapping", file=str(path),
                                           line=1)])
    hooks = data.get("hooks")
    if hooks is None:
        hooks = data["hooks"] = CommentedSeq()
    if not isinstance(hooks, CommentedSeq):
        raise ConfigFileError([ConfigError("`hooks` must be a list @ $.hooks", file=str(path),
                                           line=1)])
    seen = {entry_key(h) for h in hooks if isinstance(h, Mapping)}
    added = 0
    for entry in entries:
        key = entry_key(entry)
        if key in seen:
            continue
        seen.add(key)
        hooks.append(_node(entry))
        if added == 0 and comment:
            hooks.yaml_set_comment_before_after_key(len(hooks) - 1, before=comment,
                                                    indent=_seq_indent(yaml))
        added += 1
    if not added:
        return 0
    import io

    buf = io.StringIO()
    yaml.dump(data, buf)
    out = kept + buf.getvalue()
    # never write a file that won't load, or that reads back differently from what we meant
    reread = load_text(out, file=str(path), scope=Scope.PROJECT).document.hooks
    for spec, node in zip(reread[len(reread) - added:], hooks[len(hooks) - added:],
                          strict=True):
        if list(spec.command) != list(node["command"]):
            raise ConfigFileError([ConfigError(
                f"cannot write the command {list(node['command'])!r} faithfully in YAML",
                file=str(path), line=1, event=str(node.get("event")))])
    atomic_write(path, out.encode("utf-8"))
    return added


def _seq_indent(yaml: Any) -> int:
    return int(getattr(yaml, "sequence_dash_offset", 0) or 0)
