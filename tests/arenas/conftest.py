from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model


@pytest.fixture(autouse=True)
def _pool(a_proven_deal_ready: None) -> None:
    """Arena games deal from the pool (tests/conftest.py)."""


@pytest.fixture
def make_player(db: None) -> Any:
    def make(username: str = "alice") -> Any:
        return get_user_model().objects.create_user(
            username=username, password="a long enough password 1"
        )

    return make
