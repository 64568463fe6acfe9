from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

import psycopg
import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.db import connections
from psycopg import sql

from tests.play.helpers import client_for, connect, start_custom, winnable_code
from tripeaks.config.asgi import application

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


@pytest.fixture
def started(make_player: Any) -> tuple[Any, dict[str, Any], list[dict[str, Any]]]:
    user = make_player("sock")
    code, line = winnable_code()
    return user, start_custom(client_for(user), code), line


async def test_moves_over_the_socket_get_the_same_answers_as_rest(started: Any) -> None:
    user, game, line = started
    socket = await connect(user, game["id"])
    connected, _ = await socket.connect()
    assert connected
    hello = await socket.receive_json_from()
    assert hello["type"] == "view" and hello["game"]["seq"] == 0
    await socket.send_json_to({"seq": 0, **line[0]})
    reply = await socket.receive_json_from()
    assert reply["type"] == "view" and reply["game"]["seq"] == 1
    await socket.send_json_to({"seq": 1, "action": "play", "position": 0})
    error = await socket.receive_json_from()
    assert error["type"] == "error" and "face down" in error["detail"]
    await socket.send_json_to({"seq": 9, "action": "draw"})
    conflict = await socket.receive_json_from()
    assert conflict["code"] == "seq_mismatch" and conflict["game"]["seq"] == 1
    await socket.send_json_to({"type": "sync"})
    synced = await socket.receive_json_from()
    assert synced["game"]["seq"] == 1
    await socket.disconnect()


@pytest.mark.parametrize(
    "frame",
    [
        "not json",
        "[1, 2]",
        '{"seq": "x", "action": "draw"}',
        '{"seq": 0, "action": "teleport"}',
        '{"seq": 0, "action": []}',  # unhashable: crashed the socket (found by the hostile fuzz)
        '{"seq": 0, "action": {"play": 1}}',
        "[" * 2000 + "]" * 2000,
        "x" * 10_000,
    ],
)
async def test_malformed_frames_get_an_error_and_change_nothing(started: Any, frame: str) -> None:
    user, game, _ = started
    socket = await connect(user, game["id"])
    await socket.connect()
    await socket.receive_json_from()
    await socket.send_to(text_data=frame)
    error = await socket.receive_json_from()
    assert error["type"] == "error" and error["detail"]
    await socket.send_to(bytes_data=b"\x00\x01")
    assert (await socket.receive_json_from())["type"] == "error"
    await socket.send_json_to({"type": "sync"})
    assert (await socket.receive_json_from())["game"]["seq"] == 0
    await socket.disconnect()


async def test_a_move_reaches_the_games_other_sockets(started: Any) -> None:
    user, game, line = started
    first, second = await connect(user, game["id"]), await connect(user, game["id"])
    for socket in (first, second):
        await socket.connect()
        await socket.receive_json_from()
    await first.send_json_to({"seq": 0, **line[0]})
    assert (await first.receive_json_from())["game"]["seq"] == 1
    # Generous: under a loaded CI the hop through Redis can take seconds; what matters is that it comes.
    pushed = await second.receive_json_from(timeout=15)
    assert pushed["type"] == "view" and pushed["game"]["seq"] == 1
    await first.disconnect()
    await second.disconnect()


async def test_strangers_and_anonymous_sockets_are_turned_away(
    started: Any, make_player: Any
) -> None:
    from channels.db import database_sync_to_async
    from django.contrib.auth.models import AnonymousUser

    _, game, _ = started
    stranger = await database_sync_to_async(make_player)("stranger")
    for user in (stranger, AnonymousUser()):
        socket = await connect(user, game["id"])
        connected, code = await socket.connect()
        assert not connected
        await socket.disconnect()


@contextlib.contextmanager
def connections_refused() -> Iterator[None]:
    """PostgreSQL refuses every new connection to the test database; open ones keep working.
    (So the tests first close the connection an earlier test may have left in the thread that
    runs the consumers' database calls: the socket's lookup went through it in full runs.)"""
    params = connections["default"].get_connection_params()
    params.pop("cursor_factory", None)
    database = sql.Identifier(params["dbname"])
    # From the maintenance database, as pytest-django creates the test database: PostgreSQL will
    # not let a connection shut its own database.
    with psycopg.connect(**(params | {"dbname": "postgres"}), autocommit=True) as admin:
        admin.execute(sql.SQL("ALTER DATABASE {} WITH ALLOW_CONNECTIONS false").format(database))
        try:
            yield
        finally:
            admin.execute(sql.SQL("ALTER DATABASE {} WITH ALLOW_CONNECTIONS true").format(database))


async def test_a_game_that_cannot_be_read_on_connect_says_so_and_closes_with_try_again(
    started: Any,
) -> None:
    """The database refuses the socket's connection: the player is told the service is briefly
    unavailable and the socket closes with 1013 (try again later), not a failed handshake."""
    user, game, _ = started
    await database_sync_to_async(connections.close_all)()
    with connections_refused():
        socket = await connect(user, game["id"])
        connected, _ = await socket.connect()
        assert connected
        error = await socket.receive_json_from()
        assert error == {
            "type": "error",
            "detail": "the service is briefly unavailable; try again",
            "code": "unavailable",
        }
        assert await socket.receive_output() == {"type": "websocket.close", "code": 1013}
    socket = await connect(user, game["id"])
    connected, _ = await socket.connect()
    assert connected and (await socket.receive_json_from())["game"]["seq"] == 0
    await socket.disconnect()


async def test_a_session_that_cannot_be_read_on_connect_says_so_and_closes_with_try_again(
    started: Any,
) -> None:
    """Channels reads the session and its user before the consumer runs: with the database down
    that lookup fails too, and the socket still answers with a reason and 1013, not a 500."""
    from django.test import Client

    user, game, _ = started
    browser = Client()
    await database_sync_to_async(browser.force_login)(user)
    cookie = f"sessionid={browser.cookies['sessionid'].value}".encode()

    def signed_in() -> WebsocketCommunicator:
        return WebsocketCommunicator(
            application,
            f"/ws/games/{game['id']}/",
            headers=[(b"origin", b"http://localhost"), (b"cookie", cookie)],
        )

    await database_sync_to_async(connections.close_all)()
    with connections_refused():
        socket = signed_in()
        connected, _ = await socket.connect()
        assert connected
        error = await socket.receive_json_from()
        assert error["code"] == "unavailable" and "briefly unavailable" in error["detail"]
        assert await socket.receive_output() == {"type": "websocket.close", "code": 1013}
    socket = signed_in()
    connected, _ = await socket.connect()
    assert connected and (await socket.receive_json_from())["game"]["seq"] == 0
    await socket.disconnect()
