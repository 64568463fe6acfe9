from __future__ import annotations

from typing import Any

import pytest


@pytest.fixture
def smtp(settings: Any) -> Any:
    """A real SMTP server on loopback that Django sends mail to; yields its inbox."""
    from tests.accounts.smtp import start

    inbox, controller = start(settings)
    yield inbox
    controller.stop()
