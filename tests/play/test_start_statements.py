"""What a game's start asks the database (issue #37 item 4: a socket's next game is part of a
solo move's cost): the player locked, then their unfinished games and their earlier games on the
deal (what the new game counts for) in one statement, both sent in one round trip, then the game
inserted. Two round trips, where the count of earlier games was a third and the lock a fourth;
what the game counts for is decided as before."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.play.helpers import solution
from tripeaks.engine.rules import Rules
from tripeaks.play import deals, services
from tripeaks.play.dealday import deal_day
from tripeaks.play.models import Game

pytestmark = pytest.mark.django_db


def _started(user: Any) -> tuple[Game, list[str]]:
    """A daily game started for `user`, and the statements its start ran (savepoints aside; the
    deal read before, as a server's cache has it)."""
    deal = deals.daily_deal(deal_day(), Rules())
    with CaptureQueriesContext(connection) as queries:
        game = services.start_game(user=user, mode="daily", rules=Rules(), deal=deal)
    statements = [query["sql"] for query in queries.captured_queries]
    return game, [sql for sql in statements if "SAVEPOINT" not in sql]


def test_a_start_counts_the_earlier_games_with_the_unfinished_ones(make_player: Any) -> None:
    user = make_player("counted")
    game, statements = _started(user)
    assert game.ranking == "first-try"
    # Were 4: the earlier games counted on their own; then 3: the lock on its own.
    assert len(statements) == 2, statements
    lock, listed = statements[0].split("; ", 1)
    assert "FOR UPDATE" in lock and statements[1].startswith("INSERT")
    assert "finished_at IS NULL" in listed and "count(*)" in listed


def test_what_a_start_counts_for_is_decided_as_before(make_player: Any) -> None:
    user = make_player("again")
    first, _ = _started(user)
    # Not begun: resigned by the next start, and nothing played yet.
    second, _ = _started(user)
    assert (first.ranking, second.ranking) == ("first-try", "first-try")
    first.refresh_from_db()
    assert first.finished_at is not None and first.started_at is None
    # Begun, then left unfinished: its resignation by the next start makes that one practice.
    services.apply_move(game_id=second.pk, user=user, seq=0, action="draw")
    third, statements = _started(user)
    assert third.ranking == "practice" and len(statements) > 2  # the resignation's own
    second.refresh_from_db()
    assert second.status == "lost"
    # A hint on the deal: no start on it ranks any more.
    services.apply_move(game_id=third.pk, user=user, seq=0, action="hint")
    fourth, _ = _started(user)
    assert fourth.ranking == "unranked"


def test_a_finished_win_makes_the_next_start_practice(make_player: Any) -> None:
    user = make_player("winner")
    game, _ = _started(user)
    for seq, step in enumerate(solution(deals.daily_deal(deal_day(), Rules()))):
        services.apply_move(game_id=game.pk, user=user, seq=seq, **step)
    following, statements = _started(user)
    assert following.ranking == "practice" and len(statements) == 2
