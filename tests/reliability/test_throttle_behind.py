"""A socket's frames are counted behind them (tripeaks/infra/limiter.py, `count_behind`): an
admitted frame waits for no Redis call, its count goes with the loop's next one, and the limit
holds: one process never lets more through than it, and a window Redis finds over (counted by
other processes too) refuses from its answer on."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from django.core.cache import cache

from tests.window_clock import WindowClock
from tripeaks.infra import limiter, throttle_async, throttling

pytestmark = pytest.mark.asyncio

# The rates here are a minute's, in windows that turn with the clock's minute: a test whose counts
# straddled one was counted afresh after it (the window over at 5 counts, then a new one that let
# the next frame through: make test on 5c3690c, the window 1 s from its end at the test's start).
MINUTE = 60


@pytest.fixture(autouse=True)
def clear_of_the_minutes_end(monkeypatch: pytest.MonkeyPatch) -> None:
    """At least 10 s of the current minute's window left (a test here takes well under one): the
    windows' clock moved on to the next minute's start when fewer are (tests/window_clock.py),
    where the test slept up to 10 s for it."""
    WindowClock().install(monkeypatch).clear_of_the_end(MINUTE, 10)


async def _counted() -> None:
    """Until the loop's counts sent behind their frames have had Redis's answer."""
    counter = limiter._counters.get()
    while counter._behind or not (counter._counting is None or counter._counting.done()):
        if counter._counting is None or counter._counting.done():
            await asyncio.sleep(limiter.BEHIND_S)  # the call is timed: until it starts
        else:
            await counter._counting


def _count_of(window: limiter.Window) -> int:
    return int(cache.get(window.key) or 0)


async def test_an_admitted_frame_waits_for_no_redis_call(settings: Any) -> None:
    settings.PLAY_THROTTLE_RATES = {"move": "20/min", "move_address": "45/min"}
    limits = throttling.play_limits("move", user_id="behind-a", address="10.8.8.8")
    guard = throttle_async.FloodGuard(50)
    admitting = guard.admit(object(), limits)  # type: ignore[arg-type]
    # The coroutine ends at its first step: nothing it awaits suspends it (no round trip).
    with pytest.raises(StopIteration) as admitted:
        admitting.send(None)
    assert admitted.value.value is True
    windows = throttling.windows_of(limits)
    assert [_count_of(w) for w in windows] == [0, 0]  # not counted yet...
    await _counted()
    assert [_count_of(w) for w in windows] == [1, 1]  # ...but once the loop has run its call


async def test_one_process_lets_no_more_through_than_the_limit(settings: Any) -> None:
    settings.PLAY_THROTTLE_RATES = {"move": "5/min", "move_address": None}
    windows = throttling.windows_of(
        throttling.play_limits("move", user_id="behind-b", address=None)
    )
    waits = [limiter.count_behind(windows) for _ in range(8)]  # faster than any answer
    assert waits[:5] == [None] * 5
    assert all(wait is not None and 1 <= wait <= 60 for wait in waits[5:])
    await _counted()
    assert _count_of(windows[0]) == 5  # a refused frame is not counted: the window is over
    assert limiter.count_behind(windows) is not None


async def test_a_window_redis_finds_over_refuses_from_its_answer_on(settings: Any) -> None:
    settings.PLAY_THROTTLE_RATES = {"move": "3/min", "move_address": None}
    windows = throttling.windows_of(
        throttling.play_limits("move", user_id="behind-c", address=None)
    )
    # Another process (the REST side here) has used the window up.
    for _ in range(3):
        assert await asyncio.to_thread(limiter.count, windows) is None
    # This process does not know yet: the frame goes through (the stated bound: the frames
    # between Redis counting the window over and this process hearing so)...
    assert limiter.count_behind(windows) is None
    await _counted()
    assert _count_of(windows[0]) == 4
    # ...and from the answer on, the window refuses without asking Redis.
    wait = limiter.count_behind(windows)
    assert wait is not None and 1 <= wait <= 60
    await _counted()
    assert _count_of(windows[0]) == 4


async def test_a_cache_outage_lets_frames_through(
    settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings.PLAY_THROTTLE_RATES = {"move": "1/min", "move_address": None}
    windows = throttling.windows_of(
        throttling.play_limits("move", user_id="behind-d", address=None)
    )
    counter = limiter._counters.get()

    async def unreachable(**_: object) -> list[int]:
        raise ConnectionError("Redis is down")

    monkeypatch.setattr(counter, "_script", unreachable)
    for _ in range(3):  # over the limit of 1, each after the outage was found
        assert limiter.count_behind(windows) is None
        await _counted()
    assert _count_of(windows[0]) == 0


async def test_a_windows_frames_between_calls_are_one_count_of_many(settings: Any) -> None:
    """A flood's frames between two calls cost one key in one call, not a key each: the call
    stays small however fast they come."""
    settings.PLAY_THROTTLE_RATES = {"move": "100000/min", "move_address": None}
    windows = throttling.windows_of(
        throttling.play_limits("move", user_id="behind-e", address=None)
    )
    counter = limiter._counters.get()
    calls = counter.calls
    assert all(limiter.count_behind(windows) is None for _ in range(1000))
    assert len(counter._behind) == 1
    await _counted()
    assert counter.calls == calls + 1
    assert _count_of(windows[0]) == 1000


async def test_a_frames_one_pass_count_is_the_check_then_the_send() -> None:
    """`take` (a frame's count in one pass over its windows) answers and counts as `wait` and
    then `send` did, frame by frame, through a window reaching its limit, another known over by
    Redis, and their ends."""
    now = 1_000.0
    windows = [
        limiter.Window("a:1", 3, 60, 20, now + 20),
        limiter.Window("b:1", 5, 60, 40, now + 40),
    ]
    one, two = limiter._Refusals(), limiter._Refusals()
    answers: list[tuple[int | None, int | None]] = []
    for step in range(12):
        at = now + step * 3
        if step == 8:  # Redis says the second window is over (other processes counted it)
            one.note(windows[1:], [6], at)
            two.note(windows[1:], [6], at)
        taken = one.take(windows, at)
        waited = two.wait(windows, at)
        if waited is None:
            two.send(windows, at)
        answers.append((taken, waited))
    assert [taken for taken, _ in answers] == [waited for _, waited in answers]
    # Over at its limit, until it ends.
    assert [taken for taken, _ in answers][:4] == [None, None, None, 11]
    assert one._sent == two._sent and one._ends == two._ends
