"""The query that locks a finishing player's statistics rows also says how the game was timed
(issues 7 and 15): each of the game's own plays, draws and undos from when its position was shown. Staff taking a player off
the boards, asked in that query too: test_ranking.py; a whole game played too fast over the API:
tests/reliability/test_fair_play.py."""

from __future__ import annotations

import threading
from datetime import timedelta
from typing import Any

import pytest
from django.db import DatabaseError, connection, transaction

from leaderboard import fairplay
from leaderboard.models import DealBest, PlayerStats
from tests.leaderboard.helpers import T0, finish, numbered, other

pytestmark = pytest.mark.django_db

TIMED = ("play", "draw", "undo")


def timed_moves(count: int, start: Any, apart: timedelta) -> list[tuple[str, Any]]:
    return [(TIMED[i % 3], start + i * apart) for i in range(count)]


def test_a_run_is_timed_by_its_own_plays_draws_and_undos_only(
    make_user: Any, settings: Any
) -> None:
    settings.FAIR_PLAY_TIMING_CHECK = True
    player = make_user("quick")
    # A first game at a human pace (the player's rows are made, then locked).
    human_log, at = [], T0
    for i, seconds in enumerate((1.2, 3.4, 0.8, 2.1, 5.0, 0.9, 1.7, 2.6, 0.7, 4.2, 1.1, 1.9)):
        at += timedelta(seconds=seconds)
        human_log.append((TIMED[i % 3], at))
    human = finish(player, numbered(), log=human_log)
    # Then twelve moves 100 ms apart, between an hour of hints, pauses and a resignation: those
    # are not moves, nor are the first game's.
    start = T0 + timedelta(hours=1)
    log = [("hint", start), ("pause", start + timedelta(seconds=1))]
    log += [("resume", start + timedelta(hours=1))]
    log += timed_moves(12, start + timedelta(hours=1, seconds=1), timedelta(milliseconds=100))
    log += [("resign", start + timedelta(hours=2))]
    bot = finish(player, numbered(), won=False, log=log)

    assert not human.flagged and not human.hidden
    assert bot.flagged and bot.hidden
    # Timed from the resume (the cards shown again), then each move from the one before.
    assert bot.flag_reason == "median think time 100 ms over 12 moves (no human under 250 ms)"
    assert list(DealBest.objects.filter(player=player).values_list("result", flat=True)) == [
        human.pk
    ]
    stats = PlayerStats.objects.filter(player=player).order_by("rules_key")
    assert [(row.rules_key, row.played, row.won) for row in stats] == [
        ("all", 2, 1),
        ("wrap-closed", 2, 1),
    ]


@pytest.mark.django_db(transaction=True)  # the rows another connection tries to lock are committed
def test_a_finish_locks_its_players_statistics_rows_before_counting_in_them(
    make_user: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Else two finishes of one player could count from the same rows, and one be lost."""
    player, someone = make_user("holder"), make_user("someone")
    for returning in (player, someone):
        finish(returning, other())
    tries: dict[str, DatabaseError | None] = {}

    def try_to_lock(name: str, who: Any) -> None:
        try:
            with transaction.atomic():
                list(PlayerStats.objects.select_for_update(nowait=True).filter(player=who))
            tries[name] = None
        except DatabaseError as error:
            tries[name] = error
        finally:
            connection.close()

    def facts(*args: Any) -> fairplay.Facts:  # asked right after the lock, before any count
        for name, who in (("player", player), ("someone", someone)):
            thread = threading.Thread(target=try_to_lock, args=(name, who))
            thread.start()
            thread.join()
        return read_facts(*args)

    read_facts = fairplay.facts
    monkeypatch.setattr(fairplay, "facts", facts)
    finish(player, other())
    assert isinstance(tries["player"], DatabaseError) and tries["someone"] is None
