"""Runs one ``type: "http"`` hook as a process, so the kernel's runner times and ends it.

``python .../claude/_http.py URL`` POSTs its stdin (the hook payload) to URL with
``Content-Type: application/json`` and the headers in ``HOOKWIRE_HTTP_HEADERS`` (a JSON object,
already interpolated), then maps the response onto the command-hook contract Claude Code
documents for HTTP hooks:

* 2xx with an empty body: exit 0, no output (no opinion);
* 2xx with a JSON object body: the body on stdout, exit 0 (parsed like command stdout);
* 2xx with any other body, a non-2xx status, a connection failure: exit 1 with the reason on
  stderr (a non-blocking error; the text never becomes context);
* an HTTP hook can never block by status: this helper never exits 2.
"""

from __future__ import annotations

import json
import os
import sys

from hookwire.wire import parse_json

HEADERS_ENV = "HOOKWIRE_HTTP_HEADERS"
#: Headers Claude Code ignores when a hook sets them.
_IGNORED = frozenset({"content-length", "transfer-encoding"})


def main(argv: list[str]) -> int:
    import urllib.error  # here, not at the top: the dialect imports this module for its
    import urllib.request  # constants on every Kernel(), and urllib costs 10 ms

    if len(argv) != 1:
        sys.stderr.write("usage: _http.py URL\n")
        return 1
    body = sys.stdin.buffer.read()
    headers = {"Content-Type": "application/json"}
    for name, value in json.loads(os.environ.get(HEADERS_ENV) or "{}").items():
        if name.lower() not in _IGNORED:
            headers[name] = value
    request = urllib.request.Request(argv[0], data=body, headers=headers, method="POST")
    try:
        with urllib.request.urlopen(request) as response:
            status, text = response.status, response.read().decode("utf-8", "replace")
    except urllib.error.HTTPError as exc:
        sys.stderr.write(f"HTTP hook returned status {exc.code}\n")
        return 1
    except (urllib.error.URLError, OSError, ValueError) as exc:
        sys.stderr.write(f"HTTP hook request failed: {getattr(exc, 'reason', exc)}\n")
        return 1
    if not 200 <= status < 300:
        sys.stderr.write(f"HTTP hook returned status {status}\n")
        return 1
    if not text.strip():
        return 0
    try:
        value = parse_json(text)
    except ValueError:
        value = None
    if not isinstance(value, dict):
        sys.stderr.write("HTTP hook response is not a JSON object\n")
        return 1
    sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
