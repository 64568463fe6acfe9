"""The clock's heartbeat (play/clock_presence.py, play/clock_sweep.py), in one process: a clock
counts only while a live server beats for its game. A server that stops beating (here: the
server's clock moved on past three beats with no beat, `ServerClock`) has the clock stopped at
its last beat plus one interval, by the sweep or by the next socket's opening; a live one's is
left running; an idle sweep makes no query. The real thing, a server killed with its socket
open, is tests/play/test_screen_clock_dead_server.py."""

from __future__ import annotations

from typing import Any

import pytest
from channels.db import database_sync_to_async as db

from tests.play.contests import begun_race, game_of
from tests.play.server_clock import ServerClock, patch_server_clock
from tests.play.test_screen_clock import SLACK_MS, log_of, opened, send, solo_game
from tripeaks.infra import redis_client
from tripeaks.play import clock_presence, clock_sweep
from tripeaks.play.models import Game

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

BEAT_MS = 5000  # settings.CLOCK_HEARTBEAT_S


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> ServerClock:
    return patch_server_clock(monkeypatch, still=True)


def beats() -> dict[str, float]:
    found = redis_client.client().zrange(clock_presence.index_key(), 0, -1, withscores=True)
    return {redis_client.text(member): score for member, score in found}


async def test_a_clock_whose_server_stopped_beating_is_stopped_at_its_last_beat(
    make_player: Any, clock: ServerClock
) -> None:
    user = await db(make_player)("beaten")
    game = await db(solo_game)(user)
    socket, view = await opened(user, game["id"])
    assert game["id"] in await db(beats)()  # noted on opening
    drawn = await send(socket, {"seq": view["seq"], "action": "draw"})
    assert await db(clock_sweep.sweep_lapsed_clocks)() == 0  # beating: left alone

    clock.wait(60)  # a minute with no beat: the server is taken for dead
    assert await db(clock_sweep.sweep_lapsed_clocks)() == 1

    stopped = await db(Game.objects.get)(pk=game["id"])
    assert stopped.running_since is None and stopped.seq == drawn["seq"]  # no move logged
    charged = stopped.elapsed_ms - view["elapsed_ms"]
    assert charged <= BEAT_MS + SLACK_MS, charged  # up to the last beat, plus one interval
    assert game["id"] not in await db(beats)()  # swept: the next sweep has nothing to read
    await socket.disconnect(timeout=10)


async def test_a_socket_opening_on_a_lapsed_game_stops_its_clock_there_first(
    make_player: Any, clock: ServerClock
) -> None:
    """The player comes back (on another server) before the sweep: the dead server's silence is
    not charged; the socket's opening starts the clock again, logged as a resume."""
    user = await db(make_player)("returner")
    game = await db(solo_game)(user)
    socket, view = await opened(user, game["id"])
    # The server dies: its socket never closes, and nothing beats for the game any more.
    clock_presence.let_go(game["id"])
    clock.wait(45)
    again, back = await opened(user, game["id"])

    assert back["clock_running"] and back["seq"] == view["seq"] + 1
    assert back["elapsed_ms"] - view["elapsed_ms"] <= BEAT_MS + SLACK_MS, (back, view)
    assert await db(log_of)(game["id"]) == ["resume"]
    for open_socket in (again, socket):
        await open_socket.disconnect(timeout=10)


async def test_a_race_clock_and_a_paused_clock_are_never_swept(
    make_player: Any, settings: Any, clock: ServerClock
) -> None:
    def race() -> str:
        ann, bob = make_player("ann"), make_player("bob")
        return str(game_of(begun_race(ann, bob, settings), ann).pk)

    game_id = await db(race)()
    ann = await db(lambda: Game.objects.select_related("player").get(pk=game_id).player)()
    socket, view = await opened(ann, game_id)
    clock.wait(60)
    assert await db(clock_sweep.sweep_lapsed_clocks)() == 0
    running = await db(Game.objects.get)(pk=game_id)
    assert running.running_since is not None  # a race's clock never stops
    assert await db(beats)() == {}  # read once, dropped
    await socket.disconnect(timeout=10)


async def test_an_idle_sweep_makes_no_query(
    make_player: Any, clock: ServerClock, django_assert_num_queries: Any
) -> None:
    def sweep_counted() -> int:
        with django_assert_num_queries(0):
            return clock_sweep.sweep_lapsed_clocks()

    assert await db(sweep_counted)() == 0  # nothing shown anywhere
    user = await db(make_player)("shown")
    game = await db(solo_game)(user)
    socket, _ = await opened(user, game["id"])
    assert await db(sweep_counted)() == 0  # a game shown and beating
    await socket.disconnect(timeout=10)


@pytest.fixture(autouse=True)
def _pool(a_proven_deal_ready: None) -> None:
    """Races deal from the pool (tests/conftest.py)."""


async def test_beat_sweeps_every_two_beats(settings: Any) -> None:
    from tripeaks.play.tasks import sweep_lapsed_clocks

    entry = settings.CELERY_BEAT_SCHEDULE["sweep-lapsed-clocks"]
    assert entry["task"] == sweep_lapsed_clocks.name
    assert entry["schedule"] == 2 * settings.CLOCK_HEARTBEAT_S
    assert settings.CELERY_TASK_ROUTES[entry["task"]] == {"queue": "urgent"}
