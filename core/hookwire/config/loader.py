"""Finding and reading hookwire's own hooks files.

Layers: the user's global file (``$XDG_CONFIG_HOME/hookwire/hooks.yaml``, by default
``~/.config/hookwire/hooks.yaml``) then the project's (``.hookwire/hooks.yaml`` in the current
directory or the nearest parent that has one). Their entries are concatenated, global first: a
project can add hooks but never remove or override a global one.

Every problem in a file is a :class:`~hookwire.errors.ConfigError` naming the file, the line,
the event and the entry, with a JSON path (``msg @ $.hooks[2].command``). All the problems of
one file are collected into one :class:`ConfigFileError`.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any, Literal, get_args, get_origin

import attrs
import cattrs
from cattrs.errors import ForbiddenExtraKeysError
from cattrs.gen import make_dict_structure_fn, override
from ruamel.yaml import YAML
from ruamel.yaml.error import MarkedYAMLError, YAMLError

from hookwire.config._validate import validate, validate_parts
from hookwire.config.model import (
    Config,
    DocPath,
    HooksFile,
    HookSpec,
    LoadedFile,
    Scope,
    SourceSpec,
    TrustSpec,
    pointer,
)
from hookwire.errors import ConfigError, did_you_mean

PROJECT_DIR = ".hookwire"
FILE_NAME = "hooks.yaml"
#: A hooks file holds a handful of entries; this bounds alias expansion ("billion laughs").
MAX_NODES = 20_000
_SOURCE_RE = re.compile(r"^(imported|plugin):[A-Za-z0-9_.@/-]+$")
#: File spelling ↔ attribute name where they differ.
_RENAMES = {"on_failure": "onFailure", "async_": "async"}


class ConfigFileError(ConfigError):
    """Everything wrong with one hooks file: ``errors`` holds one :class:`ConfigError` per
    problem (each with file, line, event and entry); the message is the first one's."""

    def __init__(self, errors: Iterable[ConfigError]) -> None:
        self.errors = tuple(errors)
        first = self.errors[0]
        more = len(self.errors) - 1
        message = first.message + (f" (and {more} more problem{'s' * (more > 1)})"
                                   if more else "")
        super().__init__(message, file=first.file, line=first.line, event=first.event,
                         entry=first.entry)


# -- where the files are ------------------------------------------------------------------------


def user_dir(env: Mapping[str, str] | None = None) -> Path:
    """The user's hookwire config directory: ``$XDG_CONFIG_HOME/hookwire`` or
    ``~/.config/hookwire`` (``$HOME`` from ``env``)."""
    env = os.environ if env is None else env
    xdg = env.get("XDG_CONFIG_HOME")
    if xdg and os.path.isabs(xdg):  # the XDG spec says relative values are ignored
        return Path(xdg) / "hookwire"
    home = env.get("HOME") or os.path.expanduser("~")
    return Path(home) / ".config" / "hookwire"


def global_file(env: Mapping[str, str] | None = None) -> Path:
    """The global hooks file (it may not exist)."""
    return user_dir(env) / FILE_NAME


def find_project_file(cwd: str | Path | None = None) -> Path | None:
    """``.hookwire/hooks.yaml`` in ``cwd`` or its nearest parent that has one."""
    here = Path(cwd if cwd is not None else os.getcwd()).absolute()
    for folder in (here, *here.parents):
        candidate = folder / PROJECT_DIR / FILE_NAME
        if candidate.is_file():
            return candidate
    return None


def load(cwd: str | Path | None = None, env: Mapping[str, str] | None = None) -> Config:
    """Every hooks file that applies in ``cwd``, global first. Raises :class:`ConfigFileError`
    for the first file that does not load."""
    env = os.environ if env is None else env
    files: list[LoadedFile] = []
    home = Path(env.get("HOME") or os.path.expanduser("~"))
    glob = global_file(env)
    if glob.is_file():
        files.append(load_file(glob, Scope.GLOBAL, base=home))
    project = find_project_file(cwd)
    root = None
    if project is not None:
        root = project.parent.parent
        if not (glob.is_file() and glob.resolve() == project.resolve()):
            files.append(load_file(project, Scope.PROJECT, base=root))
    return Config(files=tuple(files), project_root=str(root) if root is not None else None)


def load_file(path: str | Path, scope: Scope, *, base: str | Path | None = None) -> LoadedFile:
    """Read one hooks file. ``base`` is where relative source paths resolve (default: the
    directory above ``.hookwire/`` for a project file, else the file's directory)."""
    path = Path(path)
    file = str(path)
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise ConfigFileError([ConfigError("not UTF-8 text", file=file, line=1)]) from None
    except OSError as exc:
        raise ConfigFileError([ConfigError(f"cannot read: {exc.strerror or exc}",
                                           file=file, line=1)]) from None
    if base is None:
        base = path.parent.parent if path.parent.name == PROJECT_DIR else path.parent
    return load_text(text, file=file, scope=scope, base=str(base))


def load_text(text: str, *, file: str = "<memory>", scope: Scope = Scope.PROJECT,
              base: str = ".") -> LoadedFile:
    """Parse and validate the text of a hooks file."""
    raw = parse(text, file)
    lines: dict[DocPath, int] = {(): 1}
    data = _Plain(file, lines).convert(raw, ())
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise ConfigFileError([ConfigError(
            f"a hooks file must be a mapping with `hooks` and `sources`, "
            f"not {_kind(data)} @ $", file=file, line=1)])
    errors: list[tuple[str, DocPath]] = []
    document: HooksFile | None = None
    try:
        document = CONVERTER.structure(data, HooksFile)
    except Exception as exc:
        for msg in cattrs.transform_error(exc, path="$", format_exception=_format):
            text_, _, at = msg.rpartition(" @ ")
            for attr, spelled in _RENAMES.items():
                at = at.replace("." + attr, "." + spelled)
            errors.append((text_, _parse_pointer(at)))
    # every problem in one pass: the parts that did structure are still checked
    errors.extend(validate(document) if document is not None
                  else validate_parts(data, CONVERTER.structure))
    if errors:
        found = [_error(file, lines, data, msg, where, _hint(msg, where))
                 for msg, where in errors]
        raise ConfigFileError(sorted(found, key=lambda e: e.line or 0))  # in file order
    assert document is not None
    return LoadedFile(path=file, scope=scope, base=base, document=document, lines=lines)


# -- YAML ---------------------------------------------------------------------------------------


def yaml_rt() -> YAML:
    """The round-trip YAML instance every reader and writer of hooks files uses."""
    yaml = YAML(typ="rt")
    yaml.allow_duplicate_keys = False
    return yaml


def parse(text: str, file: str) -> Any:
    """The round-trip YAML tree of ``text`` (comments and line numbers kept)."""
    try:
        return yaml_rt().load(text)
    except MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark is not None else 1
        problem = " ".join(str(b) for b in (exc.context, exc.problem) if b)
        raise ConfigFileError([ConfigError(f"invalid YAML: {problem or exc}", file=file,
                                           line=line)]) from None
    except YAMLError as exc:
        position = getattr(exc, "position", None)
        line = text.count("\n", 0, position) + 1 if isinstance(position, int) else 1
        raise ConfigFileError([ConfigError(f"invalid YAML: {exc}".splitlines()[0],
                                           file=file, line=line)]) from None
    except RecursionError:
        raise ConfigFileError([ConfigError("invalid YAML: nested too deeply", file=file,
                                           line=1)]) from None
    except Exception as exc:  # ruamel's own bugs on hostile input must still be a ConfigError
        raise ConfigFileError([ConfigError(f"invalid YAML: {exc!r}", file=file,
                                           line=1)]) from None


class _Plain:
    """Round-trip YAML nodes → plain JSON-like values, recording the line of every address."""

    def __init__(self, file: str, lines: dict[DocPath, int]) -> None:
        self.file = file
        self.lines = lines
        self.nodes = 0
        self.stack: set[int] = set()

    def fail(self, message: str, path: DocPath) -> ConfigFileError:
        line = self.lines.get(path) or self.lines.get(path[:-1]) or 1
        return ConfigFileError([ConfigError(f"{message} @ {pointer(path)}", file=self.file,
                                            line=line)])

    def convert(self, node: Any, path: DocPath) -> Any:
        self.nodes += 1
        if self.nodes > MAX_NODES:
            raise self.fail(f"the document is too large (over {MAX_NODES} values after "
                            "alias expansion)", path)
        if isinstance(node, (bool, type(None))):
            return node
        if isinstance(node, int):
            return int(node)
        if isinstance(node, float):
            return float(node)
        if isinstance(node, str):
            return str(node)
        if isinstance(node, (set, frozenset)) or not isinstance(node, (Mapping, list)):
            raise self.fail(f"unsupported YAML value ({_kind(node)}): use strings, numbers, "
                            "booleans, lists and mappings", path)
        if id(node) in self.stack:
            raise self.fail("a recursive alias", path)
        self.stack.add(id(node))
        try:
            if isinstance(node, list):
                out_list = []
                for i, item in enumerate(node):
                    self.lines[(*path, i)] = _line(node, "item", i) or self.lines.get(path, 1)
                    out_list.append(self.convert(item, (*path, i)))
                return out_list
            out: dict[str, Any] = {}
            for key in list(node.keys()):
                if not isinstance(key, str):
                    raise self.fail(f"keys must be strings, not {_kind(key)}", path)
                sub = (*path, key)
                self.lines[sub] = _line(node, "key", key) or self.lines.get(path, 1)
                out[key] = self.convert(node[key], sub)
            return out
        finally:
            self.stack.discard(id(node))


def _line(node: Any, how: str, at: Any) -> int | None:
    try:
        return int(getattr(node.lc, how)(at)[0]) + 1
    except Exception:  # merged keys (<<) and plain containers have no position
        return None


def _kind(value: Any) -> str:
    if isinstance(value, Mapping):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, (set, frozenset)):
        return "a set"
    tag = getattr(value, "tag", None)
    if tag is not None and getattr(tag, "value", None):
        return f"tagged {tag.value}"
    return type(value).__name__


# -- the converter --------------------------------------------------------------------------------


class _LiteralError(ValueError):
    """A value outside a field's fixed choices; the message names both."""

    def __init__(self, value: Any, allowed: tuple[Any, ...]) -> None:
        choices = " or ".join(repr(a) for a in allowed)
        super().__init__(f"must be {choices}, not {_shown(value)}")


def _strict(*types: type, what: str) -> Any:
    def hook(value: Any, _: Any) -> Any:
        if type(value) not in types:
            raise TypeError(f"expected {what}, got {_shown(value)}")
        return value
    return hook


def _shown(value: Any) -> str:
    if isinstance(value, (dict, list)):
        return _kind(value)
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def make_converter() -> cattrs.Converter:
    """The converter of hooks files: strict scalar types, lists for sequences, unknown keys
    rejected, every error collected. The global converter is never used."""
    conv = cattrs.Converter(forbid_extra_keys=True, detailed_validation=True)
    conv.register_structure_hook(str, _strict(str, what="a string"))
    conv.register_structure_hook(bool, _strict(bool, what="true or false"))
    conv.register_structure_hook(int, _strict(int, what="an integer"))
    conv.register_structure_hook(
        float, lambda v, t: float(_strict(int, float, what="a number")(v, t)))

    def is_literal(t: Any) -> bool:
        return get_origin(t) is Literal

    def literal_factory(t: Any) -> Any:
        allowed = get_args(t)

        def structure(value: Any, _: Any) -> Any:
            # exact types: `true` is not 1; the value is named (``type: wasm`` says "wasm")
            if not any(type(value) is type(a) and value == a for a in allowed):
                raise _LiteralError(value, allowed)
            return value
        return structure

    conv.register_structure_hook_factory(is_literal, literal_factory)

    def is_tuple(t: Any) -> bool:
        return get_origin(t) is tuple

    def tuple_factory(t: Any) -> Any:
        default = cattrs.cols.homogenous_tuple_structure_factory(t, conv)
        check = _strict(list, what="a list")

        def structure(value: Any, _: Any) -> Any:
            return default(check(value, _), t)
        return structure

    conv.register_structure_hook_factory(is_tuple, tuple_factory)
    def is_mapping(t: Any) -> bool:
        origin: object = get_origin(t)  # typeshed's overloads would type this ParamSpec
        return origin is Mapping or t is Mapping

    conv.register_structure_hook_func(
        is_mapping, lambda v, _: dict(_strict(dict, what="a mapping")(v, _)))
    mapping = _strict(dict, what="a mapping")

    def only_mappings(fn: Any) -> Any:
        return lambda value, t: fn(mapping(value, t), t)

    # Typed Any: cattrs mixes its bool flags and the **AttributeOverride per field in one
    # signature, so mypy matches a `**dict[str, AttributeOverride]` against the flags too.
    renames: dict[str, Any] = {attr: override(rename=spelled) for attr, spelled in _RENAMES.items()}
    conv.register_structure_hook(HookSpec, only_mappings(make_dict_structure_fn(
        HookSpec, conv, _cattrs_forbid_extra_keys=True, **renames)))
    for cls in (SourceSpec, TrustSpec, HooksFile):
        conv.register_structure_hook(cls, only_mappings(make_dict_structure_fn(
            cls, conv, _cattrs_forbid_extra_keys=True)))
    return conv


CONVERTER = make_converter()


def _format(exc: BaseException, type_: Any) -> str:
    if isinstance(exc, ForbiddenExtraKeysError):
        return "unknown field" + "s" * (len(exc.extra_fields) > 1) + " " + ", ".join(
            repr(k) for k in sorted(exc.extra_fields))
    if isinstance(exc, KeyError):
        return "required field missing"
    if isinstance(exc, _LiteralError):
        return str(exc)
    literal = type_ if get_origin(type_) is Literal else next(
        (t for t in get_args(type_) if get_origin(t) is Literal), None)
    if literal is not None and not isinstance(exc, TypeError):
        allowed = " or ".join(repr(a) for a in get_args(literal))
        return f"must be {allowed}"
    if isinstance(exc, (TypeError, ValueError)):
        return str(exc)
    return f"invalid value ({exc})"


def _parse_pointer(text: str) -> DocPath:
    out: list[str | int] = []
    for name, index in re.findall(r"\.([^.\[\]]+)|\[(\d+)\]", text.removeprefix("$")):
        out.append(name if name else int(index))
    return tuple(out)


def _hint(message: str, where: DocPath) -> str:
    """"did you mean" for an unknown key of a hook, a source or the file itself."""
    sections: dict[str, type] = {"hooks": HookSpec, "sources": SourceSpec, "trust": TrustSpec}
    cls = sections.get(str(where[0])) if where else HooksFile
    if cls is None or not message.startswith("unknown field"):
        return ""
    known = [_RENAMES.get(f.name, f.name) for f in attrs.fields(cls)]
    hints = [did_you_mean(k, known) for k in re.findall(r"'([^']*)'", message)]
    return "".join(h for h in hints if h)


def _error(file: str, lines: Mapping[DocPath, int], data: Any, message: str,
           where: DocPath, hint: str = "") -> ConfigError:
    path = where
    line = None
    while line is None:
        line = lines.get(path)
        if not path:
            break
        path = path[:-1]
    event = entry = None
    if len(where) >= 2 and where[0] in ("hooks", "sources") and isinstance(where[1], int):
        entry = f"{where[0]}[{where[1]}]"
        try:
            item = data[where[0]][where[1]]
            value = item.get("event") if where[0] == "hooks" else None
            event = value if isinstance(value, str) else None
        except (KeyError, IndexError, TypeError, AttributeError):
            pass
    return ConfigError(f"{message} @ {pointer(where)}{hint}", file=file, line=line or 1,
                       event=event, entry=entry)
