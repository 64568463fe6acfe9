from __future__ import annotations

from typing import Any

import pytest

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
