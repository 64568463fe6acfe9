from __future__ import annotations

from typing import Any

import pytest
from channels.testing import WebsocketCommunicator

from tests.play.helpers import client_for, start_custom, winnable_code
from tripeaks.asgi import application

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


async def connect(user: Any, game_id: str) -> WebsocketCommunicator:
    communicator = WebsocketCommunicator(
        application, f"/ws/games/{game_id}/", headers=[(b"origin", b"http://localhost")]
    )
    communicator.scope["user"] = user
    return communicator


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
