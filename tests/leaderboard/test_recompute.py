"""Statistics, bests and records kept incrementally always equal a recomputation from results."""

from __future__ import annotations

from datetime import date, timedelta
from io import StringIO
from typing import Any

import pytest
from django.core.management import call_command
from django.db import transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from leaderboard.models import DealBest, DealRecord, PlayerStats
from leaderboard.services.recompute import rebuild_boards, recompute_stats
from tests.factories import UserFactory
from tests.leaderboard.helpers import T0, daily, finish, numbered, other

pytestmark = pytest.mark.django_db

STATS_FIELDS = [f.name for f in PlayerStats._meta.fields if f.name not in ("id",)]


def snapshot() -> dict[str, Any]:
    return {
        "stats": sorted(
            tuple(getattr(s, f if f != "player" else "player_id") for f in STATS_FIELDS)
            for s in PlayerStats.objects.all()
        ),
        "bests": sorted(
            DealBest.objects.values_list(
                "player_id", "deal_id", "result_id", "lost", "cards_left", "moves", "time_ms"
            )
        ),
        "records": sorted(
            DealRecord.objects.values_list(
                "deal_id", "lines", "best_id", "holder_id", "first_winner_id", "first_win_id"
            )
        ),
    }


game = st.tuples(
    st.integers(0, 2),  # player
    st.sampled_from(["daily", "numbered", "random", "custom"]),
    st.integers(0, 4),  # day offset / deal number
    st.sampled_from(["wrap-closed", "nowrap-open"]),
    st.booleans(),  # won
    st.integers(1, 4),  # time in tens of seconds (ties likely)
    st.integers(30, 32),  # moves
    st.integers(0, 6),  # minutes later than the previous game (0: the same moment)
    st.integers(0, 9),  # assisted when 0
)


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(st.lists(game, min_size=1, max_size=14))
def test_incremental_statistics_equal_the_recomputation(games: list[Any]) -> None:
    # Each example starts from an empty database: its rows are rolled back at the end.
    with transaction.atomic():
        play_and_compare(games)
        transaction.set_rollback(True)


def play_and_compare(games: list[Any]) -> None:
    players = [UserFactory(username=f"h{i}") for i in range(3)]
    at = T0
    # Days move forward with time, mostly (a daily may be finished a day late).
    for who, mode, n, rules, won, tens, moves, later, assist in games:
        at += timedelta(minutes=later)
        if mode == "daily":
            deal = daily(date(2026, 3, 1) + timedelta(days=n), rules)
        elif mode == "numbered":
            deal = numbered_deal(n, rules)
        else:
            deal = other(mode, rules)
        finish(
            players[who],
            deal,
            won=won,
            time_ms=tens * 10_000,
            moves=moves,
            cards_left=None if won else moves % 5 + 1,
            at=at,
            assisted=assist == 0,
        )
    incremental = snapshot()
    recompute_stats()
    rebuild_boards()
    assert snapshot() == incremental


def numbered_deal(n: int, rules: str) -> Any:
    from tripeaks.play.models import Deal

    existing = Deal.objects.filter(source="numbered", number=n + 1, rules_key=rules).first()
    return existing or numbered(n + 1, rules)


def test_recompute_command_repairs_broken_statistics(make_user: Any) -> None:
    player = make_user()
    for i, won in enumerate([True, True, False, True]):
        finish(player, daily(date(2026, 3, 1) + timedelta(days=i)), won=won, at=T0 + timedelta(i))
    finish(player, numbered(3), at=T0 + timedelta(days=5))
    good = snapshot()
    PlayerStats.objects.filter(player=player).update(played=99, best_streak=0, daily_streak=7)
    DealBest.objects.all().delete()

    out = StringIO()
    call_command("recompute_stats", "--boards", stdout=out)

    assert "statistics: 2 rows rebuilt" in out.getvalue()
    assert snapshot() == good
    assert PlayerStats.objects.get(player=player, rules_key="all").played == 5
