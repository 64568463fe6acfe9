"""A REST move costs the fairness clock one Redis command in the usual case (its beat not lapsed):
the script that sets the game's beat unless it lapsed answers "lapsed" before the move
(`clock_sweep.beat_of_a_move`). Before, a move read the beat first (`ZSCORE`, to stop a lapsed
clock) and wrote it after (`ZADD`): two round trips a move. Counted with Redis's own MONITOR,
which reports every command the server runs (a script's inner commands marked `lua`)."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
import redis
from django.conf import settings

from tests.play.helpers import client_for, move
from tests.play.test_screen_clock import solo_game
from tripeaks.play import clock_presence

pytestmark = pytest.mark.django_db(transaction=True)


@contextmanager
def clock_commands(game_id: str) -> Iterator[list[str]]:
    """The commands clients send on the game's entry of the clock's index while the block runs
    (other clients' commands on other keys, and a script's own inner commands, left out)."""
    seen: list[str] = []
    mark = f"end-of-count-{game_id}"
    watcher = redis.Redis.from_url(settings.REDIS_URL)
    ready = threading.Event()

    def listen() -> None:
        with watcher.monitor() as monitor:
            ready.set()
            for entry in monitor.listen():
                command = str(entry["command"])
                if mark in command:
                    return
                ours = clock_presence.index_key() in command and game_id in command
                if ours and "lua" not in str(entry.get("client_type", "")):
                    seen.append(command)

    thread = threading.Thread(target=listen, daemon=True)
    thread.start()
    assert ready.wait(10)
    try:
        yield seen
    finally:
        redis.Redis.from_url(settings.REDIS_URL).echo(mark)
        thread.join(10)
        watcher.close()


def test_a_rest_move_notes_its_beat_in_one_redis_command(make_player: Any) -> None:
    user = make_player("one_call")
    api = client_for(user)
    game = solo_game(user)
    with clock_commands(game["id"]) as seen:
        response = move(api, game, "draw")
    assert response.status_code == 200, response.content
    assert response.json()["clock_running"]
    assert len(seen) == 1, seen  # before: ZSCORE before the move, ZADD after it
    assert clock_presence.last_beat(game["id"]) is not None  # the move's beat stands


def test_a_strangers_move_renews_no_beat(make_player: Any) -> None:
    """The beat is noted under the game's row lock, once the game is known to be the mover's: a
    stranger who knows a game's id cannot keep its clock running."""
    owner = make_player("beat_owner")
    game = solo_game(owner)
    before = clock_presence.last_beat(game["id"])
    with clock_commands(game["id"]) as seen:
        refused = move(client_for(make_player("beat_stranger")), game, "draw")
    assert refused.status_code == 404
    assert seen == [] and clock_presence.last_beat(game["id"]) == before
