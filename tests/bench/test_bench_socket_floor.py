"""bench/socket_floor.py at a tiny size (tests/bench/runs.py): the three echoes, each in a server
of its own, every frame sent back through its consumer."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from channels.testing import WebsocketCommunicator

from bench.echo_server import channels_application, direct_application
from tests.bench.runs import TINY, run_bench
from tests.ports import free_port


@pytest.mark.slow
def test_socket_floor(private_redis: str) -> None:
    out = run_bench(
        [*TINY["socket_floor.py"], "--port", str(free_port())], BENCH_REDIS_URL=private_redis
    )
    echoed = re.findall(r"round 1, (\w+) echo, 2 sockets: (\d+) messages, ([\d.]+) ms", out)
    assert [app for app, _, _ in echoed] == ["bare", "direct", "channels"], out
    assert all(int(messages) > 0 for _, messages, _ in echoed), out
    for app in ("direct", "channels"):
        assert re.search(rf"{app} echo vs the bare echo, median of 1 rounds: ([\d.]+|nan)x", out)


def test_socket_floor_refuses_sizes_out_of_range() -> None:
    with pytest.raises(AssertionError, match="sockets 1-1000"):
        run_bench(["-m", "bench.socket_floor", "--sockets", "5000"])


@pytest.mark.asyncio
@pytest.mark.parametrize(
    "make",
    [
        direct_application,
        # Channels' consumer closes the sync thread's stale database connections at every message
        # (the cost the bench shows): that thread may hold one from an earlier test.
        pytest.param(channels_application, marks=pytest.mark.django_db),
    ],
)
async def test_each_consumer_sends_a_frame_back_as_it_came(make: Callable[[], Any]) -> None:
    socket = WebsocketCommunicator(make(), "/")
    connected, _ = await socket.connect()
    assert connected
    for frame in ('{"seq": 3, "action": "draw"}', "ü" * 100):
        await socket.send_to(text_data=frame)
        assert await socket.receive_from() == frame
    await socket.disconnect()
