"""Running one ``type: "http"`` hook in process, with httpx, as Claude Code sends it.

The hook's payload (the bytes a command hook reads on stdin) is POSTed to its URL with
``Content-Type: application/json`` and its ``headers``, where ``$VAR`` and ``${VAR}`` are
interpolated only for names the hook lists in ``allowedEnvVars`` (and the settings'
``httpHookAllowedEnvVars`` allows); any other reference becomes ``""``. ``Content-Length`` and
``Transfer-Encoding`` set by the hook are ignored. A URL the settings' ``allowedHttpHookUrls``
does not match is not called: the hook fails to start, naming the setting.

The response becomes the outcome a command hook's exit would:

* 2xx with an empty body: exit 0, no output (no opinion);
* 2xx with a JSON object body: the body is the hook's stdout, exit 0 (read like command stdout);
* 2xx with any other body, a non-2xx status (a redirect is not followed), a connection failure:
  exit 1 with the reason on stderr, a non-blocking error whose text never becomes context;
* a body over the kernel's output cap: ``OVER_CAP``, no decision;
* an http hook never blocks by its status.

The kernel bounds the run by the hook's timeout (:func:`hookwire.hostparts.run`); a run that
times out or is cancelled closes its connection before it returns. httpx is imported when the
first http hook runs, not with the dialect.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import attrs

from hookwire.dialect import HookEntry, Prepared
from hookwire.dialects.claude import env as _env
from hookwire.dialects.claude import outcome as _outcome
from hookwire.dialects.claude import payload as _payload
from hookwire.dialects.claude._levels import HttpPolicy
from hookwire.dialects.claude.handler import handler_of
from hookwire.events import SeamEvent, SessionInfo
from hookwire.runner import Command, Outcome, OutcomeKind

#: Headers Claude Code ignores when a hook sets them.
IGNORED_HEADERS = frozenset({"content-length", "transfer-encoding"})
#: How long closing a connection may take once the run is over (cancelled or not).
CLOSE_GRACE = 2.0
_ENV_REF = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)")


@attrs.frozen(kw_only=True)
class Request:
    """What one run of an http hook sends."""

    url: str
    headers: tuple[tuple[str, str], ...]
    body: bytes


def prepare(entry: HookEntry, event: SeamEvent, native: str, session: SessionInfo,
            policy: HttpPolicy) -> Prepared:
    """The in-process run of the http hook ``entry`` for ``event``, under ``policy``."""
    handler = handler_of(entry)
    body = _payload.encode(_payload.build(event, native, session))
    plan = _env.plan(entry, event, native, session)
    url = entry.command if isinstance(entry.command, str) else " ".join(entry.command)
    command = Command(shell=url, stdin=body, timeout=plan["timeout"], cwd=session.cwd)
    interpret = functools.partial(_outcome.interpret, entry, event, native)
    if not url_allowed(url, policy.urls):
        why = (f"HTTP hook URL {url} is not allowed by allowedHttpHookUrls "
               f"({', '.join(policy.urls or ()) or 'an empty list'}): not called")
        return Prepared(command=command, interpret=interpret,
                        run=functools.partial(_refused, why))
    allowed = set(handler.allowedEnvVars)
    if policy.env_vars is not None:
        allowed &= set(policy.env_vars)
    headers = tuple((name, interpolate(value, plan["env"], allowed))
                    for name, value in handler.headers.items()
                    if name.lower() not in IGNORED_HEADERS)
    request = Request(url=url, headers=headers, body=body)
    return Prepared(command=command, interpret=interpret, run=functools.partial(post, request))


def interpolate(value: str, env: Mapping[str, str], allowed: Iterable[str]) -> str:
    """``value`` with each ``$VAR`` or ``${VAR}`` replaced by that variable of ``env`` when
    ``VAR`` is ``allowed``, by ``""`` otherwise (unset, or not allowed)."""
    names = set(allowed)

    def one(match: re.Match[str]) -> str:
        name = match.group(1) or match.group(2)
        return env.get(name, "") if name in names else ""

    return _ENV_REF.sub(one, value)


def url_allowed(url: str, patterns: Sequence[str] | None) -> bool:
    """Whether ``url`` matches one of ``patterns`` (the whole URL; ``*`` matches any run of
    characters). ``None``: no allowlist, every URL is allowed; ``()``: none is."""
    if patterns is None:
        return True
    return any(_pattern(p).fullmatch(url) for p in patterns)


@functools.lru_cache(maxsize=256)
def _pattern(pattern: str) -> re.Pattern[str]:
    return re.compile(".*".join(re.escape(part) for part in pattern.split("*")), re.DOTALL)


async def _refused(why: str, parts: Any) -> Outcome:
    return Outcome(kind=OutcomeKind.FAILED_TO_START, start_error=why)


async def post(request: Request, parts: Any) -> Outcome:
    """Send ``request`` and read its answer as the module says (``parts``: unused, an http
    hook needs nothing the host lends)."""
    import anyio
    import httpx

    from hookwire.hostparts import answered, failed, output_cap

    cap = output_cap()
    headers = httpx.Headers({"Content-Type": "application/json"})
    for name, value in request.headers:
        headers[name] = value
    client = httpx.AsyncClient(verify=_tls(), timeout=None, follow_redirects=False)
    response: httpx.Response | None = None
    try:
        try:
            response = await client.send(client.build_request(
                "POST", request.url, content=request.body, headers=headers), stream=True)
            if not 200 <= response.status_code < 300:
                return failed(f"HTTP hook returned status {response.status_code}")
            chunks: list[bytes] = []
            size = 0
            async for chunk in response.aiter_bytes():
                size += len(chunk)
                if size > cap:
                    return Outcome(kind=OutcomeKind.OVER_CAP, exit_code=None,
                                   stdout=b"".join(chunks)[:cap])
                chunks.append(chunk)
        except (httpx.HTTPError, httpx.InvalidURL, ValueError) as exc:
            return failed(f"HTTP hook request failed: {type(exc).__name__}: {exc}")
    finally:  # no connection outlives the run, also when it timed out or was cancelled
        with anyio.CancelScope(shield=True) as scope:
            scope.deadline = anyio.current_time() + CLOSE_GRACE
            if response is not None:
                await response.aclose()
            await client.aclose()
    text = b"".join(chunks).decode("utf-8", "replace")
    if not text.strip():
        return answered("")
    if _outcome.parse_stdout(text) is None:
        return failed("HTTP hook response is not a JSON object")
    return answered(text)


@functools.cache
def _tls() -> Any:
    """One TLS context for every run (building one reads the CA bundle: tens of ms)."""
    import httpx

    return httpx.create_ssl_context()
