"""How many random starts each pool sees, and how many deals it should hold because of it.

Each start (a deal claimed, or asked of a dry pool) counts in its pool's hourly counter in Redis.
The starts "over the last hour" are the current hour's count plus the previous hour's, weighted by
the part of that hour still inside the sliding window (the estimate rate limiters use): two keys a
pool, no list of timestamps. A pool's target is the starts of `RANDOM_POOL_AHEAD_MINUTES` at that
rate, at least `RANDOM_POOL_SIZE` (every pool, played or not) and at most `RANDOM_POOL_MAX`.
Best effort: with Redis down a start is not counted and every pool's target is its floor.
"""

from __future__ import annotations

import logging
import math
import time

from django.conf import settings
from django.core.cache import cache

from tripeaks.engine.rules import Rules

log = logging.getLogger("tripeaks.deals")

HOUR_S = 3600
# A counter outlives the hour after its own, the last one that reads it.
COUNTER_SECONDS = 2 * HOUR_S + 60


def _counter(rules_key: str, layout: str, hour: int) -> str:
    return f"deal-pool:starts:{rules_key}:{layout}:{hour}"


def count_start(rules: Rules, layout: str, *, now: float | None = None) -> None:
    """One more start asked of this pool."""
    key = _counter(rules.key, layout, int((now or time.time()) // HOUR_S))
    try:
        if not cache.add(key, 1, timeout=COUNTER_SECONDS):
            cache.incr(key)
    except Exception:
        log.warning("could not count a start", extra={"layout": layout}, exc_info=True)


def starts_last_hour(
    pools: list[tuple[str, str]], *, now: float | None = None
) -> dict[tuple[str, str], float]:
    """The estimated starts of the last hour of each (rules key, layout), in one read."""
    moment = now or time.time()
    hour = int(moment // HOUR_S)
    left_of_previous = 1.0 - (moment % HOUR_S) / HOUR_S
    keys = {pool: (_counter(*pool, hour), _counter(*pool, hour - 1)) for pool in pools}
    try:
        counts = cache.get_many([key for pair in keys.values() for key in pair])
    except Exception:
        log.warning("could not read the pools' demand", exc_info=True)
        counts = {}
    return {
        pool: int(counts.get(current, 0)) + int(counts.get(previous, 0)) * left_of_previous
        for pool, (current, previous) in keys.items()
    }


def target(starts_per_hour: float) -> int:
    """The deals a pool should hold when it sees this many starts an hour."""
    floor = settings.RANDOM_POOL_SIZE
    ahead = math.ceil(starts_per_hour * settings.RANDOM_POOL_AHEAD_MINUTES / 60)
    return max(floor, min(ahead, settings.RANDOM_POOL_MAX))


def targets(pools: list[tuple[str, str]]) -> dict[tuple[str, str], int]:
    return {pool: target(starts) for pool, starts in starts_last_hour(pools).items()}
