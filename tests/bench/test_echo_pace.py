"""bench/play_load.py's echo at the players' pace: a paced socket keeps its pace and never waits past
the end of its run (a pace of one frame a minute, from a run where the players barely moved, kept
the echo waiting a minute past its 15 s)."""

from __future__ import annotations

import asyncio
import json
import time

import pytest

from bench.play_load import Tally, echo_player

pytestmark = pytest.mark.asyncio


class _Echo:
    """A socket whose echo comes back at once, counting the frames sent."""

    def __init__(self) -> None:
        self.sent: list[str] = []

    async def send(self, frame: str) -> None:
        self.sent.append(frame)

    async def recv(self) -> str:
        return json.dumps({"seq": len(self.sent) - 1})


async def test_a_paced_socket_stops_waiting_when_its_run_ends() -> None:
    tally = Tally()
    echo = _Echo()
    # A frame every 10 minutes in a run of a tenth of a second: the hang detector is the timeout.
    async with asyncio.timeout(30):
        await echo_player(echo, time.monotonic() + 0.1, tally, seed=1, interval=600.0)
    assert len(echo.sent) <= 1


async def test_a_paced_socket_sends_at_its_pace_not_at_once() -> None:
    tally = Tally()
    echo = _Echo()
    async with asyncio.timeout(30):
        await echo_player(echo, time.monotonic() + 0.3, tally, seed=1, interval=0.1)
    # At no pause the same loop sends thousands of frames in 0.3 s.
    assert 1 <= len(echo.sent) <= 5, len(echo.sent)
