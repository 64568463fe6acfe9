"""Game sockets are capped per game, per account and per address (issue #35): one more is closed
with 4409, which the page understands, and counts nowhere. Before: 300 sockets on one game, each
announced to every other, took another player's move from 70 to 446 ms (ChannelFull tracebacks
by the thousand), and 500 opens from one address all opened."""

from __future__ import annotations

from typing import Any

import pytest
from channels.db import database_sync_to_async as db

from tests.play.helpers import client_for, connect, start_custom, winnable_code
from tripeaks.infra import socket_caps
from tripeaks.play import screens

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


def solo_game(user: Any) -> dict[str, Any]:
    code, _ = winnable_code()
    return start_custom(client_for(user), code)


async def opened(user: Any, game_id: str, address: str | None = None) -> Any:
    socket = await connect(user, game_id)
    if address:
        socket.scope["client"] = [address, 40000]
    assert (await socket.connect())[0]
    first = await socket.receive_output(timeout=10)
    return socket, first


async def refused(user: Any, game_id: str, address: str | None = None) -> bool:
    socket, first = await opened(user, game_id, address)
    return bool(first == {"type": "websocket.close", "code": 4409})


async def open_ok(user: Any, game_id: str, address: str | None = None) -> Any:
    socket, first = await opened(user, game_id, address)
    assert first["type"] == "websocket.send", first
    return socket


async def test_a_game_takes_a_handful_of_sockets_and_the_next_is_closed_4409(
    make_player: Any, settings: Any
) -> None:
    settings.SOCKETS_PER_GAME = 3
    user = await db(make_player)("tabby")
    game = await db(solo_game)(user)
    tabs = [await open_ok(user, game["id"]) for _ in range(3)]
    assert await refused(user, game["id"])
    # The refused socket counts nowhere: the game still has its three.
    assert socket_caps.open_count(screens.key(game["id"])) == 3
    await tabs[0].disconnect(timeout=10)
    tabs[0] = await open_ok(user, game["id"])  # a tab closed: room for another
    for tab in tabs:
        await tab.disconnect(timeout=10)
    assert socket_caps.open_count(screens.key(game["id"])) == 0


async def test_an_account_takes_a_few_dozen_sockets(make_player: Any, settings: Any) -> None:
    settings.SOCKETS_PER_GAME, settings.SOCKETS_PER_ACCOUNT = 10, 2
    user = await db(make_player)("hoarder")
    game = await db(solo_game)(user)
    tabs = [await open_ok(user, game["id"]) for _ in range(2)]
    assert await refused(user, game["id"])
    for tab in tabs:
        await tab.disconnect(timeout=10)


async def test_an_address_takes_a_few_dozen_sockets_whoever_opens_them(
    make_player: Any, settings: Any
) -> None:
    settings.SOCKETS_PER_ADDRESS = 2
    here, elsewhere = "203.0.113.7", "198.51.100.7"
    players = [await db(make_player)(f"swarm{n}") for n in range(3)]
    games = [await db(solo_game)(player) for player in players]
    tabs = [await open_ok(players[n], games[n]["id"], here) for n in range(2)]
    assert await refused(players[2], games[2]["id"], here)
    tabs.append(await open_ok(players[2], games[2]["id"], elsewhere))
    for tab in tabs:
        await tab.disconnect(timeout=10)


async def test_a_refused_socket_neither_tells_the_games_sockets_nor_stops_its_clock(
    make_player: Any, settings: Any
) -> None:
    settings.SOCKETS_PER_GAME = 1
    user = await db(make_player)("single")
    game = await db(solo_game)(user)
    tab = await open_ok(user, game["id"])
    assert await refused(user, game["id"])
    assert await tab.receive_nothing(timeout=0.3)  # no greeting asked of it
    assert await db(screens.watched)(game["id"])
    await tab.disconnect(timeout=10)


async def test_a_full_channel_drops_its_message_without_a_traceback(
    caplog: pytest.LogCaptureFixture,
) -> None:
    from channels.layers import get_channel_layer

    from tripeaks.play.broadcast import greet_peer

    layer = get_channel_layer()
    assert layer is not None
    channel = await layer.new_channel()
    for _ in range(layer.get_capacity(channel)):
        await layer.send(channel, {"type": "filler"})
    with caplog.at_level("INFO", logger="tripeaks.events"):
        await greet_peer(channel, None)  # the channel is full: dropped
    records = [r for r in caplog.records if r.name == "tripeaks.events"]
    assert [r.getMessage() for r in records] == ["a socket's channel is full"]
    assert all(r.exc_info is None for r in records)
