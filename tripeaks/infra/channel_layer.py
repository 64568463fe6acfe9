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

Its `group_leave` leaves several groups in one round trip a shard: a closing game socket leaves
its session's, its player's and its game's groups, three round trips one after another by the
library's `group_discard`.

Its `group_send` is two round trips, not the library's four (a game socket's announcement to the
game's other sockets, a move's view to them, a race's progress, a board's update).

Its per-channel clean-up locks (`receive_clean_locks`: a receive takes its channel's to pop a
message, the message's clean-up task holds it until the backup is removed) forget a waiter that
was cancelled. The library's counted it for ever, so its lock, bound to that event loop, was never
dropped: harmless on one loop, but a layer used on the next loop (bench.game_opening's rounds, an
`asyncio.run` each) then failed the first receive that had to wait for it, "... is bound to a
different event loop" (tests/foundation/test_channel_layer_loops.py).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import defaultdict
from collections.abc import Sequence
from typing import Any, TypeVar

from channels_redis.core import ChannelLock
from channels_redis.core import RedisChannelLayer as LibraryLayer

T = TypeVar("T")

# How often a receive that outlived its cancellation is cancelled again.
CANCEL_AGAIN_EVERY_S = 0.05

log = logging.getLogger("channels_redis.core")  # (the library's own, where it logs this)

# For each channel queue (KEYS) of a group send: its messages older than the cutoff dropped, then
# the message added unless the queue is at its capacity. ARGV: a message per key, a capacity per
# key, the time, the queue's expiry, the cutoff. Returns how many queues were full.
GROUP_SEND_SCRIPT = """
local n = #KEYS
local now, expiry, cutoff = ARGV[2 * n + 1], ARGV[2 * n + 2], ARGV[2 * n + 3]
local over = 0
for i = 1, n do
    redis.call('ZREMRANGEBYSCORE', KEYS[i], 0, cutoff)
    if redis.call('ZCOUNT', KEYS[i], '-inf', '+inf') < tonumber(ARGV[n + i]) then
        redis.call('ZADD', KEYS[i], now, ARGV[i])
        redis.call('EXPIRE', KEYS[i], expiry)
    else
        over = over + 1
    end
end
return over
"""


def cancel_until_done(task: asyncio.Future[T]) -> None:
    """Cancel `task` now and again every CANCEL_AGAIN_EVERY_S until it has ended."""
    if task.done():
        return
    task.cancel()
    task.get_loop().call_later(CANCEL_AGAIN_EVERY_S, cancel_until_done, task)


class ChannelLocks(ChannelLock):  # type: ignore[misc]
    """The library's per-channel locks, a waiter that gives up (cancelled) no longer counted:
    the lock goes once no one holds or waits for it, as the library meant."""

    async def acquire(self, channel: str) -> bool:
        try:
            return bool(await super().acquire(channel))
        except BaseException:
            # (Not holding it: asyncio's Lock hands a cancelled waiter's turn on.)
            self.wait_counts[channel] -= 1
            if self.wait_counts[channel] < 1:
                del self.locks[channel]
                del self.wait_counts[channel]
            raise


class RedisChannelLayer(LibraryLayer):  # type: ignore[misc]
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.receive_clean_locks = ChannelLocks()

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

    async def group_send(self, group: str, message: dict[str, object]) -> None:
        """The library's `group_send` (its members, its messages, its capacities and expiries) in
        two round trips, not four: the group's lapsed members dropped and the rest read in one
        pipeline, then for each shard one script that drops each queue's lapsed messages and
        adds the message where the queue has room (the library sent the drops as a pipeline of
        their own, then the script's text)."""
        assert self.require_valid_group_name(group), "Group name not valid"
        key = self._group_key(group)
        connection = self.connection(self.consistent_hash(group))
        now = time.time()
        async with connection.pipeline(transaction=False) as pipe:
            pipe.zremrangebyscore(key, min=0, max=int(now) - self.group_expiry)
            pipe.zrange(key, 0, -1)
            _dropped, members = await pipe.execute()
        names = [member.decode() for member in members]
        by_shard, messages, capacities = self._map_channel_keys_to_connection(names, message)
        for index, keys in by_shard.items():
            args = [messages[k] for k in keys] + [capacities[k] for k in keys]
            args += [now, self.expiry, int(now) - int(self.expiry)]
            script = self.connection(index).register_script(GROUP_SEND_SCRIPT)
            over = await script(keys=keys, args=args)
            if over > 0:
                log.info("%s of %s channels over capacity in group %s", over, len(names), group)

    async def group_join(self, group: str, channel: str, *also: str) -> int:
        """`group_add`, and how many channels the group holds then (this one included, and any
        that lapsed without leaving), in the same round trip; and `group_add` of the groups
        `also`, in the same round trip when they are on the group's shard (a game socket's
        player's group, with its game's)."""
        assert self.require_valid_group_name(group), "Group name not valid"
        assert self.require_valid_channel_name(channel), "Channel name not valid"
        index = self.consistent_hash(group)
        elsewhere = [other for other in also if self.consistent_hash(other) != index]
        async with self.connection(index).pipeline(transaction=False) as pipe:
            for joined in (*(other for other in also if other not in elsewhere), group):
                assert self.require_valid_group_name(joined), "Group name not valid"
                pipe.zadd(self._group_key(joined), {channel: time.time()})
                pipe.expire(self._group_key(joined), self.group_expiry)
            pipe.zcard(self._group_key(group))
            *_joined, members = await pipe.execute()
        for other in elsewhere:
            await self.group_join(other, channel)
        return int(members)

    async def group_leave(self, groups: Sequence[str], channel: str) -> None:
        """The library's `group_discard` of each of `groups`, in one round trip a shard."""
        assert self.require_valid_channel_name(channel), "Channel name not valid"
        keys: defaultdict[int, list[str]] = defaultdict(list)
        for group in groups:
            assert self.require_valid_group_name(group), "Group name not valid"
            keys[self.consistent_hash(group)].append(self._group_key(group))
        for index, shard_keys in keys.items():
            async with self.connection(index).pipeline(transaction=False) as pipe:
                for key in shard_keys:
                    pipe.zrem(key, channel)
                await pipe.execute()
