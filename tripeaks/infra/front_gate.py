"""The front gate: a flood from one address, or one credential, is refused before it costs
anything but a Redis call (issue #35).

`FrontGate` wraps the whole ASGI application (tripeaks/config/asgi.py). Before the session is
read, the player authenticated or any middleware has run, it counts:

- every socket handshake against its address's open rate (``PLAY_THROTTLE_RATES
  ["socket_open_address"]``): over it, the handshake is answered 429 with Retry-After and never
  accepted (`refuse_socket`), which the page, hearing 1006, answers by trying again, backing off
  up to 5 s (socket.js);
- every ``/api/`` request against its address's rates and, when it carries one, its credential's
  (the session cookie or the API token, as the request names it, unread: a digest of it): over
  one, a 429 with Retry-After and a throttled body as DRF's throttles shape it, its detail in the
  visitor's language (English, German or Nepali: the language cookie, else Accept-Language, read
  from the headers; no session, no query), each wording made once a process (`refusal_detail`).

The count is the limiter's (`limiter.count_async`, batched: the requests of a burst share one
Redis call) and remembers the windows found over their limit until they end, so the refusals of a
flood cost no Redis call at all; a window is known over as soon as the process's own counts
reach its limit, so the rest of a burst is not counted in Redis either (the opens that arrive
while its first counts are in flight). Redis unreachable: everything goes through (the limiter
fails open), as the other rates do.

The server (tripeaks/stack/header_timeout.py) asks the gate twice before the application runs:

- a socket handshake from an address known over its open rate is answered 429 at the upgrade,
  as the gate answers one it refuses but before a WebSocket is made of it
  (`known_refused_socket`: about 0.25 ms of the server's CPU, the request line and headers
  parsed);
- a connection from an address that is *flooding*, its socket opens refused
  `FRONT_GATE_FLOOD_REFUSALS` times (100) in a window of its open rate known over, is closed as
  it opens, before a byte of it is read (`flooding`: a few microseconds), until that window
  ends, and through the next while it goes on knocking (more than that many times a window: a
  retried flood gets no burst through at a window's start), as a proxy's connection limit
  would. Only the peer's own address is judged so, and only when the gate
  counted it as itself: a forwarded address (a proxy's clients) never closes the proxy's
  connections, and an honest address is never refused by another's flood. The finer limits stay where they were: DRF's rates per player, the
play limits, the socket caps (tripeaks/infra/socket_caps.py).

Behind one address there may be a household, an office, a school: the rates are set well above
what one makes (docs/operations.md, "Limits"); every one is a setting read from the environment.
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Mapping

import orjson
from django.conf import settings
from django.http.cookie import parse_cookie
from django.utils import translation
from django.utils.translation import trans_real

from tripeaks.infra import limiter, throttling
from tripeaks.infra.addresses import scope_address, scope_header
from tripeaks.infra.socket_outage import CLOSE_TRY_AGAIN, Application, Receive, Scope, Send


def credential(scope: Scope) -> str | None:
    """A digest of the API token or session cookie the request carries (never the key itself),
    or None. Read from the headers only: whether it is valid is the authentication's business."""
    authorization = scope_header(scope, b"authorization")
    if authorization:
        kind, _, key = authorization.partition(" ")
        if kind.lower() == "token" and key.strip():
            return hashlib.sha256(b"token:" + key.strip().encode()).hexdigest()[:32]
    cookies = scope_header(scope, b"cookie", "; ")
    session = parse_cookie(cookies).get(settings.SESSION_COOKIE_NAME) if cookies else None
    if session:
        return hashlib.sha256(b"session:" + session.encode()).hexdigest()[:32]
    return None


def socket_limits(scope: Scope) -> list[throttling.Limit]:
    address = scope_address(scope)
    return [throttling.Limit("socket_open_address", address)] if address else []


def address_open_windows(address: str) -> list[limiter.Window]:
    return throttling.windows_of([throttling.Limit("socket_open_address", address)])


def api_limits(scope: Scope) -> list[throttling.Limit]:
    limits = []
    address = scope_address(scope)
    if address:
        limits += [
            throttling.Limit(rate, address) for rate in ("api_address", "api_address_minute")
        ]
    named = credential(scope)
    if named:
        limits += [
            throttling.Limit(rate, named) for rate in ("api_credential", "api_credential_minute")
        ]
    return limits


def flooding(peer: str) -> bool:
    """Whether a connection from `peer` (the address at the other end of the connection, before
    anything is read) is closed as it opens: the gate refused socket opens from that address,
    counted as itself, FRONT_GATE_FLOOD_REFUSALS times or more in a window of its open rate
    known over, which has not ended, or more than that in the window before (the flood goes on:
    no burst of it reaches the gate when a window starts). Such a connection is counted among
    the refusals: while more than FRONT_GATE_FLOOD_REFUSALS knock in a window, the next one is
    closed too; a window with fewer (none: the flood has stopped) lets the address in with the
    next. No Redis call: the process's own memory of its refusals. (An API swarm is not judged
    so: its requests come on kept-alive connections.)"""
    if not limiter.refusing():  # no flood anywhere: an honest connection's usual case
        return False
    return limiter.flooding(address_open_windows(peer), settings.FRONT_GATE_FLOOD_REFUSALS)


def limits_of(scope: Scope) -> list[throttling.Limit]:
    """What a connection is counted against at the gate: nothing for pages and static files."""
    if scope["type"] == "websocket":
        return socket_limits(scope)
    if scope["type"] == "http" and str(scope.get("path", "")).startswith("/api/"):
        return api_limits(scope)
    return []


def known_refused_socket(client: object, headers: object) -> int | None:
    """The wait of a socket handshake from `client` (the peer, as the server has it) with these
    headers that the gate already knows it refuses (its address's open rate is over in this
    process), or None: for the server, before it makes a WebSocket of the connection. The caller
    refuses it: it counts toward the address's `flooding`."""
    scope = {"type": "websocket", "client": client, "headers": headers}
    return limiter.known_refusal(throttling.windows_of(socket_limits(scope)), tally=True)


async def refuse_socket(scope: Scope, receive: Receive, send: Send, wait: int) -> None:
    """Refused at the handshake, never accepted: answered 429 with Retry-After, as the server
    answers a handshake it knows over (`known_refused_socket`; the page hears 1006 and tries
    again, backing off), where the server can send an HTTP answer to a handshake (ASGI's
    ``websocket.http.response``: Uvicorn's); elsewhere closed before it is accepted, with 1013
    (Daphne answers 403). Before, the first over-count of a burst was accepted and then closed
    1013: a completed handshake, a close handshake and its timer for each."""
    if (await receive())["type"] != "websocket.connect":
        return
    extensions = scope.get("extensions")
    if not isinstance(extensions, Mapping) or "websocket.http.response" not in extensions:
        await send({"type": "websocket.close", "code": CLOSE_TRY_AGAIN})
        return
    headers = [(b"retry-after", str(wait).encode()), (b"content-length", b"0")]
    await send({"type": "websocket.http.response.start", "status": 429, "headers": headers})
    await send({"type": "websocket.http.response.body", "body": b""})


def _supported(code: str | None) -> str | None:
    """The site's language for `code` ("de-AT" is German), or None if it has none."""
    if not code or code == "*":
        return None
    try:
        return translation.get_supported_language_variant(code)
    except LookupError:
        return None


def visitor_language(scope: Scope) -> str:
    """The language the site would answer in, from the headers alone: the language cookie, then
    Accept-Language (by its weights), then the site's default. No session, no query."""
    cookies = scope_header(scope, b"cookie", "; ")
    if cookies:
        chosen = _supported(parse_cookie(cookies).get(settings.LANGUAGE_COOKIE_NAME))
        if chosen:
            return chosen
    accepted = scope_header(scope, b"accept-language")
    for code, _ in trans_real.parse_accept_lang_header(accepted or ""):  # (memoised)
        chosen = _supported(code)
        if chosen:
            return chosen
    return _supported(settings.LANGUAGE_CODE) or "en"


@functools.lru_cache(maxsize=512)
def refusal_detail(language: str, wait: int) -> str:
    """The 429's words in `language`: the site's own for a throttled form, made once a process
    for each language and wait (a flood is refused with the same few)."""
    with translation.override(language):
        return translation.gettext("Too many requests. Try again in %(seconds)s seconds.") % {
            "seconds": wait
        }


async def refuse_request(send: Send, wait: int, language: str = "en") -> None:
    """429, as DRF's throttles answer it: its detail (in `language`), the code, Retry-After."""
    body = orjson.dumps({"detail": refusal_detail(language, wait), "code": "throttled"})
    headers = [
        (b"content-type", b"application/json"),
        (b"content-language", language.encode()),
        (b"content-length", str(len(body)).encode()),
        (b"retry-after", str(wait).encode()),
        (b"cache-control", b"no-store"),
        (b"x-content-type-options", b"nosniff"),
    ]
    await send({"type": "http.response.start", "status": 429, "headers": headers})
    await send({"type": "http.response.body", "body": body})


class FrontGate:
    def __init__(self, inner: Application) -> None:
        self.inner = inner

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        limits = limits_of(scope)
        if limits:
            windows = throttling.windows_of(limits)
            wait = await limiter.count_async(windows, remember_refusals=True)
            if wait is not None:
                if scope["type"] == "websocket":
                    await refuse_socket(scope, receive, send, wait)
                else:
                    await refuse_request(send, wait, visitor_language(scope))
                return
        await self.inner(scope, receive, send)
