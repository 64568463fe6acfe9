"""Socket opens over their address's rate across its windows, on a real server
(tripeaks.stack.serve's Uvicorn options, in this process, on loopback, as in
test_front_gate_server.py): a flooding address is let in again after a window with no knock, and
a flood that goes on knocking gets no burst through when a window starts (issue #35). Windows of
a few seconds, turned over by the limiter's clock (`WindowClock`) rather than waited out.
"""

from __future__ import annotations

import time
from typing import Any

import pytest

from tests.foundation.test_front_gate_server import Counted, CountedGate, flood, http_get
from tests.foundation.test_server_limits import serving
from tripeaks.infra import limiter, throttling

pytestmark = pytest.mark.asyncio


class WindowClock:
    """`time` as the limiter and the throttles read it (tripeaks/infra/limiter.py,
    throttling.py): the wall clock, moved on by the test to where the next window of a rate has
    just started (`next_window`). Both read the windows, and what the gate remembers of them,
    from `time.time()` alone, so this is what waiting for the window did (a mean of 9.5 s of
    sleep for the two tests), and the server, Redis and the sockets run as before. Redis's
    counters are keyed by window: a new window's are new keys, as after a wait."""

    def __init__(self) -> None:
        self.ahead = 0.0

    def time(self) -> float:
        return time.time() + self.ahead

    def next_window(self, period: float) -> None:
        """Move on to just after the start of the next `period`-second window."""
        self.ahead += period - self.time() % period + 0.02


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> WindowClock:
    clock = WindowClock()
    monkeypatch.setattr(limiter, "time", clock)
    monkeypatch.setattr(throttling, "time", clock)
    return clock


async def test_a_flooding_address_connects_again_after_a_window_with_no_knock(
    settings: Any, clock: WindowClock
) -> None:
    settings.PLAY_THROTTLE_RATES = {"socket_open_address": "1/3s"}
    settings.FRONT_GATE_FLOOD_REFUSALS = 0  # closed from the first refusal on
    limiter.forget_refusals()
    try:
        async with serving(CountedGate(Counted())) as port:
            clock.next_window(3)  # a window's start: 3 s for the opens
            answers = await flood(port, 3)
            closed = await http_get(port)
            clock.next_window(3)  # the window's end; the next passes with no knock
            clock.next_window(3)
            served = await http_get(port)
    finally:
        limiter.forget_refusals()
    assert answers == ["open", "status 429", "no answer"]
    assert closed is None
    assert served is not None and served.startswith(b"HTTP/1.1 ")


async def test_a_flood_that_goes_on_knocking_gets_no_burst_through_when_a_window_starts(
    settings: Any, clock: WindowClock
) -> None:
    """Closed at connect for flooding, an address that knocks more than FRONT_GATE_FLOOD_REFUSALS
    times in the next window is closed from that window's first connection: none of it reaches
    the gate or the application (before: each window's first opens were served, the next answered
    429). A window with fewer knocks (the flood has stopped; an honest
    page behind the address tries again) lets the address in with the next."""
    settings.PLAY_THROTTLE_RATES = {"socket_open_address": "1/3s"}
    settings.FRONT_GATE_FLOOD_REFUSALS = 2
    limiter.forget_refusals()
    app = Counted()
    CountedGate.calls = 0
    try:
        async with serving(CountedGate(app)) as port:
            clock.next_window(3)
            first = await flood(port, 6)
            calls = (app.calls, CountedGate.calls)
            clock.next_window(3)
            second = await flood(port, 3)  # more than 2 knocks: the next window is closed too
            clock.next_window(3)
            third = await flood(port, 1)  # one knock: the flood has stopped
            unseen = (app.calls, CountedGate.calls) == calls
            clock.next_window(3)
            fourth = await flood(port, 1)
    finally:
        limiter.forget_refusals()
    assert first == ["open"] + ["status 429"] * 2 + ["no answer"] * 3
    assert second == ["no answer"] * 3
    assert third == ["no answer"]
    assert unseen
    assert fourth == ["open"]
