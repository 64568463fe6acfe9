from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from celery import current_app
from django.contrib.auth import get_user_model
from django.core.cache import cache
from rest_framework.test import APIClient

from tests.play.helpers import client_for
from tripeaks.play import solver_queue


@pytest.fixture
def make_player(db: None) -> Any:
    def make(username: str = "alice") -> Any:
        return get_user_model().objects.create_user(
            username=username, password="a long enough password 1"
        )

    return make


@pytest.fixture
def player(make_player: Any) -> Any:
    return make_player("alice")


@pytest.fixture
def api(player: Any) -> APIClient:
    return client_for(player)


@pytest.fixture
def broker(settings: Any) -> Iterator[None]:
    """Tasks go to the real broker (the suite runs them in-process otherwise), its solver queue
    empty before and after. Eager Celery is switched off only once the queue is emptied: a purge
    that failed at setup left it off, and every later test of the process that needs an eager
    task failed with it (mail, verdicts, analyses, race finishes: 24 tests of one run)."""
    settings.QUEUE_SOLVER_TASKS = True

    def purge() -> None:
        with current_app.pool.acquire(block=True) as connection:
            # (and the default queue's drains of deferred asks: solver_queue.defer_once)
            connection.default_channel.client.delete(
                solver_queue.SOLVER_QUEUE, settings.CELERY_TASK_DEFAULT_QUEUE
            )

    purge()
    cache.delete_many([solver_queue.verdict_key(n) for n in range(1, 20)])
    eager = current_app.conf.task_always_eager
    current_app.conf.task_always_eager = False
    try:
        yield
    finally:
        current_app.conf.task_always_eager = eager
        purge()
