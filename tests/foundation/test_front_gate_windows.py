"""Socket opens over their address's rate across its windows, on a real server
(tripeaks.stack.serve's Uvicorn options, in this process, on loopback, as in
test_front_gate_server.py): a flooding address is let in again after a window with no knock, and
a flood that goes on knocking gets no burst through when a window starts (issue #35). Windows of
a few seconds, turned over by their clock (tests/window_clock.py) rather than waited out.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.foundation.test_front_gate_server import Counted, CountedGate, flood, http_get
from tests.foundation.test_server_limits import serving
from tests.window_clock import WindowClock
from tripeaks.infra import limiter

pytestmark = pytest.mark.asyncio


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> WindowClock:
    return WindowClock().install(monkeypatch)


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
