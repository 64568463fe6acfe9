"""A socket's next game (`new`) moves its screen from the game it leaves to the one it starts
(`screens.moved`, issue #37 item 4: a next game is part of a solo move's cost): one Redis round
trip, where leaving one game's set and joining the other's were two."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

import pytest
from channels.db import database_sync_to_async as db
from redis.connection import AbstractConnection

from tests.play.helpers import client_for, connect, start_custom, winnable_code
from tripeaks.infra import redis_client, socket_caps
from tripeaks.play import screens


@contextlib.contextmanager
def screen_round_trips() -> Iterator[list[bytes]]:
    """The round trips of the (sync) Redis client meanwhile that name a game's screens' set."""
    sent: list[bytes] = []
    send = AbstractConnection.send_packed_command

    def counted(self: AbstractConnection, command: Any, check_health: bool = True) -> None:
        packed = b"".join(command) if isinstance(command, list) else bytes(command)
        if b"sockets:game:" in packed:
            sent.append(packed)
        send(self, command, check_health)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(AbstractConnection, "send_packed_command", counted)
        yield sent


@pytest.mark.django_db
def test_a_screen_moved_leaves_one_set_and_joins_the_other_in_one_round_trip() -> None:
    socket_caps.admit("screen-1", [(screens.key("old-game"), 0)])
    socket_caps.admit("screen-2", [(screens.key("old-game"), 0)])
    with screen_round_trips() as sent:
        screens.moved("old-game", "new-game", "screen-1")
    assert len(sent) == 1
    client = redis_client.client()
    assert client.zscore(screens.key("old-game"), "screen-1") is None
    assert client.zscore(screens.key("old-game"), "screen-2") is not None  # the other stays
    assert client.zscore(screens.key("new-game"), "screen-1") is not None
    assert 0 < client.ttl(screens.key("new-game")) <= screens.LEASE_S
    assert not screens.watched("nobody's-game") and screens.watched("new-game")


@pytest.mark.django_db
def test_a_held_set_at_its_cap_refuses_and_the_member_stays_where_it_was() -> None:
    full, old = socket_caps.holder("game", "full"), socket_caps.holder("game", "left")
    socket_caps.admit("other", [(full, 1)])
    socket_caps.admit("mover", [(old, 0)])
    assert socket_caps.admit("mover", [(full, 1)], leaving=[old]) == 1
    client = redis_client.client()
    assert client.zscore(old, "mover") is not None and client.zscore(full, "mover") is None


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_sockets_next_game_moves_its_screen_by_one_round_trip(make_player: Any) -> None:
    user = await db(make_player)("mover")
    code, line = winnable_code()
    old = await db(start_custom)(client_for(user), code)
    socket = await connect(user, old["id"])
    assert (await socket.connect())[0]
    await socket.receive_json_from()
    with screen_round_trips() as sent:
        await socket.send_json_to({"type": "new", "mode": "custom", "deal": code, "rules": {}})
        reply = await socket.receive_json_from()
    assert reply["type"] == "started"
    assert len(sent) == 1  # were 2: out of the old game's set, then into the new one's
    assert not await db(screens.watched)(old["id"])
    assert await db(screens.watched)(reply["game"]["id"])
    await socket.disconnect()
