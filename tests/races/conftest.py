from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model


@pytest.fixture(autouse=True)
def _short_race_clock(settings: Any) -> None:
    """A countdown short enough to wait for, long enough to attack before the start."""
    settings.RACE_COUNTDOWN_S = 0.6
    settings.RACE_MIN_CAP_S = 1


@pytest.fixture(autouse=True)
def _pool(a_proven_deal_ready: None) -> None:
    """Races deal from the pool (tests/conftest.py)."""


@pytest.fixture
def make_player(db: None) -> Any:
    def make(username: str) -> Any:
        return get_user_model().objects.create_user(
            username=username, password="a long enough password 1"
        )

    return make
