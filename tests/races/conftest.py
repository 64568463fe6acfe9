from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model


@pytest.fixture(autouse=True)
def _short_race_clock(settings: Any) -> None:
    """A countdown short enough to wait for, long enough to attack before the start."""
    settings.RACE_COUNTDOWN_S = 0.6
    settings.RACE_MIN_CAP_S = 1


@pytest.fixture
def quick_countdown(settings: Any) -> None:
    """For the files whose races only need to be running (`begun`) before anything of theirs
    happens: nothing is done in the countdown there, and waiting out the 0.6 s above was a third
    of test_race_endings.py's time and 8 s of test_rating_farming.py's (14 races)."""
    settings.RACE_COUNTDOWN_S = 0.05


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
