from __future__ import annotations

from typing import Any

import pytest

from tests.factories import UserFactory
from tests.play.conftest import broker  # noqa: F401  (the one real-broker fixture, shared)


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
def worker_here(settings: Any) -> None:
    """As if a worker took the solver's tasks: queued work runs in this process (eager Celery),
    the analysis task registered."""
    import tripeaks.review.tasks  # noqa: F401

    settings.QUEUE_SOLVER_TASKS = True
