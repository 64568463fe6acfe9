"""A game started and played over REST, with no socket, is timed as a socket's game is: the clock
is the time the cards were on screen, and a REST client's requests are its beats
(play/clock_presence.py, play/clock_sweep.py, from play/api.py). Before, no server ever beat
for such a game, so the heartbeat's sweep never saw it: its clock ran on for as long as its
player was away (a whole day, for a client that crashed), and charged a player who came back
every second of the absence. The waits are the server's clock moved on (`ServerClock`)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.play.helpers import client_for, move
from tests.play.server_clock import ServerClock, patch_server_clock
from tests.play.test_screen_clock import SLACK_MS, log_of, solo_game
from tripeaks.play import clock_sweep
from tripeaks.play.models import Game

pytestmark = pytest.mark.django_db(transaction=True)

BEAT_MS = 5000  # settings.CLOCK_HEARTBEAT_S
AWAY_S = 600


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> ServerClock:
    return patch_server_clock(monkeypatch)


def drawn(api: Any, view: dict[str, Any]) -> dict[str, Any]:
    response = move(api, view, "draw")
    assert response.status_code == 200, response.content
    return dict(response.json())


def test_a_rest_game_left_alone_stops_at_its_last_request_and_a_move_starts_it_again(
    make_player: Any, clock: ServerClock
) -> None:
    user = make_player("rester")
    api = client_for(user)
    game = solo_game(user)  # started over REST: no socket ever opens
    view = drawn(api, game)
    assert clock_sweep.sweep_lapsed_clocks() == 0  # requested just now: left running

    clock.wait(AWAY_S)  # ten minutes with no request: nobody shows the cards
    assert clock_sweep.sweep_lapsed_clocks() == 1
    stopped = Game.objects.get(pk=game["id"])
    assert stopped.running_since is None and stopped.seq == view["seq"]  # nothing logged
    charged = stopped.elapsed_ms - view["elapsed_ms"]
    assert charged <= BEAT_MS + SLACK_MS, charged  # up to the last request, plus one interval
    print(f"away {AWAY_S} s over REST: {charged / 1000:.2f} s charged (before: {AWAY_S} s)")

    # The next move starts it again, logged as a resume: its think time runs from there.
    back = drawn(api, view)
    assert back["clock_running"] and back["seq"] == view["seq"] + 2
    assert log_of(game["id"])[-2:] == ["resume", "draw"]
    assert back["elapsed_ms"] - stopped.elapsed_ms <= SLACK_MS


def test_a_rest_move_after_a_lapse_the_sweep_has_not_seen_is_not_charged_for_it(
    make_player: Any, clock: ServerClock
) -> None:
    user = make_player("returning_rester")
    api = client_for(user)
    view = drawn(api, solo_game(user))
    clock.wait(AWAY_S)  # no sweep came: the move itself stops the clock at the lapse first
    back = drawn(api, view)
    assert back["elapsed_ms"] - view["elapsed_ms"] <= BEAT_MS + 2 * SLACK_MS, (back, view)
    assert log_of(view["id"])[-2:] == ["resume", "draw"]


def test_a_rest_client_that_reads_its_game_keeps_its_clock_running(
    make_player: Any, clock: ServerClock
) -> None:
    """A client showing the cards says so by reading the game within every three beats (a
    socket's server beats every one); a read after a lapse renews nothing and writes no game."""
    user = make_player("reader")
    api = client_for(user)
    view = drawn(api, solo_game(user))
    for _ in range(6):  # 60 s of reads every 10 s: shown all along
        clock.wait(10)
        assert api.get(f"/api/games/{view['id']}").status_code == 200
        assert clock_sweep.sweep_lapsed_clocks() == 0
    running = Game.objects.get(pk=view["id"])
    assert running.running_since is not None

    clock.wait(AWAY_S)
    read = api.get(f"/api/games/{view['id']}").json()
    assert read["clock_running"] and read["seq"] == view["seq"]  # a read changes nothing
    assert clock_sweep.sweep_lapsed_clocks() == 1  # the lapse stands: the sweep stops it there
    stopped = Game.objects.get(pk=view["id"])
    # Charged the minute of reads (and their own real time), plus one interval: not the ten.
    assert stopped.elapsed_ms - view["elapsed_ms"] <= 60_000 + BEAT_MS + 5 * SLACK_MS


def test_another_players_move_on_a_lapsed_game_stops_nothing(
    make_player: Any, clock: ServerClock
) -> None:
    owner = make_player("owner")
    view = drawn(client_for(owner), solo_game(owner))
    clock.wait(AWAY_S)
    refused = move(client_for(make_player("stranger")), view, "draw")
    assert refused.status_code == 404
    assert Game.objects.get(pk=view["id"]).running_since is not None  # left to the sweep
