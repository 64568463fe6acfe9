"""The server's clock moved on instead of slept: `django.utils.timezone.now`, which stamps every
start, move, pause and clock stop, run ahead by the waits so far."""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import datetime, timedelta

import pytest


class ServerClock:
    """`wait(s)` is `sleep(s)` as the server sees it: the work in between still takes its real
    time, and the suite does not wait for the rest."""

    def __init__(self, real_now: Callable[[], datetime]) -> None:
        self.real_now = real_now
        self.ahead = 0.0

    def now(self) -> datetime:
        return self.real_now() + timedelta(seconds=self.ahead)

    def monotonic(self) -> float:
        return time.monotonic() + self.ahead

    def wait(self, seconds: float) -> None:
        self.ahead += max(0.0, seconds)


def patch_server_clock(monkeypatch: pytest.MonkeyPatch) -> ServerClock:
    from django.utils import timezone

    server_clock = ServerClock(timezone.now)
    monkeypatch.setattr(timezone, "now", server_clock.now)
    return server_clock
