"""Random pools for every layout x rule set x start, filled ahead by Celery; a start takes a
pooled deal, and a dry pool answers at once (503 pool_empty) and queues its refill: a start
never waits for the solver."""

from __future__ import annotations

from typing import Any

import pytest
from celery.signals import worker_ready
from django.conf import settings as django_settings
from django.db import transaction

from tests.play.helpers import client_for, refills_queued
from tripeaks.engine.layouts import LAYOUTS
from tripeaks.engine.rules import Rules
from tripeaks.engine.solver import solve
from tripeaks.play import deals, solver_guard
from tripeaks.play.models import Deal, Game, Source
from tripeaks.play.tasks import refill_random_pool, refill_random_pools

pytestmark = pytest.mark.django_db


def pooled(**filters: Any) -> Any:
    return Deal.objects.filter(source=Source.RANDOM, claimed=False, **filters)


def test_every_layout_rule_set_and_start_has_a_pool(settings: Any) -> None:
    settings.RANDOM_POOL_LAYOUTS = ["*"]
    assert len(deals.POOL_RULE_SETS) == 8  # wrap x open x start
    assert {rules.start for rules in deals.POOL_RULE_SETS} == {"waste", "empty"}
    shortfalls = deals.pool_shortfalls(3)
    assert len(shortfalls) == 54 * 8 == len(LAYOUTS) * len(deals.POOL_RULE_SETS)
    assert all(item.missing == 3 and item.held == 0 for item in shortfalls)


def test_the_top_up_task_fills_every_pool_with_proven_deals(settings: Any) -> None:
    settings.RANDOM_POOL_LAYOUTS = ["pyramid", "classic"]
    assert refill_random_pools(target=1) == 2 * 8
    assert refill_random_pools(target=1) == 0  # full: nothing to do
    for layout in ("pyramid", "classic"):
        for rules in deals.POOL_RULE_SETS:
            (deal,) = pooled(layout=layout, rules_key=rules.key)
            assert deal.winnable is True
            assert solve(deals.engine_deal(deal), rules).winnable  # dealt for its own start
            assert deals.engine_deal(deal).start == rules.start


def test_the_emptiest_pools_come_first(settings: Any) -> None:
    settings.RANDOM_POOL_LAYOUTS = ["pyramid"]
    refill_random_pool(Rules().key, "pyramid", 2)
    shortfalls = deals.pool_shortfalls(2)
    assert len(shortfalls) == 7 and all(item.rules != Rules() for item in shortfalls)
    assert [item.missing for item in shortfalls] == [2] * 7


def test_a_pool_being_filled_by_one_worker_is_left_to_it() -> None:
    from django.core.cache import cache

    cache.add("deal-pool:filling:wrap-closed:pyramid", 1, timeout=60)
    assert refill_random_pool("wrap-closed", "pyramid", 2) == 0
    assert not pooled(layout="pyramid").exists()


def test_a_worker_that_starts_fills_the_pools(settings: Any) -> None:
    settings.RANDOM_POOL_LAYOUTS = ["pyramid"]
    settings.RANDOM_POOL_SIZE = 1
    worker_ready.send(sender=None)
    assert pooled(layout="pyramid").count() == 8


def test_beat_tops_the_pools_up_every_minute() -> None:
    entry = django_settings.CELERY_BEAT_SCHEDULE["refill-random-pools"]
    assert entry["task"] == "tripeaks.play.tasks.refill_random_pools"
    assert entry["schedule"] <= 60


@pytest.mark.parametrize("start", ["waste", "empty"])
def test_a_random_start_takes_a_pooled_deal(player: Any, start: str) -> None:
    rules = Rules(wrap=False, start=start)  # type: ignore[arg-type]
    refill_random_pool(rules.key, "pyramid", 2)
    ready = set(pooled(layout="pyramid", rules_key=rules.key).values_list("pk", flat=True))
    body = {"mode": "random", "layout": "pyramid", "rules": {"wrap": False, "start": start}}
    response = client_for(player).post("/api/games", body, format="json")
    assert response.status_code == 201, response.content
    game = Game.objects.select_related("deal").get(pk=response.json()["id"])
    assert game.deal.pk in ready and game.deal.claimed
    assert pooled(layout="pyramid", rules_key=rules.key).count() == 1
    assert Deal.objects.filter(source=Source.RANDOM).count() == 2  # nothing solved on the spot


def test_without_a_worker_a_dry_pool_is_filled_where_it_is_asked(player: Any) -> None:
    """The suite runs no worker (QUEUE_SOLVER_TASKS off): the refill runs in-process, as Celery's
    eager mode runs every task, and deals only what it proved within the pool's bounds."""
    body = {"mode": "random", "layout": "classic", "rules": {"wrap": False}}
    response = client_for(player).post("/api/games", body, format="json")
    assert response.status_code == 201, response.content
    deal = Game.objects.select_related("deal").get(pk=response.json()["id"]).deal
    assert deal.winnable is True and deal.claimed
    assert solve(deals.engine_deal(deal), Rules(wrap=False)).winnable


def test_a_dry_pool_answers_at_once_and_queues_its_refill(
    player: Any, broker: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The fault: a dry pool proved a deal in the request (up to 200 ms of solver time and one of
    the service's solver slots), and when that failed the refill asked on commit was dropped with
    the rolled-back start. Now nothing is solved where a player waits."""

    def no_solving(*_: Any, **__: Any) -> Any:
        raise AssertionError("a start must not solve")

    monkeypatch.setattr(deals, "make_random_deal", no_solving)
    monkeypatch.setattr(deals, "solve", no_solving)
    body = {"mode": "random", "layout": "waves", "rules": {"wrap": False}}
    response = client_for(player).post("/api/games", body, format="json")
    assert response.status_code == 503, response.content
    assert response["Retry-After"] == str(deals.POOL_EMPTY_RETRY_AFTER)
    assert response.json()["code"] == "pool_empty"
    assert not Deal.objects.exists() and not Game.objects.exists()
    assert refills_queued() == [repr(("nowrap-closed", "waves"))]
    # Asked again while the refill waits: still one refill queued, and still at once.
    assert client_for(player).post("/api/games", body, format="json").status_code == 503
    assert len(refills_queued()) == 1


def test_a_dry_pool_inside_a_transaction_still_queues_its_refill(broker: None) -> None:
    with pytest.raises(deals.PoolEmpty), transaction.atomic():
        deals.claim_random_deal(Rules(wrap=False), "pyramid")
    assert refills_queued() == [repr(("nowrap-closed", "pyramid"))]


def test_the_dry_pool_message_is_translated(player: Any, broker: None) -> None:
    body = {"mode": "random", "layout": "waves", "rules": {"wrap": True}}
    client = client_for(player)
    english = client.post("/api/games", body, format="json").json()["detail"]
    german = client.post("/api/games", body, format="json", HTTP_ACCEPT_LANGUAGE="de").json()
    assert german["code"] == "pool_empty" and german["detail"] != english


def test_a_start_needs_no_solver_slot(player: Any, broker: None, settings: Any) -> None:
    settings.SOLVER_MAX_CONCURRENT = 1
    body = {"mode": "random", "layout": "classic", "rules": {"wrap": True}}
    with solver_guard.solver_slot(solver_guard.Asker("a hint elsewhere")):
        response = client_for(player).post("/api/games", body, format="json")
        assert response.status_code == 503 and response.json()["code"] == "pool_empty"
        refill_random_pool(Rules().key, "classic", 1)  # a worker's
        response = client_for(player).post("/api/games", body, format="json")
    assert response.status_code == 201
