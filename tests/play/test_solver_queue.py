"""Celery keeps up: mail and contest clocks never queue behind the solver, and the solver's queue
is bounded (one task a pool, a capped number of deals' verdicts), against the real Redis broker."""

from __future__ import annotations

from typing import Any

import pytest
from celery import current_app
from django.core.cache import cache

from tripeaks.engine.rules import Rules
from tripeaks.play import deals, solver_queue
from tripeaks.play.tasks import refill_random_pools, solve_deal

pytestmark = pytest.mark.django_db

CLASSIC = Rules.from_key("wrap-closed")


def queue_of(task: str) -> str:
    route = current_app.amqp.router.route({}, task)
    return str(route["queue"].name)


@pytest.mark.parametrize(
    "task",
    [
        "accounts.tasks.send_verification_mail",
        "accounts.tasks.send_password_reset_mail",
        "tripeaks.races.tasks.advance_race",
        "tripeaks.races.tasks.end_race_games",
        "tripeaks.arenas.tasks.tick_arenas",
    ],
)
def test_mail_and_the_contests_clocks_have_the_urgent_queue(task: str) -> None:
    assert queue_of(task) == "urgent"


@pytest.mark.parametrize(
    "task", ["tripeaks.play.tasks.refill_random_pool", "tripeaks.play.tasks.solve_deal"]
)
def test_solver_work_has_a_queue_of_its_own(task: str) -> None:
    assert queue_of(task) == "solver"


def test_the_daily_deals_do_not_wait_behind_the_pools() -> None:
    assert queue_of("tripeaks.play.tasks.precompute_daily_deals") == "celery"


def custom_deals(count: int) -> list[int]:
    """Deals whose verdict nobody has asked for yet (numbered deals are made without one)."""
    return [deals.numbered_deal(number, CLASSIC).pk for number in range(1, count + 1)]


def test_a_deals_verdict_is_asked_once_while_it_waits(broker: None) -> None:
    (deal_id,) = custom_deals(1)
    assert solver_queue.queue_verdict(deal_id) is True
    assert solver_queue.queue_verdict(deal_id) is False
    assert solver_queue.backlog() == 1


def test_a_verdict_may_be_asked_again_once_its_task_began(broker: None) -> None:
    (deal_id,) = custom_deals(1)
    assert solver_queue.queue_verdict(deal_id) is True
    solve_deal(deal_id)  # as a worker runs it
    assert solver_queue.queue_verdict(deal_id) is True
    assert solver_queue.backlog() == 2


def test_the_solver_queue_holds_at_most_its_bound_of_verdicts(broker: None, settings: Any) -> None:
    settings.SOLVER_QUEUE_MAX = 3
    asked = [solver_queue.queue_verdict(deal_id) for deal_id in custom_deals(8)]
    assert asked == [True] * 3 + [False] * 5
    assert solver_queue.backlog() == 3


def test_beat_asking_again_and_again_queues_one_top_up_a_pool(broker: None, settings: Any) -> None:
    """The fault: a pool's 'asked' mark lasted 5 minutes, less than the queue's wait on a busy
    machine, so every beat round after that queued every short pool again (917 -> 2,066 tasks
    in an hour). Now it lasts until its task begins (or an hour, for a lost message)."""
    layouts = ["classic", "pyramid"]
    settings.RANDOM_POOL_LAYOUTS = layouts
    keys = [
        solver_queue.pool_key(rules, name) for rules in deals.POOL_RULE_SETS for name in layouts
    ]
    cache.delete_many(keys)
    try:
        for _ in range(3):
            refill_random_pools(target=1)
        assert solver_queue.backlog() == len(keys)
    finally:
        cache.delete_many(keys)


def test_a_process_that_never_imported_the_tasks_queues_them_by_name(
    broker: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The fault: asked through the task registry, a web process (which loads no tasks module)
    raised NotRegistered, and no refill was ever queued from a start."""
    monkeypatch.delitem(current_app.tasks, solver_queue.REFILL_TASK)
    monkeypatch.delitem(current_app.tasks, solver_queue.VERDICT_TASK)
    assert solver_queue.queue_pool_refill(CLASSIC, "pyramid") is True
    (deal_id,) = custom_deals(1)
    assert solver_queue.queue_verdict(deal_id) is True
    assert solver_queue.backlog() == 2
