"""What a game's end asks the database (issue #37 item 4: a socket's game end is part of a solo
move's cost). A finish that ranks its run stores the player's statistics in the statement that
reads their line on the deal's board (a data-modifying `WITH`): one round trip where two were,
with the same rows stored."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from leaderboard.models import DealBest, PlayerStats, Result
from tests.play.helpers import solution
from tripeaks.engine.rules import Rules
from tripeaks.play import deals, services, steps
from tripeaks.play.dealday import deal_day
from tripeaks.play.models import Game

pytestmark = pytest.mark.django_db


def _finished_from_a_copy(user: Any) -> tuple[services.MoveOutcome | None, list[str]]:
    """A daily game played to its last move, which is stored from a socket's copy of the game
    (`finish_copy`), and the statements that finish ran (savepoints aside)."""
    deal = deals.daily_deal(deal_day(), Rules())
    *line, last = solution(deal)
    game = services.start_game(user=user, mode="daily", rules=Rules(), deal=deal)
    for seq, step in enumerate(line):
        services.apply_move(game_id=game.pk, user=user, seq=seq, **step)
    copy = Game.objects.select_related("deal", "player").get(pk=game.pk)
    state, now = services.load_game_state(copy), timezone.now()
    step = steps.advance(copy, state, action=last["action"], position=last.get("position"), now=now)
    with CaptureQueriesContext(connection) as queries:
        outcome = services.finish_copy(game=copy, step=step, now=now)
    statements = [query["sql"] for query in queries.captured_queries]
    return outcome, [sql for sql in statements if "SAVEPOINT" not in sql]


def test_a_practice_finish_stores_the_statistics_with_the_line_read(make_player: Any) -> None:
    user = make_player("finisher")
    _finished_from_a_copy(user)  # the first try: the player's rows and line made
    DealBest.objects.filter(player=user).update(time_ms=0)  # a line the next run cannot beat

    outcome, statements = _finished_from_a_copy(user)  # the same deal again: practice

    assert outcome is not None and outcome.view["status"] == "won"
    # The move stored, the statistics locked, the result inserted, the statistics stored with
    # the line read; then the finished view's rank of the line. Five (were six: the statistics
    # stored on their own).
    assert len(statements) == 5, statements
    assert "FOR UPDATE" in statements[1] and statements[2].startswith("INSERT")
    stored, read = statements[3].split(") SELECT ", 1)
    assert stored.startswith("WITH written AS (UPDATE") and "leaderboard_playerstats" in stored
    assert "leaderboard_dealbest" in read and "COUNT(*)" in statements[4]
    # The rows as before: both statistics rows count the two wins; the line is the first try's.
    results = list(Result.objects.filter(player=user).order_by("id"))
    assert [result.attempt for result in results] == ["first-try", "practice"]
    stats = PlayerStats.objects.filter(player=user)
    assert sorted((row.played, row.won, row.current_streak) for row in stats) == [(2, 2, 2)] * 2
    best = DealBest.objects.get(player=user)
    assert (best.result_id, best.time_ms) == (results[0].pk, 0)
    assert outcome.view["result"]["board"]
