"""The clock is the time the cards were on screen: a solo game's clock stops when its last game
socket closes and starts again when one opens or a move comes (logged as a resume, so the
fair-play check times the next move from there too); a race's never stops. The waits are the
server's clock moved on (`ServerClock`, still: the server's own work adds no time, however
loaded the machine), not sleeps. Before: a game gained every second its
socket was closed (8.1 s in 8 s over the API, 23 s for a tab closed 20 s)."""

from __future__ import annotations

import time
from typing import Any

import pytest
from channels.db import database_sync_to_async as db

from tests.play.contests import begun_race, game_of
from tests.play.helpers import client_for, connect, move, start_custom, winnable_code
from tests.play.server_clock import ServerClock, patch_server_clock
from tripeaks.infra import redis_client
from tripeaks.play import screens
from tripeaks.play.models import Game, Move
from tripeaks.play.replay import matches_log

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

# What a clock may gain over a closed socket's N seconds: the server's own work around the close.
SLACK_MS = 400


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> ServerClock:
    return patch_server_clock(monkeypatch, still=True)


async def opened(user: Any, game_id: str) -> tuple[Any, dict[str, Any]]:
    socket = await connect(user, game_id)
    assert (await socket.connect())[0]
    hello = await socket.receive_json_from(timeout=10)
    assert hello["type"] == "view", hello
    return socket, hello["game"]


async def send(socket: Any, frame: dict[str, Any]) -> dict[str, Any]:
    await socket.send_json_to(frame)
    reply = await socket.receive_json_from(timeout=10)
    assert reply["type"] == "view", reply
    return dict(reply["game"])


def solo_game(user: Any) -> dict[str, Any]:
    code, _ = winnable_code()
    return start_custom(client_for(user), code)


def log_of(game_id: str) -> list[str]:
    return list(
        Move.objects.filter(game_id=game_id).order_by("seq").values_list("action", flat=True)
    )


def replays(game_id: str) -> bool:
    return matches_log(Game.objects.select_related("deal").get(pk=game_id))


async def test_a_solo_game_gains_nothing_while_its_only_socket_is_closed(
    make_player: Any, clock: ServerClock
) -> None:
    user = await db(make_player)("leaver")
    game = await db(solo_game)(user)
    socket, view = await opened(user, game["id"])
    drawn = await send(socket, {"seq": view["seq"], "action": "draw"})
    await socket.disconnect(timeout=10)
    stopped = await db(Game.objects.get)(pk=game["id"])
    assert stopped.running_since is None and not stopped.paused and stopped.seq == drawn["seq"]

    clock.wait(20)  # the tab is closed for 20 s
    socket, back = await opened(user, game["id"])
    assert back["clock_running"] and back["seq"] == drawn["seq"] + 1  # the resume, logged
    assert back["elapsed_ms"] - drawn["elapsed_ms"] < SLACK_MS, (back, drawn)
    again = await send(socket, {"seq": back["seq"], "action": "draw"})
    assert again["elapsed_ms"] - drawn["elapsed_ms"] < SLACK_MS
    await socket.disconnect(timeout=10)
    assert await db(log_of)(game["id"]) == ["draw", "resume", "draw"]
    assert await db(replays)(game["id"])


async def test_a_move_made_on_the_view_read_before_the_socket_opened_still_fits(
    make_player: Any, clock: ServerClock
) -> None:
    """The page reads the game, then opens its socket, whose opening may log a resume: a move
    made on the view read first is made on the same table, and is taken."""
    user = await db(make_player)("reloader")
    game = await db(solo_game)(user)
    socket, view = await opened(user, game["id"])
    await socket.disconnect(timeout=10)
    read = await db(client_for(user).get)(f"/api/games/{game['id']}")
    socket, back = await opened(user, game["id"])
    assert back["seq"] == read.json()["seq"] + 1
    drawn = await db(move)(client_for(user), read.json(), "draw")
    assert drawn.status_code == 200, drawn.content
    assert drawn.json()["seq"] == back["seq"] + 1 and drawn.json().get("replayed") is None
    # Sent again, it is a retry; another move on that old view is a conflict.
    again = await db(move)(client_for(user), read.json(), "draw")
    assert again.status_code == 200 and again.json()["replayed"] is True
    stale = await db(move)(client_for(user), read.json(), "undo")
    assert stale.status_code == 409 and stale.json()["code"] == "seq_mismatch"
    await socket.disconnect(timeout=10)


async def test_a_rest_move_after_the_socket_closed_starts_the_clock_and_a_retry_still_fits(
    make_player: Any, clock: ServerClock
) -> None:
    user = await db(make_player)("rester")
    game = await db(solo_game)(user)
    socket, view = await opened(user, game["id"])
    await socket.disconnect(timeout=10)
    clock.wait(8)  # over the API: a game whose only socket closed gained 8.1 s in 8 s
    api = client_for(user)
    drawn = await db(move)(api, view, "draw")
    assert drawn.status_code == 200, drawn.content
    body = drawn.json()
    assert body["elapsed_ms"] - view["elapsed_ms"] < SLACK_MS and body["clock_running"]
    assert body["seq"] == view["seq"] + 2
    assert await db(log_of)(game["id"]) == ["resume", "draw"]
    # The page sends a move again by REST, with its seq, when its answer was lost.
    retried = await db(move)(api, view, "draw")
    assert retried.status_code == 200 and retried.json()["replayed"] is True
    assert retried.json()["seq"] == body["seq"]


async def test_the_clock_runs_while_another_socket_still_shows_the_game(
    make_player: Any, clock: ServerClock
) -> None:
    user = await db(make_player)("two-tabs")
    game = await db(solo_game)(user)
    first, view = await opened(user, game["id"])
    second, _ = await opened(user, game["id"])
    await first.disconnect(timeout=10)
    clock.wait(5)
    still = await send(second, {"type": "sync"})
    assert still["clock_running"] and still["elapsed_ms"] - view["elapsed_ms"] >= 5000
    assert still["seq"] == view["seq"]
    await second.disconnect(timeout=10)


async def test_a_screen_left_by_a_dead_server_lapses(make_player: Any, clock: ServerClock) -> None:
    """A server that died with the game's socket open never said so; its screen lapses after
    the lease, and the next close of the game's last socket stops the clock."""
    user = await db(make_player)("orphan")
    game = await db(solo_game)(user)

    def ghost(lapsed_s_ago: float) -> None:
        key = screens.key(game["id"])
        redis_client.client().zadd(key, {"dead-server-socket": time.time() - lapsed_s_ago})

    await db(ghost)(1)
    socket, view = await opened(user, game["id"])
    await socket.disconnect(timeout=10)
    clock.wait(20)
    socket, back = await opened(user, game["id"])
    assert back["elapsed_ms"] - view["elapsed_ms"] < SLACK_MS
    await socket.disconnect(timeout=10)


async def test_a_race_clock_never_stops(
    make_player: Any, settings: Any, clock: ServerClock
) -> None:
    def race() -> tuple[Any, str]:
        ann, bob = make_player("ann"), make_player("bob")
        return ann, str(game_of(begun_race(ann, bob, settings), ann).pk)

    ann, game_id = await db(race)()
    socket, view = await opened(ann, game_id)
    await socket.disconnect(timeout=10)
    clock.wait(5)
    socket, back = await opened(ann, game_id)
    assert back["seq"] == view["seq"] and back["elapsed_ms"] - view["elapsed_ms"] >= 5000
    await socket.disconnect(timeout=10)


@pytest.fixture(autouse=True)
def _pool(a_proven_deal_ready: None) -> None:
    """Races deal from the pool (tests/conftest.py)."""
