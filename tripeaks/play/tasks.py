"""Celery tasks that precompute deals. Idempotent: running one twice makes nothing twice."""

from __future__ import annotations

from datetime import timedelta

from celery import shared_task
from django.conf import settings

from tripeaks.dealday import deal_day
from tripeaks.engine.rules import CLASSIC_RULE_SETS
from tripeaks.play import deals
from tripeaks.play.models import Deal

DAYS_AHEAD = 7


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


@shared_task(acks_late=True)
def refill_random_pools(target: int | None = None) -> int:
    """Keep a pool of solver-proven random deals per classic rule set (and configured layouts)."""
    size = target if target is not None else settings.RANDOM_POOL_SIZE
    added = 0
    for layout in settings.RANDOM_POOL_LAYOUTS:
        for rules in CLASSIC_RULE_SETS:
            added += deals.refill_pool(rules, layout, size)
    return added


@shared_task(acks_late=True)
def solve_deal(deal_id: int) -> bool | None:
    deal = Deal.objects.filter(pk=deal_id).first()
    return None if deal is None else deals.record_verdict(deal).winnable
