"""The project's channel layer (tripeaks/infra/channel_layer.py): a cancelled receive ends.

Eight consumers wait on their channels and are cancelled one after another, as sockets closing
are, in twelve rounds at varied moments of the layer's blocking pop. With channels_redis's own
layer 4 and 7 rounds of 12 left a receive running 2 s later (two runs here); every receive must
end now, at once, and so must the library's receive inside each, even when the receive is
cancelled a second time while it waits for that one to end (an event loop closing cancels every
task: the library's receive then outlived ours and held the closing loop for ever). And the
connections the layer opens skip redis-py's package-metadata lookup."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest
import redis.utils
from django.conf import settings
from redis.asyncio.connection import AbstractConnection as AsyncConnection

from tripeaks.infra.channel_layer import LibraryLayer, RedisChannelLayer

pytestmark = pytest.mark.asyncio


def _layer(name: str) -> RedisChannelLayer:
    config: dict[str, Any] = settings.CHANNEL_LAYERS["default"]["CONFIG"]
    return RedisChannelLayer(hosts=config["hosts"], prefix=f"{config['prefix']}-{name}")


def _library_receives() -> list[asyncio.Task[Any]]:
    return [
        task
        for task in asyncio.all_tasks()
        if getattr(task.get_coro(), "__qualname__", "") == LibraryLayer.receive.__qualname__
    ]


async def _receive_then_cancel_one_by_one(
    layer: RedisChannelLayer, pace: random.Random
) -> list[asyncio.Future[Any]]:
    """Eight receives, waiting for a moment of the blocking pop, then cancelled one after another
    as sockets closing cancel theirs."""
    channels = [await layer.new_channel() for _ in range(8)]
    receives = [asyncio.ensure_future(layer.receive(channel)) for channel in channels]
    await asyncio.sleep(pace.uniform(0.05, 0.4))
    for receive in receives:
        receive.cancel()
        await asyncio.sleep(pace.uniform(0, 0.02))
    return receives


async def test_receives_cancelled_one_after_another_all_end() -> None:
    layer = _layer("cancel-test")
    pace = random.Random(7)
    still_receiving = 0
    for _ in range(12):
        receives = await _receive_then_cancel_one_by_one(layer, pace)
        _done, pending = await asyncio.wait(receives, timeout=10)
        still_receiving += len(pending)
        for receive in pending:
            receive.cancel()
    assert still_receiving == 0
    assert all(receive.cancelled() for receive in receives)
    await layer.flush()


async def test_receives_cancelled_twice_leave_no_library_receive_running() -> None:
    layer = _layer("cancel-twice-test")
    pace = random.Random(11)
    for _ in range(12):
        receives = await _receive_then_cancel_one_by_one(layer, pace)
        for receive in receives:
            receive.cancel()  # as a closing loop does, while ours waits for the library's
        await asyncio.wait(receives, timeout=10)
    left = _library_receives()
    if left:
        await asyncio.wait(left, timeout=10)
    assert _library_receives() == []
    await layer.flush()


async def test_connections_the_layer_opens_read_no_package_metadata(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """redis-py 8 looks its own version up in the installed package metadata (a walk of sys.path,
    0.37 ms of the event loop here) at every connection it opens, for CLIENT SETINFO; a burst of
    socket opens grows the layer's pool by hundreds of connections. The settings turn it off."""
    looked_up: list[str] = []
    version = redis.utils.metadata.version

    def counted(name: str) -> str:
        looked_up.append(name)
        return version(name)

    monkeypatch.setattr(redis.utils.metadata, "version", counted)
    layer = _layer("metadata-test")
    channels = [await layer.new_channel() for _ in range(6)]
    # At once, on a new layer: each join borrows a connection, which the new pool opens.
    await asyncio.gather(*(layer.group_add("burst", channel) for channel in channels))
    await layer.flush()
    assert looked_up == []


async def test_a_group_join_is_one_round_trip_to_redis(monkeypatch: pytest.MonkeyPatch) -> None:
    """The library's join sent its two commands one after another: two round trips. A game
    socket joins three groups as it opens."""
    layer = _layer("join-test")
    channel, other = await layer.new_channel(), await layer.new_channel()
    await layer.group_add("warm", other)  # (the pool's connection opened, its handshake done)
    sent = _counting_round_trips(monkeypatch)
    await layer.group_add("joined", channel)
    monkeypatch.undo()
    assert len(sent) == 1
    # Joined, and the group's set lapses as the library's does.
    key = layer._group_key("joined")
    connection = layer.connection(layer.consistent_hash("joined"))
    assert await connection.zscore(key, channel) is not None
    assert 0 < await connection.ttl(key) <= layer.group_expiry
    await layer.group_send("joined", {"type": "hello"})
    assert (await layer.receive(channel))["type"] == "hello"
    await layer.flush()


def _counting_round_trips(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    sent: list[object] = []
    send = AsyncConnection.send_packed_command

    async def counted(self: AsyncConnection, command: object, check_health: bool = True) -> None:
        sent.append(command)
        await send(self, command, check_health)  # type: ignore[arg-type]

    monkeypatch.setattr(AsyncConnection, "send_packed_command", counted)
    return sent


async def test_a_group_send_is_two_round_trips_to_every_member(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The library's group send was four round trips: the lapsed members dropped, the rest read,
    the members' lapsed messages dropped, the message added. Members of two server processes
    (two layers: each its own process's queue) and two of one each hear it once."""
    here, there = _layer("send-test"), _layer("send-test")
    ours = [await here.new_channel() for _ in range(2)]
    theirs = [await there.new_channel() for _ in range(2)]
    for layer, channel in [(here, c) for c in ours] + [(there, c) for c in theirs]:
        await layer.group_add("players", channel)
    await here.group_send("warm", {"type": "warm"})  # (the script loaded, the pool warm)
    sent = _counting_round_trips(monkeypatch)
    await here.group_send("players", {"type": "hello", "n": 1})
    monkeypatch.undo()
    assert len(sent) == 2
    for layer, channel in [(here, c) for c in ours] + [(there, c) for c in theirs]:
        assert await asyncio.wait_for(layer.receive(channel), 5) == {"type": "hello", "n": 1}
    await here.flush()


async def test_a_group_send_skips_a_full_queue_and_lapsed_members() -> None:
    """A process's channels share its queue in Redis: a full one (a server that reads slower
    than it is sent to) misses the message, the others' get it."""
    here, there = _layer("full-test"), _layer("full-test")
    room, lapsed, full = (
        await here.new_channel(),
        await here.new_channel(),
        await there.new_channel(),
    )
    for layer, channel in ((here, room), (here, lapsed), (there, full)):
        await layer.group_add("players", channel)
    connection = here.connection(here.consistent_hash("players"))
    key = here._group_key("players")
    await connection.zadd(key, {lapsed: 1.0})  # joined long ago and never renewed
    capacity = there.get_capacity(full)
    for n in range(capacity):
        await there.send(full, {"type": "filler", "n": n})
    await here.group_send("players", {"type": "hello"})
    assert await asyncio.wait_for(here.receive(room), 5) == {"type": "hello"}
    assert await connection.zscore(key, lapsed) is None  # dropped from the group
    for n in range(capacity):
        assert await asyncio.wait_for(there.receive(full), 5) == {"type": "filler", "n": n}
    with pytest.raises(asyncio.TimeoutError):
        await asyncio.wait_for(there.receive(full), 0.5)
    await here.flush()


async def test_leaving_several_groups_is_one_round_trip(monkeypatch: pytest.MonkeyPatch) -> None:
    """A closing game socket leaves its session's, its player's and its game's groups: three
    round trips by the library's `group_discard`."""
    layer = _layer("leave-test")
    channel, other = await layer.new_channel(), await layer.new_channel()
    groups = ["session.a", "user.1", "game.b"]
    for group in groups:
        await layer.group_add(group, channel)
        await layer.group_add(group, other)
    sent = _counting_round_trips(monkeypatch)
    await layer.group_leave(groups, channel)
    monkeypatch.undo()
    assert len(sent) == 1
    for group in groups:  # it alone left them
        key = layer._group_key(group)
        connection = layer.connection(layer.consistent_hash(group))
        assert await connection.zrange(key, 0, -1) == [other.encode()]
    await layer.flush()


async def test_a_join_with_other_groups_is_one_round_trip(monkeypatch: pytest.MonkeyPatch) -> None:
    """A game socket joins its player's group with its game's: one round trip where two were."""
    layer = _layer("join-also-test")
    channel, other = await layer.new_channel(), await layer.new_channel()
    await layer.group_add("game.c", other)
    sent = _counting_round_trips(monkeypatch)
    assert await layer.group_join("game.c", channel, "user.2") == 2
    monkeypatch.undo()
    assert len(sent) == 1
    for group in ("game.c", "user.2"):
        await layer.group_send(group, {"type": "hello", "group": group})
        assert (await layer.receive(channel))["group"] == group
    await layer.flush()
