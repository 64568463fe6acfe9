"""The arena socket: the arena on connect and on sync, standings pushed after each finish."""

from __future__ import annotations

from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from tests.arenas.helpers import join, lose, running_arena, start
from tests.play.helpers import client_for, move

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


def socket_for(arena_id: str, user: Any = None) -> WebsocketCommunicator:
    from tripeaks.config.asgi import application

    communicator = WebsocketCommunicator(
        application, f"/ws/arenas/{arena_id}/", headers=[(b"origin", b"http://localhost")]
    )
    if user is not None:
        communicator.scope["user"] = user
    return communicator


def setup_arena(make_player: Any) -> tuple[Any, Any, dict[str, Any]]:
    arena = running_arena()
    player = make_player("racer")
    api = client_for(player)
    join(api, arena)
    return arena, api, start(api, arena)


async def test_a_finish_pushes_the_standings_to_everyone_watching(make_player: Any) -> None:
    arena, api, view = await database_sync_to_async(setup_arena)(make_player)
    socket = socket_for(str(arena.pk))
    assert (await socket.connect())[0]
    first = await socket.receive_json_from()
    assert first["type"] == "arena" and first["state"] == "running" and first["me"] is None
    assert first["standings"]["lines"][0]["games"] == 0

    # A move is not a finish: the standings socket stays quiet (play's progress is dropped).
    assert (await database_sync_to_async(move)(api, view, "draw")).status_code == 200
    assert await socket.receive_nothing(0.2)
    await database_sync_to_async(lose)(api, {**view, "seq": 1})
    pushed = await socket.receive_json_from()
    assert pushed["type"] == "standings"
    assert pushed["version"] == first["version"] + 1 == pushed["standings"]["version"]
    assert pushed["standings"]["lines"][0]["games"] == 1 and "me" not in pushed
    await socket.disconnect()


async def test_sync_sends_the_arena_again_with_the_watchers_own_line(make_player: Any) -> None:
    arena, _, _ = await database_sync_to_async(setup_arena)(make_player)
    from tripeaks.arenas.models import Entry

    player = await database_sync_to_async(lambda: Entry.objects.get().player)()
    socket = socket_for(str(arena.pk), player)
    assert (await socket.connect())[0]
    assert (await socket.receive_json_from())["me"]["rank"] == 1
    await socket.send_json_to({"type": "sync"})
    again = await socket.receive_json_from()
    assert again["type"] == "arena" and again["me"]["player"]["username"] == "racer"
    for frame in ("nonsense", '{"type": "move"}', "[" * 5000, "x" * 5000):
        await socket.send_to(text_data=frame)
        assert (await socket.receive_json_from())["code"] == "bad_message"
    await socket.disconnect()


async def test_no_such_arena_closes_the_socket() -> None:
    socket = socket_for("00000000-0000-0000-0000-000000000000")
    connected, code = await socket.connect()
    assert not connected and code == 4404


def ready_to_win(make_player: Any) -> tuple[Any, Any, dict[str, Any], dict[str, Any]]:
    from tests.arenas.helpers import play_line
    from tests.play.helpers import solution
    from tripeaks.play.models import Game

    arena, api, view = setup_arena(make_player)
    line = solution(Game.objects.select_related("deal").get(pk=view["id"]).deal)
    view = play_line(api, view, line[:-1])
    return arena, Game.objects.get(pk=view["id"]).player, view, line[-1]


async def test_a_win_on_the_game_socket_scores_and_is_pushed(make_player: Any) -> None:
    from tests.play.helpers import connect
    from tripeaks.arenas.models import Entry

    arena, player, view, last = await database_sync_to_async(ready_to_win)(make_player)
    watcher = socket_for(str(arena.pk))
    assert (await watcher.connect())[0]
    await watcher.receive_json_from()
    game = await connect(player, view["id"])
    assert (await game.connect())[0]
    await game.receive_json_from()
    await game.send_json_to({"seq": view["seq"], **last})
    answer = await game.receive_json_from()
    assert answer["type"] == "view" and answer["game"]["status"] == "won", answer
    pushed = await watcher.receive_json_from()
    assert pushed["standings"]["lines"][0]["points"] == 2
    entry = await database_sync_to_async(Entry.objects.get)()
    assert (entry.points, entry.wins, entry.streak) == (2, 1, 1)
    await game.disconnect()
    await watcher.disconnect()


async def test_a_flood_of_syncs_is_throttled_then_closed(settings: Any) -> None:
    from tests.floods import address_of_its_own, until_closed, until_throttled
    from tripeaks.arenas import consumers

    settings.PLAY_THROTTLE_RATES = {**settings.PLAY_THROTTLE_RATES, "board_address": "3/min"}
    arena = await database_sync_to_async(running_arena)()
    socket = socket_for(str(arena.pk))
    address_of_its_own(socket)
    assert (await socket.connect())[0]
    assert (await socket.receive_json_from())["type"] == "arena"
    await until_throttled(socket, {"type": "sync"}, "arena")
    await until_closed(socket, {"type": "sync"}, consumers.MAX_THROTTLED_IN_A_ROW)
    await socket.disconnect()
