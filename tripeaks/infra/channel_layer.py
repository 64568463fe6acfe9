"""The Redis channel layer (channels_redis), with a receive of one round trip a message that ends
when it is cancelled.

A process's channels (every consumer's: "specific.<client>!<id>") share one queue in Redis. One
task a process queue pops it (`_read`: one blocking pop a message) and hands each message to the
receive waiting on its channel, or keeps it for the channel's next receive. The library's receive
took four round trips a message (a clean-up script restoring its backup queue, the pop, the
message backed up, the backup removed by a task after it) and two tasks and a wait for each call:
its backup was there because any consumer could be the one popping when its socket closed. The
reader is no consumer's, so a closing socket cancels only its own wait, and nothing is popped
for a receive that is gone. The library's receive, cancelled while it waited in Redis's blocking
pop, also sometimes carried on popping (3 of 12 rounds of 8 receivers cancelled one after
another left one receiving 7 s later; tests/foundation/test_channel_layer.py): its consumer never
ended, and a server told to stop waited out its grace period for it. A cancelled receive here is
a future cancelled. Only a process's channels are received: every consumer's channel is one
(`new_channel`), and no run of the project receives on a shared, named channel.

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
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import defaultdict, deque
from collections.abc import Sequence
from typing import Any

from channels_redis.core import RedisChannelLayer as LibraryLayer

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


def _targets(message: dict[str, object], channel: str) -> list[str]:
    """The local channels a message popped from a process's queue is for (the library's
    ``__asgi_channel__``: one channel, or a group send's several of this process), taken out."""
    named = message.pop("__asgi_channel__", channel)
    return [str(c) for c in named] if isinstance(named, list) else [str(named)]


class RedisChannelLayer(LibraryLayer):  # type: ignore[misc]
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # A process's queue (its channels' common part, "specific.<client>!") -> the task reading it.
        self.readers: dict[str, asyncio.Task[None]] = {}
        # A local channel -> the receives waiting on it, first come first served.
        self.waiting: defaultdict[str, deque[asyncio.Future[dict[str, object]]]] = defaultdict(
            deque
        )

    async def receive(self, channel: str) -> dict[str, object]:
        """The next message of `channel`. A process's channels ("...!<id>": every consumer's)
        are read by one task a process queue (`_read`), which hands each message to the
        receive waiting for it, or keeps it for the channel's next receive."""
        if "!" not in channel:
            raise ValueError(f"only a process's channels (...!<id>) are received: {channel!r}")
        assert self.require_valid_channel_name(channel), "Channel name not valid"
        kept = self.receive_buffer.get(channel)
        if kept is not None and not kept.empty():
            message: dict[str, object] = kept.get_nowait()
            if kept.empty():
                del self.receive_buffer[channel]
            return message
        waiter: asyncio.Future[dict[str, object]] = asyncio.get_running_loop().create_future()
        self.waiting[channel].append(waiter)
        self._ensure_reader(self.non_local_name(channel))
        try:
            return await waiter
        except asyncio.CancelledError:
            # As the library: the channel's kept messages go with its last receive.
            self.receive_buffer.pop(channel, None)
            raise
        finally:
            queue = self.waiting.get(channel)
            if queue is not None and waiter in queue:
                queue.remove(waiter)
            if not queue:
                self.waiting.pop(channel, None)

    def _ensure_reader(self, queue: str) -> None:
        loop = asyncio.get_running_loop()
        reader = self.readers.get(queue)
        if reader is not None and not reader.done():
            if reader.get_loop() is loop:
                return
            if not reader.get_loop().is_closed():
                raise RuntimeError(
                    "Two event loops are trying to receive() on one channel layer at once!"
                )
        self.readers[queue] = loop.create_task(self._read(queue))

    async def _read(self, queue: str) -> None:
        """Pops the process queue's messages, one blocking pop (one round trip) a message: the
        library's receive took four (its backup queue's clean-up script, the pop, the message
        backed up, the backup removed), for a receive that its consumer could cancel mid-pop.
        This task is no consumer's: a socket that closes cancels its own wait only. It ends once
        a pop times out with no receive waiting (an idle server stops asking), or fails: the
        failure goes to every receive waiting then, as the library's receive raised it."""
        key = self.prefix + queue
        connection = self.connection(self.consistent_hash(queue))
        try:
            while True:
                popped = await connection.bzpopmin(key, timeout=self.brpop_timeout)
                if popped is not None:
                    self._hand_over(self.deserialize(popped[1]), queue)
                elif not self.waiting:
                    return
        except Exception as error:  # noqa: BLE001 (each waiting receive raises it instead)
            for waiters in self.waiting.values():
                for waiter in waiters:
                    if not waiter.done():
                        waiter.set_exception(error)

    def _hand_over(self, message: dict[str, object], queue: str) -> None:
        for channel in _targets(message, queue):
            waiters = self.waiting.get(channel)
            while waiters:
                waiter = waiters.popleft()
                if not waiter.done():
                    waiter.set_result(message)
                    break
            else:
                self.receive_buffer[channel].put_nowait(message)

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

    async def group_join(
        self, group: str, channel: str, *also: str, leaving: Sequence[str] = ()
    ) -> int:
        """`group_add`, and how many channels the group holds then (this one included, and any
        that lapsed without leaving), in the same round trip; and `group_add` of the groups
        `also`, in the same round trip when they are on the group's shard (a game socket's
        player's group, with its game's). The groups `leaving` are left (`group_leave`) in the
        same round trip too when on the group's shard: a game socket that starts its next game
        moves from the old game's group to the new one's in one."""
        assert self.require_valid_group_name(group), "Group name not valid"
        assert self.require_valid_channel_name(channel), "Channel name not valid"
        index = self.consistent_hash(group)
        elsewhere = [other for other in also if self.consistent_hash(other) != index]
        left_elsewhere = [old for old in leaving if self.consistent_hash(old) != index]
        async with self.connection(index).pipeline(transaction=False) as pipe:
            for joined in (*(other for other in also if other not in elsewhere), group):
                assert self.require_valid_group_name(joined), "Group name not valid"
                pipe.zadd(self._group_key(joined), {channel: time.time()})
                pipe.expire(self._group_key(joined), self.group_expiry)
            for old in leaving:
                if old not in left_elsewhere:
                    assert self.require_valid_group_name(old), "Group name not valid"
                    pipe.zrem(self._group_key(old), channel)
            pipe.zcard(self._group_key(group))
            *_joined, members = await pipe.execute()
        for other in elsewhere:
            await self.group_join(other, channel)
        if left_elsewhere:
            await self.group_leave(left_elsewhere, channel)
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
