"""Issue #16's findings (tests/reliability/test_findings.py): sockets closed at sign-out, board
syncs throttled."""

from __future__ import annotations

import collections
import contextlib
import json
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from tests.reliability.findings import (
    ONE_WINDOW,
    fresh_counters,
    raw,
)
from tests.reliability.stack import Process, Stack, request

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def server(_private_stack: Stack) -> Iterator[Process]:
    """One server for this module's tests, with the limits in one window; each test resets the
    counters (`fresh_counters`) first, and its sockets are closed after it."""
    yield from _private_stack.shared_server("sockets", env=ONE_WINDOW)


# --------------------------------------------------------------------------- sockets


@pytest.fixture
def sockets() -> Iterator[Callable[..., Any]]:
    """`sockets(server, path, session=None)`: an open client socket, closed after the test."""
    from websockets.sync.client import connect

    with contextlib.ExitStack() as opened:

        def open_socket(server: Process, path: str, session: str | None = None) -> Any:
            headers = {"Origin": server.url}
            if session:
                headers["Cookie"] = f"sessionid={session}"
            url = f"ws://127.0.0.1:{server.port}{path}"
            return opened.enter_context(connect(url, additional_headers=headers))

        yield open_socket


def sign_out(server: Process, session: str) -> int:
    """POST /api/auth/logout with the session cookie and its CSRF token, as the page does."""
    status, body, headers = raw("GET", f"{server.url}/api/auth/csrf")
    csrf = json.loads(body)["csrf_token"]
    cookie = next(c for c in headers.get_all("Set-Cookie") if c.startswith("csrftoken="))
    status, _, _ = raw(
        "POST",
        f"{server.url}/api/auth/logout",
        b"",
        {
            "Cookie": f"sessionid={session}; {cookie.split(';', 1)[0]}",
            "X-CSRFToken": csrf,
            "Referer": f"{server.url}/",
        },
    )
    return status


def test_signing_out_closes_the_sessions_game_and_board_sockets(
    stack: Stack, server: Process, sockets: Callable[..., Any]
) -> None:
    import time

    from websockets.exceptions import ConnectionClosed

    fresh_counters(stack)
    (session, token), (other_session, _) = stack.players(2, "leaver")
    status, game, _, _ = request("POST", f"{server.url}/api/games", {"mode": "daily"}, token)
    assert status == 201
    game_socket = sockets(server, f"/ws/games/{game['id']}/", session)
    board_socket = sockets(server, "/ws/leaderboards/daily/wrap-closed/", session)
    bystander = sockets(server, "/ws/leaderboards/daily/wrap-closed/", other_session)
    view = json.loads(game_socket.recv(timeout=10))["game"]
    for socket in (board_socket, bystander):
        assert json.loads(socket.recv(timeout=10))["type"] == "board"

    signed_out_at = time.monotonic()
    assert sign_out(server, session) == 204
    closed_after = {}
    for name, socket in (("game", game_socket), ("board", board_socket)):
        with pytest.raises(ConnectionClosed) as closed:
            # Nothing but the close may come. How soon is a figure (printed), not a check: a 1 s
            # cap failed under a loaded machine; the wait only bounds a close that never comes.
            socket.recv(timeout=10)
        closed_after[name] = round((time.monotonic() - signed_out_at) * 1000, 1)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4401
    # The draws the attacker sends now reach nothing: the game is as it was.
    accepted = 0
    for _ in range(5):
        try:
            game_socket.send(json.dumps({"seq": view["seq"] + accepted, "action": "draw"}))
            accepted += json.loads(game_socket.recv(timeout=1))["type"] == "view"
        except ConnectionClosed:
            pass
    print(f"\nsockets closed after sign-out (ms): {closed_after}; draws accepted after: {accepted}")
    assert accepted == 0
    status, now, _, _ = request("GET", f"{server.url}/api/games/{game['id']}", token=token)
    assert now["seq"] == view["seq"]
    # Another player's socket is untouched.
    bystander.send(json.dumps({"type": "sync"}))
    assert json.loads(bystander.recv(timeout=5))["type"] == "board"
    # The ended session cannot open a socket again.
    with pytest.raises(Exception):  # noqa: B017 - the handshake is refused (or closed at once)
        again = sockets(server, f"/ws/games/{game['id']}/", session)
        again.recv(timeout=5)


def test_1000_anonymous_board_syncs_are_throttled_not_each_read_from_the_database(
    stack: Stack, server: Process, sockets: Callable[..., Any]
) -> None:
    from websockets.exceptions import ConnectionClosed

    fresh_counters(stack)
    socket = sockets(server, "/ws/leaderboards/daily/wrap-closed/")
    assert json.loads(socket.recv(timeout=10))["type"] == "board"
    answers: collections.Counter[str] = collections.Counter()
    close_code = None
    try:
        for _ in range(1000):
            socket.send(json.dumps({"type": "sync"}))
            reply = json.loads(socket.recv(timeout=5))
            answers[reply.get("code", reply["type"])] += 1
    except ConnectionClosed as closed:
        close_code = closed.rcvd.code if closed.rcvd else None
    print(f"\n1,000 anonymous syncs on the live board: {dict(answers)}, closed with {close_code}")
    assert answers["board"] <= 120  # the address's rate (a window boundary may let in one more)
    assert answers["throttled"] >= 1
    assert close_code == 4429
    # The address is over its rate: a new socket from it is refused too.
    with pytest.raises(Exception):  # noqa: B017
        sockets(server, "/ws/leaderboards/daily/wrap-closed/").recv(timeout=5)
