"""A game socket starts the player's next game (`new`), as POST /api/games does, and then belongs
to it: no new request, no new socket."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer

from tests.play.helpers import client_for, connect, move, start_custom, winnable_code
from tests.play.test_socket_open_hops import redis_round_trips
from tripeaks.play import clock_presence
from tripeaks.play.broadcast import game_group
from tripeaks.play.models import Game, Move

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


@pytest.fixture
def started(make_player: Any) -> tuple[Any, dict[str, Any], str, list[dict[str, Any]]]:
    user = make_player("newsock")
    code, line = winnable_code()
    return user, start_custom(client_for(user), code), code, line


def _stored(game_id: str) -> tuple[str, int, list[str]]:
    game = Game.objects.get(pk=game_id)
    actions = list(Move.objects.filter(game=game).order_by("seq").values_list("action", flat=True))
    return game.status, game.seq, actions


async def test_new_starts_the_next_game_on_the_same_socket(started: Any) -> None:
    user, old, code, line = started
    socket = await connect(user, old["id"])
    assert (await socket.connect())[0]
    await socket.receive_json_from()
    await socket.send_json_to({"seq": 0, **line[0]})
    assert (await socket.receive_json_from())["game"]["seq"] == 1

    await socket.send_json_to({"type": "new", "mode": "custom", "deal": code, "rules": {}})
    reply = await socket.receive_json_from()
    assert reply["type"] == "started"
    new = reply["game"]
    assert new["id"] != old["id"] and new["seq"] == 0 and new["status"] == "playing"
    # Started as POST /api/games starts a game: the unfinished one, begun, is a loss.
    assert await database_sync_to_async(_stored)(old["id"]) == (
        "lost",
        2,
        [line[0]["action"], "resign"],
    )

    # The socket's moves are now the new game's, stored like any other.
    await socket.send_json_to({"seq": 0, **line[0]})
    played = await socket.receive_json_from()
    assert played["type"] == "view" and played["game"]["id"] == new["id"]
    assert played["game"]["seq"] == 1
    assert await database_sync_to_async(_stored)(new["id"]) == ("playing", 1, [line[0]["action"]])
    await socket.disconnect()


async def test_after_new_the_socket_hears_the_new_game_not_the_old_one(started: Any) -> None:
    user, old, code, line = started
    socket = await connect(user, old["id"])
    await socket.connect()
    await socket.receive_json_from()
    await socket.send_json_to({"type": "new", "mode": "custom", "deal": code})
    new = (await socket.receive_json_from())["game"]
    # A second tab on the new game: the first socket tells it of its moves.
    tab = await connect(user, new["id"])
    await tab.connect()
    assert (await tab.receive_json_from())["game"]["seq"] == 0
    await socket.send_json_to({"seq": 0, **line[0]})
    assert (await socket.receive_json_from())["game"]["seq"] == 1
    pushed = await tab.receive_json_from(timeout=15)
    assert pushed["game"]["id"] == new["id"] and pushed["game"]["seq"] == 1
    # A move by REST on the new game reaches the socket; nothing of the old game does.
    api = client_for(user)
    response = await database_sync_to_async(move)(api, pushed["game"], "draw")
    assert response.status_code == 200
    heard = await socket.receive_json_from(timeout=15)
    assert heard["game"]["id"] == new["id"] and heard["game"]["seq"] == 2
    assert await socket.receive_nothing(timeout=0.3)
    for each in (socket, tab):
        await each.disconnect()


@pytest.mark.parametrize(
    ("frame", "field"),
    [
        ({"type": "new", "mode": "weekly"}, "mode"),
        ({"type": "new", "mode": "numbered"}, "number"),
        ({"type": "new", "mode": "numbered", "number": "7"}, "number"),
        ({"type": "new", "mode": "custom"}, "deal"),
        ({"type": "new", "mode": "random", "rules": {"wrap": "yes"}}, "rules"),
    ],
)
async def test_a_bad_new_is_refused_and_the_socket_keeps_its_game(
    started: Any, frame: dict[str, Any], field: str
) -> None:
    user, old, _, line = started
    socket = await connect(user, old["id"])
    await socket.connect()
    await socket.receive_json_from()
    await socket.send_json_to(frame)
    error = await socket.receive_json_from()
    assert error["type"] == "error" and error["code"] == "invalid"
    assert error["detail"].startswith(field) and "game" not in error
    await socket.send_json_to({"seq": 0, **line[0]})
    played = await socket.receive_json_from()
    assert played["game"]["id"] == old["id"] and played["game"]["seq"] == 1
    assert await database_sync_to_async(Game.objects.count)() == 1
    await socket.disconnect()


@pytest.mark.parametrize(
    "body",
    [
        {"mode": "custom", "deal": "not a deal code"},
        {"mode": "random", "layout": "no-such-layout"},
    ],
)
async def test_a_start_the_service_refuses_gets_the_same_answer_as_rest(
    started: Any, body: dict[str, Any]
) -> None:
    user, old, _, _ = started
    rest = await database_sync_to_async(client_for(user).post)("/api/games", body, format="json")
    assert rest.status_code == 400
    socket = await connect(user, old["id"])
    await socket.connect()
    await socket.receive_json_from()
    await socket.send_json_to({"type": "new", **body})
    error = await socket.receive_json_from()
    assert error == {"type": "error", **rest.json()}
    await socket.send_json_to({"type": "sync"})
    assert (await socket.receive_json_from())["game"]["id"] == old["id"]
    assert await database_sync_to_async(Game.objects.count)() == 1
    await socket.disconnect()


async def new_counting_redis(started: Any) -> tuple[Any, dict[str, Any], Counter[str]]:
    """The player's socket on their game, then a `new` on it: the socket, the new game's view,
    and the Redis round trips of the `new`, by the command that led each."""
    user, old, code, _ = started
    socket = await connect(user, old["id"])
    await socket.connect()
    await socket.receive_json_from()
    with redis_round_trips() as trips:
        await socket.send_json_to({"type": "new", "mode": "custom", "deal": code})
        new = (await socket.receive_json_from())["game"]
    return socket, new, trips


async def test_new_moves_the_socket_between_the_games_groups_in_one_round_trip(
    started: Any,
) -> None:
    """Issue #37 item 4: a game's end and the next start are a quarter of a solo move's server
    CPU. The socket left the old game's group (a round trip led by `zrem`), then joined the new
    one's (another): one pipeline does both."""
    socket, new, trips = await new_counting_redis(started)
    old = started[1]
    assert trips["zrem"] == 0 and trips["zadd"] == 1, trips
    layer = get_channel_layer()
    assert layer is not None
    for game_id, members in ((old["id"], 0), (new["id"], 1)):  # it alone showed the old game
        group = game_group(game_id)
        redis = layer.connection(layer.consistent_hash(group))
        assert await redis.zcard(layer._group_key(group)) == members, game_id
    await socket.disconnect()


async def test_new_notes_the_next_game_as_shown_from_the_thread_that_starts_it(
    started: Any,
) -> None:
    """Issue #37 item 4: the next game's beat (the clock's heartbeat, play/clock_presence.py) was
    a script sent from the event loop after the start; the worker thread that starts the game
    notes it (one ZADD on its own client), and the loop only counts it."""
    socket, new, trips = await new_counting_redis(started)
    assert trips["eval"] == 0 and trips["evalsha"] == 0, trips
    beat = await database_sync_to_async(clock_presence.last_beat)(new["id"])
    assert beat is not None and abs(beat - clock_presence.now_s()) < 60
    await socket.disconnect()
