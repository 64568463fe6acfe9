"""Pools refilled ahead of demand: each pool's target is the starts it saw over the last hour,
scaled to RANDOM_POOL_AHEAD_MINUTES, at least the floor (RANDOM_POOL_SIZE) that every pool
players may use keeps, at most RANDOM_POOL_MAX; beat tops every pool up to its own target."""

from __future__ import annotations

import ast
from typing import Any

import pytest
from celery import current_app

from tests.play.helpers import refills_queued
from tripeaks.engine.rules import Rules
from tripeaks.play import deals, pool_demand, solver_queue
from tripeaks.play.models import Deal, Source
from tripeaks.play.tasks import refill_random_pool, refill_random_pools

pytestmark = pytest.mark.django_db

HOUR = pool_demand.HOUR_S
PYRAMID = (Rules().key, "pyramid")


@pytest.fixture
def ahead(settings: Any) -> Any:
    settings.RANDOM_POOL_SIZE = 1
    settings.RANDOM_POOL_AHEAD_MINUTES = 15
    settings.RANDOM_POOL_MAX = 50
    return settings


def starts(count: int, at: float, pool: tuple[str, str] = PYRAMID) -> None:
    for _ in range(count):
        pool_demand.count_start(Rules.from_key(pool[0]), pool[1], now=at)


def test_a_pool_nobody_plays_keeps_its_floor(ahead: Any) -> None:
    ahead.RANDOM_POOL_SIZE = 3
    assert pool_demand.targets([PYRAMID, (Rules().key, "classic")]) == {
        PYRAMID: 3,
        (Rules().key, "classic"): 3,
    }


def test_a_played_pool_holds_its_next_minutes_of_starts(ahead: Any) -> None:
    now = 1000 * HOUR + 60
    starts(40, now - 30)
    assert pool_demand.starts_last_hour([PYRAMID], now=now)[PYRAMID] == pytest.approx(40)
    assert pool_demand.target(40) == 10  # 40 an hour, 15 minutes ahead


def test_the_last_hour_slides_over_the_previous_hours_count(ahead: Any) -> None:
    now = 1000 * HOUR + HOUR // 4  # a quarter into this hour: 3/4 of the last one still counts
    starts(40, now - HOUR // 2)
    starts(5, now)
    assert pool_demand.starts_last_hour([PYRAMID], now=now)[PYRAMID] == pytest.approx(35)
    assert pool_demand.starts_last_hour([PYRAMID], now=now + 2 * HOUR)[PYRAMID] == 0


def test_a_pools_target_is_capped(ahead: Any) -> None:
    assert pool_demand.target(10_000) == 50
    ahead.RANDOM_POOL_SIZE = 60  # a floor above the cap wins: every pool keeps it
    assert pool_demand.target(10_000) == 60


def test_beat_tops_a_played_pool_up_beyond_the_floor(ahead: Any) -> None:
    ahead.RANDOM_POOL_LAYOUTS = ["pyramid"]
    ahead.RANDOM_POOL_AHEAD_MINUTES = 60
    starts(3, pool_demand.time.time())
    assert deals.pool_shortfalls()[0] == (3, Rules(), "pyramid", 0)  # the most wanted first
    assert refill_random_pools() == 3 + 7
    held = Deal.objects.filter(source=Source.RANDOM, claimed=False, layout="pyramid")
    assert held.filter(rules_key=Rules().key).count() == 3
    assert held.exclude(rules_key=Rules().key).count() == 7  # the floor, one each
    assert refill_random_pools() == 0


def test_a_workers_refill_aims_at_the_pools_own_target(ahead: Any) -> None:
    ahead.RANDOM_POOL_AHEAD_MINUTES = 60
    starts(2, pool_demand.time.time())
    assert refill_random_pool(*PYRAMID) == 2


def test_a_claim_asks_for_its_pools_top_up_at_once(ahead: Any, broker: None) -> None:
    """Refilled ahead: the worker tops a pool up after each start, not at beat's next round."""
    refill_random_pool(*PYRAMID, 2)
    assert refills_queued() == []
    deals.claim_random_deal(Rules(), "pyramid")
    deals.claim_random_deal(Rules(), "pyramid")
    assert refills_queued() == [repr(PYRAMID)]  # asked once while it waits


def test_every_start_counts_the_dry_ones_too(ahead: Any, broker: None) -> None:
    with pytest.raises(deals.PoolEmpty):
        deals.claim_random_deal(Rules(), "pyramid")
    refill_random_pool(*PYRAMID, 1)
    deals.claim_random_deal(Rules(), "pyramid")
    assert pool_demand.starts_last_hour([PYRAMID])[PYRAMID] == pytest.approx(2)


class DownCache:
    def __getattr__(self, name: str) -> Any:
        def down(*_: Any, **__: Any) -> Any:
            raise ConnectionError("redis is down")

        return down


def test_without_redis_every_pool_keeps_its_floor(ahead: Any, monkeypatch: Any) -> None:
    monkeypatch.setattr(pool_demand, "cache", DownCache())
    pool_demand.count_start(Rules(), "pyramid")  # not counted, and no error
    assert pool_demand.targets([PYRAMID]) == {PYRAMID: 1}


def test_a_fresh_deployment_gets_a_deal_in_every_pool_before_any_pool_fills(
    ahead: Any, broker: None
) -> None:
    """The fault: each top-up filled its pool to the target, emptiest first in layout order, so
    on 2 cores the last of 432 pools waited for the hard layouts' pools before them (118 pools
    still empty after 34 minutes). Now the empty pools are asked for one deal each, first."""
    ahead.RANDOM_POOL_LAYOUTS = ["pyramid", "classic"]
    ahead.RANDOM_POOL_SIZE = 3
    refill_random_pool(*PYRAMID, 1)
    refill_random_pools()
    queued = refills_queued()
    assert len(queued) == 15 and repr(PYRAMID) not in " ".join(queued)
    assert all(args.endswith(", 1)") for args in queued)  # one deal each
    for args in queued:
        rules_key, layout, target = ast.literal_eval(args)
        refill_random_pool(rules_key, layout, target)  # as the worker runs them
    with current_app.pool.acquire(block=True) as connection:
        connection.default_channel.client.delete(solver_queue.SOLVER_QUEUE)
    refill_random_pools()  # none empty now: every pool to its target
    assert sorted(refills_queued()) == sorted(
        repr((rules.key, layout))
        for layout in ("pyramid", "classic")
        for rules in deals.POOL_RULE_SETS
    )
