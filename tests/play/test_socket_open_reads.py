"""A game socket's opening reads the game as few times as it can: a page load or a reload opens
one (and a flood of them is what a socket's cost is measured on, issue #35). On a game whose
clock stopped (no screen showed it) the opening read it three times (to see, under the lock to
start its clock, and again for the view); the view is now made of the locked read. A closing
socket locks the game to stop its clock without reading its deal and player."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.play.helpers import client_for, start_custom, winnable_code
from tripeaks.play import services, socket_moves
from tripeaks.play.models import Game, Move

pytestmark = pytest.mark.django_db

CLOCK = {"elapsed_ms", "server_time"}


def game_reads(queries: CaptureQueriesContext) -> list[str]:
    return [q["sql"] for q in queries.captured_queries if q["sql"].startswith('SELECT "play_game"')]


def stopped_game(user: Any) -> str:
    code, _ = winnable_code()
    game_id = str(start_custom(client_for(user), code)["id"])
    Game.objects.filter(pk=game_id).update(running_since=None)  # no screen showed it
    return game_id


def test_an_opening_on_a_stopped_clock_reads_the_game_twice_and_starts_its_clock(
    make_player: Any,
) -> None:
    user = make_player()
    game_id = stopped_game(user)
    show = socket_moves._show.func.__wrapped__  # the call, in this thread
    with CaptureQueriesContext(connection) as queries:
        live, view = show(game_id, user, "screen-1")
    assert live is not None and view is not None
    assert len(game_reads(queries)) == 2, game_reads(queries)
    game = Game.objects.get(pk=game_id)
    assert game.running_since is not None and live.game.seq == game.seq == view["seq"]
    assert Move.objects.filter(game_id=game_id, seq=game.seq).get().action == "resume"
    # The view is the one a fresh read makes (but for the clock, which runs).
    _, fresh = socket_moves._open.func.__wrapped__(game_id, user)
    assert fresh is not None
    assert {k: v for k, v in view.items() if k not in CLOCK} == {
        k: v for k, v in fresh.items() if k not in CLOCK
    }


def test_a_closing_locks_the_game_alone(make_player: Any) -> None:
    user = make_player()
    code, _ = winnable_code()
    game_id = str(start_custom(client_for(user), code)["id"])
    with CaptureQueriesContext(connection) as queries:
        services.hide_game(game_id=game_id, user=user)
    (locked,) = game_reads(queries)
    assert "FOR UPDATE" in locked and "play_deal" not in locked, locked
    assert Game.objects.get(pk=game_id).running_since is None  # its clock stopped
