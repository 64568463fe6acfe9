from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from tests.play.helpers import client_for


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
