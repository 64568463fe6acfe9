from __future__ import annotations

import pytest
from django.test import override_settings

from tripeaks.engine.rules import CLASSIC_RULE_SETS, Rules
from tripeaks.engine.solver import solve
from tripeaks.play import deals
from tripeaks.play.models import Deal, Source
from tripeaks.play.tasks import precompute_daily_deals, refill_random_pools

pytestmark = pytest.mark.django_db


def test_precomputing_daily_deals_twice_makes_each_deal_once() -> None:
    assert precompute_daily_deals(days_ahead=1) == 2 * len(CLASSIC_RULE_SETS)
    codes = set(Deal.objects.filter(source=Source.DAILY).values_list("code", flat=True))
    precompute_daily_deals(days_ahead=1)
    assert Deal.objects.filter(source=Source.DAILY).count() == 2 * len(CLASSIC_RULE_SETS)
    assert set(Deal.objects.filter(source=Source.DAILY).values_list("code", flat=True)) == codes
    assert all(Deal.objects.filter(source=Source.DAILY).values_list("winnable", flat=True))


@override_settings(RANDOM_POOL_LAYOUTS=["classic"])
def test_the_random_pool_is_topped_up_and_claimed_deals_leave_it() -> None:
    assert refill_random_pools(target=2) == 2 * len(deals.POOL_RULE_SETS)
    assert refill_random_pools(target=2) == 0
    rules = Rules()
    pooled = set(
        Deal.objects.filter(source=Source.RANDOM, rules_key=rules.key).values_list("pk", flat=True)
    )
    claimed = deals.claim_random_deal(rules, "classic")
    assert claimed.pk in pooled and claimed.claimed
    assert (
        Deal.objects.filter(source=Source.RANDOM, rules_key=rules.key, claimed=False).count() == 1
    )


def test_an_empty_pool_without_a_worker_is_filled_in_process() -> None:
    # The suite runs no worker: the refill runs where it is asked (with a worker, a dry pool
    # answers 503 pool_empty at once: test_deal_pools).
    assert not Deal.objects.exists()
    deal = deals.claim_random_deal(Rules(wrap=False), "classic")
    assert deal.winnable is True and deal.claimed
    # Proven within the pool's bounds, and truly winnable.
    assert solve(deals.engine_deal(deal), Rules(wrap=False)).winnable


def test_seeds_come_from_the_secret() -> None:
    with override_settings(DEAL_SECRET=b"one"):
        first = deals.secret_seed("numbered", "classic", "wrap-closed", 1)
    with override_settings(DEAL_SECRET=b"two"):
        second = deals.secret_seed("numbered", "classic", "wrap-closed", 1)
    assert first != second and 0 <= first < 2**63
