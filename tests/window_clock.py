"""The rate windows' clock, moved on by a test where it would wait for a window to turn over
(`WindowClock`)."""

from __future__ import annotations

import time

import pytest

from tripeaks.infra import limiter, throttle_async, throttling


class WindowClock:
    """`time` as the modules that place counts in windows read it (the limiter, the throttles,
    the sockets' frame throttle): the wall clock, moved on by the test (`next_window`, `wait`).
    They read the windows, and what the process remembers of them, from `time.time()` alone, so
    a move is what waiting did, and the server, Redis and the sockets run as before. Redis's
    counters are keyed by window: a new window's are new keys, as after a wait."""

    def __init__(self) -> None:
        self.ahead = 0.0

    def time(self) -> float:
        return time.time() + self.ahead

    def wait(self, seconds: float) -> None:
        self.ahead += seconds

    def next_window(self, period: float) -> None:
        """Move on to just after the start of the next `period`-second window."""
        self.wait(period - self.time() % period + 0.02)

    def clear_of_the_end(self, period: float, margin: float) -> None:
        """At least `margin` seconds of the current `period`-second window left: if fewer
        are, the next window's start (a test's counts in one window, not straddling two)."""
        if period - self.time() % period < margin:
            self.next_window(period)

    def install(self, monkeypatch: pytest.MonkeyPatch) -> WindowClock:
        for module in (limiter, throttling, throttle_async):
            monkeypatch.setattr(module, "time", self)
        return self
