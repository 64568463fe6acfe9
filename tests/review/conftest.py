from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from celery import current_app

from tests.factories import UserFactory


@pytest.fixture
def alice(db: None) -> Any:
    return UserFactory(username="alice")


@pytest.fixture
def bob(db: None) -> Any:
    return UserFactory(username="bob")


@pytest.fixture
def carol(db: None) -> Any:
    return UserFactory(username="carol")


@pytest.fixture
def broker(settings: Any) -> Iterator[None]:
    """Tasks go to the real broker (the suite runs them in-process otherwise), the solver queue
    empty before and after (this test process's own Redis database)."""
    from tripeaks.play import solver_queue

    settings.QUEUE_SOLVER_TASKS = True
    eager = current_app.conf.task_always_eager
    current_app.conf.task_always_eager = False

    def purge() -> None:
        with current_app.pool.acquire(block=True) as connection:
            connection.default_channel.client.delete(solver_queue.SOLVER_QUEUE)

    purge()
    try:
        yield
    finally:
        current_app.conf.task_always_eager = eager
        purge()


@pytest.fixture
def worker_here(settings: Any) -> None:
    """As if a worker took the solver's tasks: queued work runs in this process (eager Celery),
    the analysis task registered."""
    import tripeaks.review.tasks  # noqa: F401

    settings.QUEUE_SOLVER_TASKS = True
