"""The project's channel layer reads a process's queue in one task (tripeaks/infra/channel_layer.py):
a message is one round trip to Redis on receive, a receive cancelled takes no other's message,
and an idle process stops asking Redis."""

from __future__ import annotations

import asyncio

import pytest

from tests.foundation.test_channel_layer import _counting_round_trips, _layer

pytestmark = pytest.mark.asyncio

# The commands of a receive (the library's: EVAL, BZPOPMIN, ZADD of the backup, ZPOPMIN), not of
# the send beside it (ZREMRANGEBYSCORE, ZCOUNT, ZADD, EXPIRE) nor of a new connection.
RECEIVING = {"EVAL", "EVALSHA", "BZPOPMIN", "ZPOPMIN", "ZADD $inflight"}


def _command(packed: object) -> str:
    """A packed command's name, and for a ZADD whether it adds to a backup queue."""
    data = b"".join(packed) if isinstance(packed, list) else bytes(packed)  # type: ignore[arg-type]
    parts = data.split(b"\r\n")
    name = parts[2].decode().upper()
    if name == "ZADD" and parts[4].endswith(b"$inflight"):
        return "ZADD $inflight"
    return name


async def test_a_received_message_is_one_round_trip(monkeypatch: pytest.MonkeyPatch) -> None:
    """The library's receive was four: its backup's clean-up script, the blocking pop, the
    message backed up, the backup removed (that last by a task after the receive)."""
    layer = _layer("reader-trips")
    warm, channel = await layer.new_channel(), await layer.new_channel()
    await layer.send(warm, {"type": "warm"})
    assert (await layer.receive(warm))["type"] == "warm"  # (the pool's connection made)
    await asyncio.sleep(0.1)  # (its reader waiting in its pop again)
    sent = _counting_round_trips(monkeypatch)
    await layer.send(channel, {"type": "hello"})  # the library's three: count, add, expiry
    assert await asyncio.wait_for(layer.receive(channel), 5) == {"type": "hello"}
    await asyncio.sleep(0.2)  # (a clean-up the receive left behind would run here)
    monkeypatch.undo()
    receiving = [name for name in map(_command, sent) if name in RECEIVING]
    assert receiving == ["BZPOPMIN"], receiving
    await layer.flush()


async def test_many_waiting_channels_each_get_their_own_messages() -> None:
    """Six sockets of a process wait at once, one of them closes (its receive cancelled); the
    others each get the messages sent to them, in order, and a message for the closed one is
    kept for nobody else."""
    layer = _layer("reader-many")
    channels = [await layer.new_channel() for _ in range(6)]
    receives = {c: asyncio.ensure_future(layer.receive(c)) for c in channels}
    await asyncio.sleep(0.1)
    closed = channels[0]
    receives[closed].cancel()
    for n, channel in enumerate(channels):
        await layer.send(channel, {"type": "first", "n": n})
        await layer.send(channel, {"type": "second", "n": n})
    for n, channel in enumerate(channels[1:], start=1):
        assert await asyncio.wait_for(receives[channel], 5) == {"type": "first", "n": n}
        assert await asyncio.wait_for(layer.receive(channel), 5) == {"type": "second", "n": n}
    assert receives[closed].cancelled()
    await layer.flush()


async def test_a_group_send_reaches_every_waiting_socket_of_the_process() -> None:
    layer = _layer("reader-group")
    channels = [await layer.new_channel() for _ in range(3)]
    for channel in channels:
        await layer.group_add("table", channel)
    receives = [asyncio.ensure_future(layer.receive(c)) for c in channels]
    await layer.group_send("table", {"type": "progress", "left": 12})
    done = await asyncio.wait_for(asyncio.gather(*receives), 5)
    assert done == [{"type": "progress", "left": 12}] * 3
    await layer.flush()


async def test_an_idle_process_stops_reading_its_queue() -> None:
    """Once its sockets stop receiving, the reader's next pop that times out is its last: an
    idle server does not ask Redis every few seconds for ever."""
    layer = _layer("reader-idle")
    layer.brpop_timeout = 1
    channel = await layer.new_channel()
    await layer.send(channel, {"type": "once"})
    receive = asyncio.ensure_future(layer.receive(channel))
    assert await asyncio.wait_for(receive, 5) == {"type": "once"}
    readers = list(layer.readers.values())
    assert readers and not readers[0].done()
    await asyncio.wait_for(asyncio.wait(readers), 5)
    assert readers[0].done() and readers[0].exception() is None
    # And a later receive starts reading again.
    await layer.send(channel, {"type": "again"})
    assert await asyncio.wait_for(layer.receive(channel), 5) == {"type": "again"}
    await layer.flush()


async def test_a_named_channel_is_not_received() -> None:
    """Every consumer's channel is its process's (`new_channel`); a shared, named channel has no
    reader here, and asking for one says so rather than waiting for ever."""
    layer = _layer("reader-named")
    with pytest.raises(ValueError, match="process's channels"):
        await layer.receive("workers")
