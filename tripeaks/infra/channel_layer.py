"""The Redis channel layer (channels_redis), with a receive that ends when it is cancelled.

A consumer whose socket closes cancels its pending `receive` and waits for it to end. The
library's receive, cancelled while it waits in Redis's blocking pop, sometimes carries on
popping instead: in 3 of 12 rounds of 8 receivers cancelled one after another, one was still
receiving 7 s later (on asyncio and on uvloop alike; tests/foundation/test_channel_layer.py).
Its consumer then never ended: a task and a Redis connection kept for nothing, and a server told
to stop waited out its whole grace period for it (race bench servers: 10 s, a run in four).

This receive runs the library's in a task of its own and, once cancelled, has the event loop
cancel that task again until it has ended. A cancellation that is swallowed once is taken at the
task's next wait: within a blocking pop's 5 s at worst, at once in practice. The loop does the
cancelling, not the receive's own task: that task may be cancelled again while it waits (an
event loop closing cancels every task at once), and the library's task would then outlive it,
popping for ever, and hold the closing loop with it.

Its `group_add` sends the library's two commands (the channel added to the group's sorted set,
the set's expiry renewed) in one round trip, not two: a game socket joins three groups as it
opens (its session's, its player's, its game's), 6 of its opening's 17.5 round trips to Redis
(bench/game_opening.py). `group_join` also says how many the group then holds: a socket alone
on its game has no other socket to announce itself to.
"""

from __future__ import annotations

import asyncio
import time
from typing import TypeVar

from channels_redis.core import RedisChannelLayer as LibraryLayer

T = TypeVar("T")

# How often a receive that outlived its cancellation is cancelled again.
CANCEL_AGAIN_EVERY_S = 0.05


def cancel_until_done(task: asyncio.Future[T]) -> None:
    """Cancel `task` now and again every CANCEL_AGAIN_EVERY_S until it has ended."""
    if task.done():
        return
    task.cancel()
    task.get_loop().call_later(CANCEL_AGAIN_EVERY_S, cancel_until_done, task)


class RedisChannelLayer(LibraryLayer):  # type: ignore[misc]
    async def receive(self, channel: str) -> dict[str, object]:
        inner = asyncio.ensure_future(super().receive(channel))
        try:
            return await asyncio.shield(inner)
        except asyncio.CancelledError:
            cancel_until_done(inner)
            await asyncio.wait([inner])
            raise

    async def group_add(self, group: str, channel: str) -> None:
        """The library's `group_add` (its checks, its shard, its commands) in one round trip."""
        await self.group_join(group, channel)

    async def group_join(self, group: str, channel: str) -> int:
        """`group_add`, and how many channels the group holds then (this one included, and any
        that lapsed without leaving), in the same round trip."""
        assert self.require_valid_group_name(group), "Group name not valid"
        assert self.require_valid_channel_name(channel), "Channel name not valid"
        key = self._group_key(group)
        connection = self.connection(self.consistent_hash(group))
        async with connection.pipeline(transaction=False) as pipe:
            pipe.zadd(key, {channel: time.time()})
            pipe.expire(key, self.group_expiry)
            pipe.zcard(key)
            _added, _expiring, members = await pipe.execute()
        return int(members)
