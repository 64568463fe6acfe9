"""Win streaks and daily streaks (Kathmandu deal days), incremental and recomputed alike."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from typing import Any

import pytest

from leaderboard.models import PlayerStats
from leaderboard.selectors import stats_payload
from leaderboard.services.recompute import recompute_stats
from tests.leaderboard.helpers import T0, daily, finish, other
from tripeaks.play.dealday import deal_day

pytestmark = pytest.mark.django_db


def stats(player: Any, rules_key: str = "all") -> PlayerStats:
    return PlayerStats.objects.get(player=player, rules_key=rules_key)


def test_played_won_lost_streaks_and_winning_times(make_user: Any) -> None:
    player = make_user()
    for i, (won, ms) in enumerate(
        [
            (True, 90_000),
            (True, 60_000),
            (False, 5_000),
            (True, 80_000),
            (True, 70_000),
            (True, 100_000),
            (False, 1_000),
            (True, 50_000),
        ]
    ):
        finish(player, other(), won=won, time_ms=ms, at=T0 + timedelta(minutes=i))
    row = stats(player)
    assert (row.played, row.won, row.lost) == (8, 6, 2)
    assert row.win_rate == pytest.approx(6 / 8)
    assert (row.current_streak, row.best_streak) == (1, 3)
    assert row.best_win_ms == 50_000
    assert row.average_win_ms == round((90 + 60 + 80 + 70 + 100 + 50) * 1000 / 6)


def test_statistics_per_rule_set_and_overall(make_user: Any) -> None:
    player = make_user()
    finish(player, other(rules_key="wrap-closed"), won=True, at=T0)
    finish(player, other(rules_key="nowrap-open"), won=False, at=T0 + timedelta(1))
    assert (stats(player, "wrap-closed").played, stats(player, "wrap-closed").won) == (1, 1)
    assert (stats(player, "nowrap-open").played, stats(player, "nowrap-open").won) == (1, 0)
    overall = stats(player)
    assert (overall.played, overall.won, overall.current_streak, overall.best_streak) == (
        2,
        1,
        0,
        1,
    )


def kathmandu(y: int, m: int, d: int, hh: int, mm: int) -> datetime:
    """A UTC instant given as Kathmandu wall-clock time (UTC+05:45)."""
    return datetime(y, m, d, hh, mm, tzinfo=UTC) - timedelta(hours=5, minutes=45)


def test_the_deal_day_turns_at_kathmandu_midnight_not_utc() -> None:
    before, after = kathmandu(2026, 3, 1, 23, 59), kathmandu(2026, 3, 2, 0, 1)
    assert before.date() == after.date() == date(2026, 3, 1)  # the same UTC day
    assert deal_day(before) == date(2026, 3, 1) and deal_day(after) == date(2026, 3, 2)


def test_daily_streak_counts_consecutive_kathmandu_days_and_a_missed_day_ends_it(
    make_user: Any,
) -> None:
    player = make_user()

    def win_daily_at(moment: datetime) -> None:
        finish(player, daily(deal_day(moment)), at=moment)

    # Two wins four minutes apart in UTC but on two Kathmandu days: a streak of 2.
    win_daily_at(kathmandu(2026, 3, 1, 23, 58))
    win_daily_at(kathmandu(2026, 3, 2, 0, 2))
    # Winning the same day's deal again counts once.
    win_daily_at(kathmandu(2026, 3, 2, 9, 0))
    row = stats(player)
    assert (row.daily_won, row.daily_streak, row.best_daily_streak) == (2, 2, 2)
    assert row.last_daily_day == date(2026, 3, 2)

    # A lost daily does not end the daily streak by itself, the missed day does.
    finish(player, daily(date(2026, 3, 3)), won=False, at=kathmandu(2026, 3, 3, 10, 0))
    win_daily_at(kathmandu(2026, 3, 4, 10, 0))  # 3 March missed
    row = stats(player)
    assert (row.daily_won, row.daily_streak, row.best_daily_streak) == (3, 1, 2)

    # As shown: alive today and tomorrow, gone once a whole day is missed.
    assert stats_payload(row, today=date(2026, 3, 5))["daily_streak"] == 1
    assert stats_payload(row, today=date(2026, 3, 6))["daily_streak"] == 0


def test_an_older_days_win_arriving_late_is_counted_exactly(make_user: Any) -> None:
    player = make_user()
    finish(player, daily(date(2026, 3, 1)), at=T0)
    finish(player, daily(date(2026, 3, 3)), at=T0 + timedelta(days=2))
    finish(player, daily(date(2026, 3, 2)), at=T0 + timedelta(days=2, hours=1))
    row = stats(player)
    assert (row.daily_won, row.daily_streak, row.best_daily_streak) == (3, 3, 3)
    assert row.last_daily_day == date(2026, 3, 3)


def test_two_players_finishing_the_daily_at_the_same_moment_both_count(make_user: Any) -> None:
    moment = kathmandu(2026, 3, 2, 0, 0)  # the first instant of 2 March in Kathmandu
    deal = daily(deal_day(moment))
    assert deal.day == date(2026, 3, 2)
    one, two = make_user("one"), make_user("two")
    finish(one, deal, at=moment)
    finish(two, deal, at=moment)
    for player in (one, two):
        row = stats(player)
        assert (row.daily_won, row.daily_streak, row.last_daily_day) == (1, 1, date(2026, 3, 2))
    before = {(s.player_id, s.rules_key): s.daily_streak for s in PlayerStats.objects.all()}
    recompute_stats()
    after = {(s.player_id, s.rules_key): s.daily_streak for s in PlayerStats.objects.all()}
    assert before == after
