"""The Redis rank set of a daily board agrees with PostgreSQL and survives racing writers."""

from __future__ import annotations

import random
from datetime import date, timedelta
from typing import Any

import pytest
from django.db.models.fields.tuple_lookups import Tuple, TupleLessThan

from leaderboard import cache
from leaderboard.boards import line_key, order_of, redis_member
from leaderboard.models import DealBest
from leaderboard.selectors import rank_of_line
from tests.leaderboard.helpers import T0, daily, finish

pytestmark = pytest.mark.django_db


def counted_rank(line: DealBest) -> int:
    ahead = DealBest.objects.filter(deal_id=line.deal_id).filter(
        TupleLessThan(Tuple(*order_of("daily")), line_key("daily", line))
    )
    return ahead.count() + 1


def test_cached_ranks_equal_counted_ranks(make_user: Any) -> None:
    deal = daily(date(2026, 3, 1))
    rng = random.Random(5)
    for i in range(40):
        finish(
            make_user(f"r{i}"),
            deal,
            won=rng.random() < 0.7,
            time_ms=rng.choice([10_000, 20_000, 30_000]),
            moves=rng.choice([40, 41]),
            at=T0 + timedelta(seconds=rng.choice([0, 1])),
        )
    assert not cache.is_ready(deal.pk)
    assert cache.rebuild(deal.pk) == 40
    assert cache.is_ready(deal.pk)
    lines = list(DealBest.objects.filter(deal=deal))
    assert sorted(cache.rank(line) or 0 for line in lines) == list(range(1, 41))
    for line in lines:
        assert cache.rank(line) == counted_rank(line) == rank_of_line(line)


def test_merges_commute_so_a_late_stale_write_changes_nothing(make_user: Any) -> None:
    deal = daily(date(2026, 3, 1))
    player = make_user("racer")
    finish(player, deal, time_ms=50_000, at=T0)
    old = DealBest.objects.get(player=player)
    old_member = redis_member("daily", old, player.pk)
    finish(player, deal, time_ms=40_000, at=T0 + timedelta(minutes=1))
    new = DealBest.objects.get(player=player)
    finish(make_user("between"), deal, time_ms=45_000, at=T0)

    cache.rebuild(deal.pk)
    cache.merge(deal.pk, [(player.pk, old_member)])  # an old update arriving late
    assert cache.rank(new) == 1
    zset = cache.keys(deal.pk)[0]
    assert cache.client().zcard(zset) == 2
