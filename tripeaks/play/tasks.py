"""Celery tasks that precompute deals. Idempotent: running one twice makes nothing twice."""

from __future__ import annotations

import logging
from datetime import timedelta

from celery import shared_task
from celery.signals import worker_ready
from django.conf import settings

from tripeaks.engine.rules import CLASSIC_RULE_SETS, Rules
from tripeaks.play import clock_sweep, deals, solver_queue
from tripeaks.play.dealday import deal_day
from tripeaks.play.models import Deal

DAYS_AHEAD = 7
log = logging.getLogger("tripeaks.tasks")


@shared_task(acks_late=True)
def precompute_daily_deals(days_ahead: int = DAYS_AHEAD) -> int:
    """Today's and the next days' deals for every classic rule set; returns how many deals exist."""
    today = deal_day()
    made = 0
    for offset in range(days_ahead + 1):
        for rules in CLASSIC_RULE_SETS:
            deals.daily_deal(today + timedelta(days=offset), rules)
            made += 1
    return made


# A pool task works at most this long, then leaves the rest to the next round (beat, every
# minute): no task comes near the time limit, and the emptiest pools are served first.
POOL_TASK_SECONDS = 60


@shared_task(acks_late=True)
def refill_random_pools(target: int | None = None) -> int:
    """Top up every random pool (each layout x rule set x start, `deals.POOL_RULE_SETS`) to its
    target (`target` for all if given, else each pool's own from its demand: pool_demand): one
    task per pool short of it, the least full first. Returns how many deals were missing.
    Scheduled by beat, and run when a worker starts.

    While some pools are empty (a fresh deployment) only they are asked for, for one deal each:
    filling one pool of a hard layout to its target is minutes of solving, and every other pool
    would wait for it, empty (on 2 cores, 118 of 432 pools still had none after 34 minutes;
    asked this way, all had one after 7.3: docs/operations.md)."""
    shortfalls = deals.pool_shortfalls(target)
    empty = [item for item in shortfalls if item.held == 0]
    for item in shortfalls:
        if not settings.QUEUE_SOLVER_TASKS:  # no worker (the test suite): right here
            size = target or deals.pool_target(item.rules, item.layout)
            deals.refill_pool(item.rules, item.layout, size)
    if settings.QUEUE_SOLVER_TASKS:
        for item in empty or shortfalls:
            solver_queue.queue_pool_refill(item.rules, item.layout, 1 if empty else None)
    return sum(item.missing for item in shortfalls)


# The hard limit stops a task whose solver ran past its own bounds (POOL_TASK_SECONDS, node
# budgets): its child is replaced, the message dropped, and beat asks for the pool again.
@shared_task(acks_late=True, time_limit=POOL_TASK_SECONDS * 3)
def refill_random_pool(rules_key: str, layout: str, target: int | None = None) -> int:
    """Top one pool up to `target`, or to its own target from its demand."""
    rules = Rules.from_key(rules_key)
    size = target if target is not None else deals.pool_target(rules, layout)
    return deals.refill_pool(rules, layout, size, seconds=POOL_TASK_SECONDS)


@shared_task(acks_late=True)
def fill_deal_digests() -> int:
    """The card digests of deals made before they existed (idempotent: none left, one query)."""
    return deals.fill_missing_digests()


@worker_ready.connect
def _fill_pools_when_a_worker_starts(**_: object) -> None:
    """A fresh deployment has empty pools: start filling them now, not at beat's next round.
    An upgraded one may have deals without their digests (play 0005): they get them now, so that
    a custom copy of an older ranking deal is refused without anyone running a command."""
    try:
        refill_random_pools.delay()
        fill_deal_digests.delay()
    except Exception:  # beat asks again
        log.warning("could not queue the work of a worker's start", exc_info=True)


@shared_task(acks_late=True, time_limit=POOL_TASK_SECONDS * 3)
def solve_deal(deal_id: int) -> bool | None:
    solver_queue.begun(solver_queue.verdict_key(deal_id))
    deal = Deal.objects.filter(pk=deal_id).first()
    return None if deal is None else deals.record_verdict(deal).winnable


@shared_task(acks_late=True, time_limit=60)
def sweep_lapsed_clocks() -> int:
    """Stop the clocks whose server died with their socket open (play/clock_sweep.py): beat,
    every two heartbeats. Idle, one Redis command and no query."""
    return clock_sweep.sweep_lapsed_clocks()


@shared_task(acks_late=True)
def send_deferred_asks() -> int:
    """Send the solver work hot paths deferred (`solver_queue.defer_once`: a game's finish asking
    for its analysis); asked by the first such ask, and by beat for one a lost message left."""
    return solver_queue.send_deferred()
