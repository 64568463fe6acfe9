"""The server's clock moved on instead of slept: `django.utils.timezone.now`, which stamps every
start, move, pause and clock stop, run ahead by the waits so far.

A `still` clock also leaves out the real time the work in between takes: the server sees only the
waits (and a microsecond a reading, so that a later reading is still later). Tests whose
assertions are about how little time passed (a clock that gains nothing, a bot's instant moves)
use it: with real time in it, they failed on a machine busy enough that a request took half a
second (load average 25: 593 ms of server work against a 400 ms slack, a "machine-speed" bot
whose moves took 463 ms)."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import datetime, timedelta

import pytest

# What one reading of a still clock moves it on: readings stay strictly ordered.
TICK_S = 1e-6


class ServerClock:
    """`wait(s)` is `sleep(s)` as the server sees it: the work in between still takes its real
    time (unless the clock is `still`), and the suite does not wait for the rest."""

    def __init__(self, real_now: Callable[[], datetime], *, still: bool = False) -> None:
        self.real_now = real_now
        self.ahead = 0.0
        self.still = still
        self._wall, self._mono = real_now(), time.monotonic()

    def _passed(self) -> float:
        """The server's seconds since this clock began, less the waits."""
        if self.still:
            self.ahead += TICK_S
            return 0.0
        return time.monotonic() - self._mono

    def now(self) -> datetime:
        if not self.still:
            return self.real_now() + timedelta(seconds=self.ahead)
        passed = self._passed()
        return self._wall + timedelta(seconds=passed + self.ahead)

    def monotonic(self) -> float:
        passed = self._passed()
        return self._mono + passed + self.ahead

    def wait(self, seconds: float) -> None:
        self.ahead += max(0.0, seconds)


def patch_server_clock(monkeypatch: pytest.MonkeyPatch, *, still: bool = False) -> ServerClock:
    from django.utils import timezone

    server_clock = ServerClock(timezone.now, still=still)
    monkeypatch.setattr(timezone, "now", server_clock.now)
    return server_clock


@contextmanager
def still_server_clock() -> Iterator[ServerClock]:
    """A still server clock while the block runs (a bot's moves at machine speed, whatever the
    machine's load)."""
    with pytest.MonkeyPatch.context() as monkeypatch:
        yield patch_server_clock(monkeypatch, still=True)
