"""The tests' server clock (tests/play/server_clock.py): a `still` one passes only by the waits,
however long the work in between really takes (a busy machine), and its readings stay in order."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from tests.play.server_clock import ServerClock


class RealTime:
    """The machine's clock, moved by hand: a second of work per step."""

    def __init__(self) -> None:
        self.at = datetime(2026, 1, 1, tzinfo=UTC)

    def now(self) -> datetime:
        return self.at

    def work(self, seconds: float) -> None:
        self.at += timedelta(seconds=seconds)


def test_a_still_clock_counts_the_waits_and_not_the_work() -> None:
    real = RealTime()
    clock = ServerClock(real.now, still=True)
    first = clock.now()
    real.work(3)  # a request that took 3 s on a loaded machine
    second = clock.now()
    assert timedelta(0) < second - first < timedelta(milliseconds=1)
    clock.wait(20)
    real.work(3)
    third = clock.now()
    assert timedelta(seconds=20) < third - second < timedelta(seconds=20, milliseconds=1)


def test_a_still_clocks_monotonic_time_is_its_waits() -> None:
    clock = ServerClock(RealTime().now, still=True)
    began = clock.monotonic()
    clock.wait(0.175)
    assert 0.175 < clock.monotonic() - began < 0.176


def test_a_running_clock_still_counts_the_work_and_the_waits() -> None:
    real = RealTime()
    clock = ServerClock(real.now)
    first = clock.now()
    real.work(3)
    clock.wait(20)
    assert clock.now() - first == timedelta(seconds=23)
