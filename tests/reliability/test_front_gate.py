"""The front gate (tripeaks/infra/front_gate.py, issue #35): a flood of socket opens or API
requests from one address is refused before any session is read or any query is made.

Before it, each of 500 socket opens from one account read its session and its user, counted itself
in Redis and was closed 4409 (3.7 ms of a server's CPU each, bench.socket_flood): another player's
move p99 went from 33 to 340 ms. A swarm's 429s came from DRF's throttles, after the middleware had
read the session and DRF had authenticated the player.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from importlib import import_module
from typing import Any

import orjson
import pytest
from asgiref.testing import ApplicationCommunicator
from channels.db import database_sync_to_async as db
from channels.testing import WebsocketCommunicator
from django.conf import settings as django_settings
from django.contrib.auth import get_user_model
from django.db.backends.utils import CursorWrapper
from django.test import Client

from tests.play.helpers import client_for, start_custom, winnable_code
from tests.window_clock import WindowClock
from tripeaks.config.asgi import application
from tripeaks.infra import front_gate, limiter, throttling

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

ATTACKER = "203.0.113.66"
NEIGHBOUR = "198.51.100.20"
SCOPE = {"type": "websocket", "client": [ATTACKER, 40000], "headers": []}


class Calls:
    """How often a real method ran, in any thread (it still runs)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, owner: type, name: str) -> None:
        self._calls: list[None] = []  # (appending is atomic: threads count without a lock)
        original: Callable[..., Any] = getattr(owner, name)

        def counted(*args: Any, **kwargs: Any) -> Any:
            self._calls.append(None)
            return original(*args, **kwargs)

        monkeypatch.setattr(owner, name, counted)

    @property
    def count(self) -> int:
        return len(self._calls)


@pytest.fixture
def session_loads(monkeypatch: pytest.MonkeyPatch) -> Calls:
    store = import_module(django_settings.SESSION_ENGINE).SessionStore
    return Calls(monkeypatch, store, "load")


@pytest.fixture
def queries(monkeypatch: pytest.MonkeyPatch) -> Calls:
    """Every SQL statement any thread runs."""
    return Calls(monkeypatch, CursorWrapper, "_execute")


@pytest.fixture
def gate(settings: Any) -> Iterator[dict[str, str | None]]:
    """The front gate's rates, per hour here (so that no test straddles two windows); the other
    rates off."""
    rates: dict[str, str | None] = {
        "socket_open_address": "10/hour",
        "api_address": "10/hour",
        "api_credential": "20/hour",
    }
    settings.PLAY_THROTTLE_RATES = rates
    limiter.forget_refusals()
    yield rates
    limiter.forget_refusals()


def signed_in(username: str) -> tuple[str, str]:
    """A player with a game: its session cookie and the game's id."""
    user = get_user_model().objects.create_user(username=username, password="long enough pass 1")
    code, _ = winnable_code()
    game = start_custom(client_for(user), code)
    browser = Client()
    browser.force_login(user)
    return browser.cookies[django_settings.SESSION_COOKIE_NAME].value, str(game["id"])


def game_socket(game_id: str, cookie: str, address: str) -> WebsocketCommunicator:
    socket = WebsocketCommunicator(
        application,
        f"/ws/games/{game_id}/",
        headers=[(b"origin", b"http://localhost"), (b"cookie", f"sessionid={cookie}".encode())],
    )
    socket.scope["client"] = [address, 40000]
    return socket


async def open_socket(game_id: str, cookie: str, address: str) -> tuple[Any, WebsocketCommunicator]:
    """How the open was answered: "view" (it opened) or the close code."""
    socket = game_socket(game_id, cookie, address)
    connected, code = await socket.connect(timeout=10)
    if not connected:
        return code, socket  # closed before it was accepted
    first = await socket.receive_output(timeout=10)
    if first["type"] == "websocket.send":
        return "view", socket
    return first.get("code"), socket


async def test_a_burst_of_socket_opens_is_refused_before_any_session_read(
    gate: Any, session_loads: Calls, queries: Calls
) -> None:
    cookie, game_id = await db(signed_in)("flooder")
    loads_before = session_loads.count
    answers = []
    kept = []
    for _ in range(100):
        answer, socket = await open_socket(game_id, cookie, ATTACKER)
        answers.append(answer)
        if answer == "view":
            kept.append(socket)
    # 10 through the gate: the game takes 5 of them, the next 5 are over its cap (4409), refused
    # before they read their session too. The 90 others are refused before they are accepted,
    # having read no session: 5 reads, not 100 (closed 1013 here: the test's communicator takes
    # no HTTP answer to a handshake, where Uvicorn's 429 goes). (10 reads until the game socket
    # checked its cap before reading its user.)
    assert (answers.count("view"), answers.count(4409), answers.count(1013)) == (5, 5, 90)
    loads_so_far, queries_so_far = session_loads.count, queries.count
    assert loads_so_far - loads_before == 5
    for _ in range(30):
        answer, _ = await open_socket(game_id, cookie, ATTACKER)
        assert answer == 1013
    assert (session_loads.count, queries.count) == (loads_so_far, queries_so_far)
    # Another address is not refused.
    answer, socket = await open_socket(game_id, cookie, NEIGHBOUR)
    assert answer == 4409  # through the gate: the game has its five already
    for socket in kept:
        await socket.disconnect(timeout=10)


async def test_a_flood_refused_costs_no_redis_call_once_its_window_is_known_over(gate: Any) -> None:
    for _ in range(11):
        await open_socket("00000000-0000-0000-0000-000000000000", "none", ATTACKER)
    counter = limiter._counters.get()
    calls = counter.calls
    for _ in range(50):
        answer, _ = await open_socket("00000000-0000-0000-0000-000000000000", "none", ATTACKER)
        assert answer == 1013
    assert counter.calls == calls


async def api_get(
    path: str, address: str, headers: list[tuple[bytes, bytes]]
) -> tuple[int, dict[str, str], bytes]:
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "GET",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": [(b"host", b"testserver"), *headers],
        "client": [address, 50000],
        "server": ["testserver", 80],
    }
    request = ApplicationCommunicator(application, scope)
    await request.send_input({"type": "http.request", "body": b"", "more_body": False})
    start = await request.receive_output(timeout=10)
    body = b""
    while True:
        part = await request.receive_output(timeout=10)
        body += part.get("body", b"")
        if not part.get("more_body"):
            break
    await request.wait(timeout=10)
    found = {name.decode().lower(): value.decode() for name, value in start["headers"]}
    return start["status"], found, body


async def test_a_request_swarm_is_refused_429_before_the_session_read_and_costs_no_query(
    gate: Any, session_loads: Calls, queries: Calls
) -> None:
    cookie, _ = await db(signed_in)("swarmer")
    headers = [(b"cookie", f"sessionid={cookie}".encode())]
    statuses = [(await api_get("/api/me", ATTACKER, headers))[0] for _ in range(10)]
    assert statuses == [200] * 10
    # Over the address's rate: refused, reading no session and making no query at all.
    loads, made = session_loads.count, queries.count
    refused = [await api_get("/api/me", ATTACKER, headers) for _ in range(40)]
    assert [status for status, _, _ in refused] == [429] * 40
    assert (session_loads.count, queries.count) == (loads, made)
    _, found, body = refused[0]
    assert 1 <= int(found["retry-after"]) <= 3600 and b'"code":"throttled"' in body
    # Another address is served.
    assert (await api_get("/api/me", NEIGHBOUR, headers))[0] == 200


async def test_one_credential_from_many_addresses_is_counted_as_one(gate: Any) -> None:
    cookie, _ = await db(signed_in)("botnet")
    headers = [(b"cookie", f"sessionid={cookie}".encode())]
    answers = [(await api_get("/api/me", f"10.1.2.{n}", headers))[0] for n in range(50)]
    assert answers == [200] * 20 + [429] * 30
    # A token is a credential of its own, counted the same way, whatever it is.
    tokens = [(b"authorization", b"Token not-a-real-one")]
    answers = [(await api_get("/api/me", f"10.1.3.{n}", tokens))[0] for n in range(30)]
    assert answers == [401] * 20 + [429] * 10


async def test_pages_and_static_files_are_not_counted(gate: Any) -> None:
    for _ in range(15):
        status, _, _ = await api_get("/robots.txt", ATTACKER, [])
        assert status != 429


async def test_an_address_over_its_open_rate_opens_again_when_its_window_ends(
    gate: dict[str, str | None], monkeypatch: pytest.MonkeyPatch
) -> None:
    """What an honest page behind a busy address meets: refused for the rest of the window (the
    page tries again, backing off), then let in."""
    gate["socket_open_address"] = "3/4s"
    nowhere = "00000000-0000-0000-0000-000000000000"
    clock = WindowClock().install(monkeypatch)  # (its windows turned over, not waited out)
    clock.next_window(4)  # a window's start: 4 s for the 5 opens
    answers = [(await open_socket(nowhere, "none", ATTACKER))[0] for _ in range(5)]
    assert answers[3:] == [1013, 1013] and 1013 not in answers[:3]
    wait = limiter.known_refusal(throttling.windows_of(front_gate.socket_limits(SCOPE)))
    assert wait is not None and 1 <= wait <= 4
    clock.wait(wait + 0.05)
    assert (await open_socket(nowhere, "none", ATTACKER))[0] != 1013


async def test_a_refusal_speaks_the_visitors_language_from_the_headers_alone(
    gate: Any, session_loads: Calls, queries: Calls
) -> None:
    """The 429's words follow the language cookie, then Accept-Language, then the site's
    default, read from the headers (no session, no query); junk headers fall back to English.
    (Before: English whatever the visitor read the site in.)"""
    for _ in range(10):
        await api_get("/api/today", ATTACKER, [])
    loads, made = session_loads.count, queries.count
    cases = {
        "Zu viele Anfragen": [(b"accept-language", b"de-AT,de;q=0.9,en;q=0.5")],
        "धेरै अनुरोध भए": [
            (b"accept-language", b"de"),
            (b"cookie", b"sessionid=whatever; django_language=ne"),
        ],
        "Too many requests": [(b"accept-language", b"fr-FR,fr;q=0.9")],
        "Too many requests.": [(b"accept-language", b"\x00;q=abc," + b"x" * 2000)],
        "Too many requests. ": [
            (b"cookie", b"django_language=../../etc"),
            (b"accept-language", b"*"),
        ],
    }
    for words, headers in cases.items():
        status, found, body = await api_get("/api/today", ATTACKER, headers)
        detail = orjson.loads(body)["detail"]
        assert status == 429 and detail.startswith(words.strip()), (headers, detail)
        assert found["retry-after"] in detail and found["content-language"] in ("en", "de", "ne")
    assert (session_loads.count, queries.count) == (loads, made)
