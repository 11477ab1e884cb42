"""The payload half of the fast entry (``hookwire_entry``): JSON in and out, a client's native
payload as portable envelopes, and the answer the client reads. Standard library only.

It reproduces, from the plan's data, what the full shim does with the client classes
(``hookwire.plugins.install``): ``Client.normalise`` and ``translate`` (the field names of
``STANDARD`` and the client's ``fields``), the client-specific shapes (``tweak``: Cursor's
workspace roots, Gemini CLI's error, Cline's nested task payloads, Windsurf's ``tool_info``,
Grok's ``<user_query>`` and its closing ``Stop``), the synthesised session starts (Cline's first
``TaskStart`` of a task, Windsurf's first ``pre_user_prompt`` of a trajectory: the same marker
files), the portable dialect's envelope (``dialects/portable/payload.build``) and the client's
``respond``. ``tests/plugins/install/test_fast_entry.py`` holds the two to the same bytes.
"""

import _json  # the C half of json: `json` itself imports re and enum (~10 ms at start-up)
import time

# `os` (~1.5 ms: it imports _collections_abc) is imported inside the functions that need it,
# all of which run only for an event with handlers.

MARKER_TTL = 7 * 24 * 3600  # _base.MARKER_TTL
_QUERY_OPEN, _QUERY_CLOSE = "<user_query>", "</user_query>"


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


def loads(data):
    """``json.loads`` of bytes or text (ValueError when it is not one JSON document)."""
    if isinstance(data, bytes):  # as "utf-8-sig", whose codec module is not loaded yet
        data = (data[3:] if data[:3] == b"\xef\xbb\xbf" else data).decode("utf-8")
    text = data.strip(" \t\n\r")
    try:
        value, end = _scan(text, 0)
    except (StopIteration, SystemError):
        # SystemError: on Python 3.11 the scanner reports an error inside an array or object
        # through json.decoder's JSONDecodeError, and finds none unless `json` was imported
        raise ValueError("not JSON") from None
    if end != len(text):
        raise ValueError("extra data")
    return value


def dumps(value, ascii_only=True):
    return "".join((_dump_ascii if ascii_only else _dump_utf8)(value, 0))


def data_dir(plan):
    """``PLUGIN_DATA`` (``dialects/portable/payload.data_dir``), created."""
    import os

    xdg = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local",
                                                          "share")
    path = os.path.join(xdg, "hookwire", "plugin-data", plan["name"])
    os.makedirs(path, exist_ok=True)
    return os.path.realpath(path)


def _s(value):
    return value if isinstance(value, str) else None


def _first(data, keys):
    for key in keys:
        value = data.get(key)
        if value is not None:
            return value
    return None


# -- the client's payload, flattened (Client.normalise) -----------------------------------------

def normalise(client, native, payload):
    """The ``STANDARD`` keys of a native payload; ``None``: nothing to fire (Grok's ``Stop``
    at exit)."""
    tweak = client.get("tweak")
    if tweak == "windsurf":
        return _windsurf(native, payload)
    f = {key: _first(payload, names) for key, names in client["fields"].items()}
    if tweak == "workspace_roots":  # Cursor
        roots = payload.get("workspace_roots")
        if isinstance(roots, list) and roots:
            f["project_dir"] = roots[0]
            if f["cwd"] is None:
                f["cwd"] = roots[0]
    elif tweak == "response_error":  # Gemini CLI
        response = payload.get("tool_response")
        if isinstance(response, dict) and response.get("error"):
            f["error"] = str(response["error"])
    elif tweak == "cline":
        _cline(native, payload, f)
    elif tweak == "grok":
        if native == "Stop" and payload.get("reason") not in (None, "end_turn"):
            return None  # the session is closing: SessionEnd reports it
        prompt = f["prompt"]
        if isinstance(prompt, str):
            f["prompt"] = _unwrap_query(prompt)
    return f


def _cline(native, payload, f):
    """``cline.Cline.normalise``: the hook's own object (``taskStart``, ``preToolUse``, ...)
    and Cline 3.0.65's raw ``tool_call``/``tool_result``."""
    roots = payload.get("workspaceRoots")
    if isinstance(roots, list) and roots:
        f["cwd"] = roots[0]
    for key in ("taskStart", "userPromptSubmit", "preToolUse", "postToolUse"):
        inner = payload.get(key)
        if isinstance(inner, dict):
            f["prompt"] = inner.get("prompt", inner.get("task", f["prompt"]))
            f["tool_name"] = inner.get("tool", inner.get("toolName"))
            f["tool_input"] = _unstring(inner.get("parameters"))
            f["tool_output"] = inner.get("result")
            f["success"] = inner.get("success")
            if inner.get("success") is False:
                f["error"] = str(inner.get("result") or "failed")
    raw = payload.get("tool_call") or payload.get("tool_result")
    if isinstance(raw, dict):
        if isinstance(raw.get("input"), dict):
            f["tool_input"] = raw["input"]
        call_id = raw.get("id") or raw.get("toolCallId") or raw.get("callId")
        f["tool_use_id"] = call_id if isinstance(call_id, str) and call_id else None
        f["tool_name"] = f["tool_name"] or raw.get("name")
    turn = payload.get("turn")
    if isinstance(turn, dict) and isinstance(turn.get("outputText"), str):
        f["last_message"] = turn["outputText"]
    if native == "TaskResume":
        f["source"] = "resume"
    if native == "SessionShutdown":
        reason = payload.get("reason")
        f["reason"] = reason if isinstance(reason, str) and reason else "other"


def _unstring(params):
    """``cline._unstring``: JSON objects, arrays and booleans that Cline stringified."""
    if not isinstance(params, dict):
        return params
    out = {}
    for key, value in params.items():
        if isinstance(value, str) and (value[:1] in ("{", "[") or value in ("true", "false")):
            value = _parsed(value)
        out[key] = value
    return out


def _parsed(text):
    try:
        return loads(text)
    except ValueError:
        return text


def _windsurf(native, payload):
    """``windsurf.Windsurf.normalise``: everything is in ``tool_info``; the tool is the kind."""
    info = payload.get("tool_info")
    info = info if isinstance(info, dict) else {}
    kind = native.split("_", 1)[1] if "_" in native else native
    f = dict.fromkeys(("turn_id", "version", "source", "error", "success", "reason",
                       "tool_output", "last_message"))
    f.update(session_id=payload.get("trajectory_id"), cwd=info.get("cwd"),
             prompt=info.get("user_prompt"), tool_use_id=payload.get("execution_id"),
             last_message=info.get("response"))
    if kind.endswith("mcp_tool_use"):
        f.update(tool_name=info.get("mcp_tool_name"), tool_input=info.get("mcp_tool_arguments"),
                 tool_output=info.get("mcp_result"))
    else:
        f.update(tool_name=kind, tool_input=dict(info))
    return f


def _unwrap_query(prompt):
    r"""``grok._QUERY`` (``^\s*<user_query>\s*(.*?)\s*</user_query>\s*$``, DOTALL) without
    importing ``re``."""
    text = prompt.strip()
    if (len(text) >= len(_QUERY_OPEN) + len(_QUERY_CLOSE) and text.startswith(_QUERY_OPEN)
            and text.endswith(_QUERY_CLOSE)):
        return text[len(_QUERY_OPEN):-len(_QUERY_CLOSE)].strip()
    return prompt


# -- native event → portable envelopes (Client.translations) -----------------------------------

def translations(plan, native, payload):
    """(portable event, envelope) for every event the native payload fires that the plugin has
    handlers for, in order; an envelope is built only then (and a session marker made only
    when the plugin has a session-start handler, as the shim's ``wants_start``)."""
    client = plan["client"]
    portable = client["natives"].get(native)
    if portable is None:
        return []
    wanted = {h["event"] for h in plan["handlers"]}
    tweak = client.get("tweak")
    start = (tweak == "windsurf" and native == "pre_user_prompt"
             and "session-start" in wanted)
    if portable not in wanted and not start:
        return []
    f = normalise(client, native, payload)
    if f is None:
        return []
    session = _s(f["session_id"]) or "unknown"
    if tweak == "cline" and native in ("TaskStart", "TaskResume"):
        new = first_in_session(plan, client["name"], session)
        if native == "TaskStart" and not new:
            return []  # a later run of the same task: not a new session
    out = []
    if start and first_in_session(plan, client["name"], session):
        out.append(("session-start", envelope(plan, "session-start", native,
                                              dict(f, source="startup", turn_id=None))))
    if portable in wanted:
        out.append((portable, envelope(plan, portable, native, f)))
    return out


def first_in_session(plan, client, session_id):
    """``_base.first_in_session``: whether ``session_id`` is new (a marker file per session in
    the plugin's ``PLUGIN_DATA/.hookwire/<client>-sessions``; a week old ones swept)."""
    try:
        from _sha2 import sha256  # Python >= 3.12
    except ImportError:
        try:
            from _sha256 import sha256
        except ImportError:
            from hashlib import sha256
    import os

    folder = os.path.join(data_dir(plan), ".hookwire", client + "-sessions")
    marker = os.path.join(folder, sha256(session_id.encode()).hexdigest()[:32])
    if os.path.exists(marker):
        return False
    os.makedirs(folder, exist_ok=True)
    try:
        os.close(os.open(marker, os.O_CREAT | os.O_WRONLY | os.O_EXCL, 0o666))
    except FileExistsError:
        return False  # a concurrent entry of the same session made it first
    cutoff = time.time() - MARKER_TTL
    for name in os.listdir(folder):
        old = os.path.join(folder, name)
        try:
            if os.stat(old).st_mtime < cutoff:
                os.unlink(old)
        except OSError:
            continue
    return True


def envelope(plan, portable, native, f):
    """``dialects/portable/payload.build`` of the event ``Client.translate`` makes."""
    import os

    client = plan["client"]
    t = time.time()
    stamp = f"{time.strftime('%Y-%m-%dT%H:%M:%S', time.gmtime(t))}.{int(t * 1000) % 1000:03d}Z"
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
                tool_input = loads(tool_input)
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
    return out


# -- what the client reads (Client.respond) -----------------------------------------------------

def respond(client, native, contexts):
    """The client's answer for the context results ``contexts`` (``[]``: its empty answer)."""
    reply = client["reply"]
    text = "\n\n".join(contexts)
    on = bool(contexts) and native in client["context"]
    if reply == "additional_context":
        if not on:
            return b""
        return dumps({"hookSpecificOutput": {"hookEventName": native,
                                             "additionalContext": text}}).encode() + b"\n"
    if reply == "cursor":
        return dumps({"additional_context": text} if on else {}).encode() + b"\n"
    if reply == "cline":
        body = {"cancel": False, "contextModification": text} if on else {"cancel": False}
        return dumps(body).encode() + b"\n"
    if reply == "text":  # Kiro: stdout is the context
        return (text + "\n").encode("utf-8") if on else b""
    return b""
