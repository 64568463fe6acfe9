"""The project's channel layer used on one event loop after another, as bench.game_opening's
rounds use it (each round an `asyncio.run` of its own, the layer the same).

channels_redis keeps a lock per process-local channel prefix (`receive_clean_locks`): a receive
takes it to pop a message and its clean-up task holds it until the message's backup is removed.
A receive cancelled while it waited for it (a socket closing just as another socket's message
came in) stayed counted as a waiter for ever, so the lock, bound to that loop, was never dropped:
the next loop's first receive that had to wait for it failed with "... is bound to a different
event loop" (test_every_bench_runs.py::test_game_opening_bursts, once in a run at stop 51)."""

from __future__ import annotations

import asyncio
from typing import Any

from django.conf import settings

from tripeaks.infra.channel_layer import RedisChannelLayer


def _layer(name: str) -> RedisChannelLayer:
    config: dict[str, Any] = settings.CHANNEL_LAYERS["default"]["CONFIG"]
    return RedisChannelLayer(hosts=config["hosts"], prefix=f"{config['prefix']}-{name}")


async def _receive_cancelled_waiting_for_clean_up(layer: RedisChannelLayer, key: str) -> bool:
    """A receive cancelled while the channel's clean-up lock is held (held here, as a message's
    clean-up task holds it): whether it was waiting for it when cancelled."""
    await layer.receive_clean_locks.acquire(key)
    receive = asyncio.ensure_future(layer.receive(await layer.new_channel()))
    lock = layer.receive_clean_locks.locks[key]
    for _ in range(1000):
        if lock._waiters:
            break
        await asyncio.sleep(0)
    waited = bool(lock._waiters)
    receive.cancel()
    await asyncio.wait([receive])
    layer.receive_clean_locks.release(key)
    if not receive.cancelled():
        receive.result()  # (its failure, if it failed rather than waited)
    return waited


async def _two_messages_one_after_another(layer: RedisChannelLayer) -> list[Any]:
    """Two receives on this loop, their messages sent one after the other (the second receive
    then takes the lock while the first message's clean-up may hold it)."""
    first, second = await layer.new_channel(), await layer.new_channel()
    receives = [asyncio.ensure_future(layer.receive(c)) for c in (first, second)]
    await asyncio.sleep(0.05)
    await layer.send(first, {"type": "one"})
    await layer.send(second, {"type": "two"})
    got = [message["type"] for message in await asyncio.gather(*receives)]
    await layer.flush()
    return got


def test_a_receive_cancelled_waiting_for_a_clean_up_leaves_no_lock_for_the_next_loop() -> None:
    layer = _layer("loops-test")
    key = layer.prefix + layer.non_local_name(asyncio.run(layer.new_channel()))
    assert asyncio.run(_receive_cancelled_waiting_for_clean_up(layer, key))
    assert layer.receive_clean_locks.locks == {}
    assert layer.receive_clean_locks.wait_counts == {}
    # The next loop: a receive that waits for the lock (held again) is not refused.
    assert asyncio.run(_receive_cancelled_waiting_for_clean_up(layer, key))
    assert asyncio.run(_two_messages_one_after_another(layer)) == ["one", "two"]
