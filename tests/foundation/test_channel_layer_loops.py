"""The project's channel layer used on one event loop after another, as bench.game_opening's
rounds use it (each round an `asyncio.run` of its own, the layer the same).

channels_redis kept a lock per process-local channel prefix (`receive_clean_locks`) that a receive
cancelled while waiting for it left behind, bound to its loop: the next loop's first receive that
had to wait for it failed with "... is bound to a different event loop"
(test_every_bench_runs.py::test_game_opening_bursts, once in a run at stop 51). The layer's own
reader (one task a process queue, tripeaks/infra/channel_layer.py) takes no such lock; a loop's
reader ends with its loop, and the next loop starts its own."""

from __future__ import annotations

import asyncio
from typing import Any

from django.conf import settings

from tripeaks.infra.channel_layer import RedisChannelLayer


def _layer(name: str) -> RedisChannelLayer:
    config: dict[str, Any] = settings.CHANNEL_LAYERS["default"]["CONFIG"]
    return RedisChannelLayer(hosts=config["hosts"], prefix=f"{config['prefix']}-{name}")


async def _receive_cancelled_mid_pop(layer: RedisChannelLayer) -> bool:
    """A receive cancelled while the loop's reader waits in its blocking pop (a socket closing):
    whether the reader was running then."""
    receive = asyncio.ensure_future(layer.receive(await layer.new_channel()))
    await asyncio.sleep(0.1)
    reading = any(not reader.done() for reader in layer.readers.values())
    receive.cancel()
    await asyncio.wait([receive])
    return reading and receive.cancelled()


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


def test_a_layer_receives_on_one_event_loop_after_another() -> None:
    """A receive cancelled mid-pop on one loop (its reader left waiting in Redis as the loop
    ends), then two messages one after another on each of the next two loops."""
    layer = _layer("loops-test")
    assert asyncio.run(_receive_cancelled_mid_pop(layer))
    assert asyncio.run(_two_messages_one_after_another(layer)) == ["one", "two"]
    assert asyncio.run(_receive_cancelled_mid_pop(layer))
    assert asyncio.run(_two_messages_one_after_another(layer)) == ["one", "two"]
