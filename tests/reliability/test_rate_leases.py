"""The sockets' frames spend their rates' tokens by leases (tripeaks/infra/rate_leases.py): a Redis
call for a few frames of a window, not one a frame; never more than the limit granted in a window
across processes; all of a frame's windows or none; a refusal's wait and the flood close as the
limiter's counts give them."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Iterator
from typing import Any

import orjson
import pytest
from django.core.cache import cache

from tests.ports import free_port
from tripeaks.infra import limiter, rate_leases, redis_client, throttle_async, throttling

pytestmark = pytest.mark.asyncio

HOUR = 3600


@pytest.fixture(autouse=True)
def clear_of_the_hours_end() -> Iterator[None]:
    """The rates here are an hour's: a test begins with at least 30 s of the hour's window left."""
    left = HOUR - time.time() % HOUR
    if left < 30:
        time.sleep(left + 0.05)
    yield


class Socket:
    """What the flood guard sends a refused socket: its frames and its close code."""

    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []
        self.closed: int | None = None

    async def send(self, text_data: str) -> None:
        self.sent.append(orjson.loads(text_data))

    async def close(self, code: int) -> None:
        self.closed = code


def count_script_calls(monkeypatch: pytest.MonkeyPatch, marker: str) -> list[int]:
    """The running loop's Redis client's script calls with a key holding `marker`, counted."""
    client = redis_client.async_client()
    evalsha, calls = client.evalsha, []

    async def counted(sha: str, numkeys: int, *keys_and_args: Any) -> Any:
        if any(marker in str(key) for key in keys_and_args[:numkeys]):
            calls.append(numkeys)
        return await evalsha(sha, numkeys, *keys_and_args)

    monkeypatch.setattr(client, "evalsha", counted)
    return calls


async def test_a_burst_of_frames_makes_a_redis_call_a_lease_not_one_a_frame(
    settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings.PLAY_THROTTLE_RATES = {"move": "20/hour", "move_address": "100/hour"}
    limits = throttling.play_limits("move", user_id="lease-burst", address="10.77.0.1")
    calls = count_script_calls(monkeypatch, "lease-burst")
    guard, socket = throttle_async.FloodGuard(3), Socket()
    admitted = [await guard.admit(socket, limits) for _ in range(20)]
    assert all(admitted)
    # 20 frames, the player's lease 5 tokens (a quarter of 20), the address's topped up with it.
    assert rate_leases.lease_size(20) == 5 and len(calls) == 4
    # The 21st finds the player's window dry (one call), and the rest are refused without a call,
    # each with the window's wait, until more than 3 in a row close the socket.
    longest = throttling.windows_of(limits)[0].left
    refused = [await guard.admit(socket, limits) for _ in range(4)]
    assert refused == [False] * 4 and len(calls) == 5
    shortest = throttling.windows_of(limits)[0].left
    assert [shortest <= frame["retry_after"] <= longest for frame in socket.sent] == [True] * 3
    assert socket.closed == throttle_async.CLOSE_FLOOD
    # The counter holds the tokens granted, not the frames refused: REST's next count is over.
    assert await asyncio.to_thread(throttling.check, limits[:1]) is not None
    key = cache.make_key(throttling.windows_of(limits)[0].key)
    assert int(redis_client.client().get(key) or 0) == 21  # 20 granted, REST's one


async def test_frames_of_one_player_do_not_spend_the_address_when_refused(settings: Any) -> None:
    settings.PLAY_THROTTLE_RATES = {"move": "20/hour", "move_address": "30/hour"}
    flooder = throttling.play_limits("move", user_id="lease-flooder", address="10.77.0.2")
    other = throttling.play_limits("move", user_id="lease-other", address="10.77.0.2")
    guard = throttle_async.FloodGuard(1000)
    flooded = [await guard.admit(Socket(), flooder) for _ in range(40)]
    played = [await guard.admit(Socket(), other) for _ in range(40)]
    # The flooder's 20 frames over its own rate took no token of the address's: its 20 admitted
    # and the other player's 10 are the address's 30.
    assert (sum(flooded), sum(played)) == (20, 10)


def burst_in_a_process(windows: list[limiter.Window], frames: int, start: threading.Barrier) -> int:
    """A server process of its own (an event loop, its Redis client and leases): `frames` frames
    one after the other, the number admitted."""

    async def burst() -> int:
        start.wait()
        return sum([await rate_leases.spend_async(windows) is None for _ in range(frames)])

    return asyncio.run(burst())


async def test_processes_together_never_get_more_than_the_limit(settings: Any) -> None:
    player = limiter.window("move:ulease-procs", 20, HOUR)
    address = limiter.window("move_address:10.77.0.3", 100, HOUR)
    start, admitted = threading.Barrier(3), []

    def run() -> None:
        admitted.append(burst_in_a_process([player, address], 30, start))

    processes = [threading.Thread(target=run) for _ in range(3)]
    for process in processes:
        process.start()
    for process in processes:
        process.join()
    # Each process spends every token it was granted before it finds the window dry: together
    # exactly the limit, and the counter holds only those.
    assert sum(admitted) == 20
    assert int(redis_client.client().get(cache.make_key(player.key)) or 0) == 20
    # A refusal's wait is the limiter's: the window's.
    assert await rate_leases.spend_async([player, address]) == player.left
    assert await limiter.count_async([player, address]) == player.left


async def test_frames_go_through_while_redis_cannot_be_reached(settings: Any) -> None:
    settings.REDIS_URL = f"redis://127.0.0.1:{free_port()}/0"  # nothing listens there
    settings.PLAY_THROTTLE_RATES = {"move": "2/hour", "move_address": "2/hour"}
    limits = throttling.play_limits("move", user_id="lease-outage", address="10.77.0.4")
    guard = throttle_async.FloodGuard(1)
    assert [await guard.admit(Socket(), limits) for _ in range(4)] == [True] * 4
