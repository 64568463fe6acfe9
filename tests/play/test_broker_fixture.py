"""tests/play/conftest.py's `broker` fixture: a setup that fails leaves the suite's eager Celery
as it found it (a purge that met a broken Redis connection left it off for the rest of the test
process, and every later test that needs an eager task failed)."""

from __future__ import annotations

from typing import Any

import pytest
from celery import current_app

from tests.play import conftest


class BrokenPool:
    def acquire(self, **_: Any) -> Any:
        raise ConnectionError("Bad response from PING health check")


def test_a_broker_setup_that_fails_leaves_celery_eager(
    settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert current_app.conf.task_always_eager is True
    # The app's pool, as its `pool` property hands it out (restored after the test).
    monkeypatch.setattr(current_app._get_current_object(), "_pool", BrokenPool())
    setup = conftest.broker._get_wrapped_function()(settings)
    with pytest.raises(ConnectionError):
        next(setup)
    assert current_app.conf.task_always_eager is True
