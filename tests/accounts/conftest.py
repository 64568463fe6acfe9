from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from tests.factories import UserFactory


@pytest.fixture
def make_user(db: None) -> Callable[..., Any]:
    def make(username: str | None = None, **fields: Any) -> Any:
        if username is not None:
            fields["username"] = username
        return UserFactory(**fields)

    return make


@pytest.fixture
def smtp(settings: Any) -> Any:
    """A real SMTP server on loopback that Django sends mail to; yields its inbox."""
    from tests.accounts.smtp import start

    inbox, controller = start(settings)
    yield inbox
    controller.stop()
