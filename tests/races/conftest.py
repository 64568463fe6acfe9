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
def _a_proven_deal_ready(request: Any) -> None:
    """Proven deals in the default pool, as a running service keeps them (beat tops it up). A
    race that found the pool dry would prove a fresh seed within the request's node budget, and
    an unlucky seed then leaves the race without a deal (a 503, tested on its own)."""
    if request.node.get_closest_marker("django_db") is None:
        return
    request.getfixturevalue("db")
    from tripeaks.engine.rules import Rules
    from tripeaks.play import deals

    deals.refill_pool(Rules(), "classic", 4)


@pytest.fixture
def make_player(db: None) -> Any:
    def make(username: str) -> Any:
        return get_user_model().objects.create_user(
            username=username, password="a long enough password 1"
        )

    return make
