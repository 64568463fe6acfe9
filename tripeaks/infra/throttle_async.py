"""`throttling.check` for the sockets, from their event loop, batched; and the flood guard the
game and board sockets share (`FloodGuard`).

Every socket frame is counted against the player's and the address's move rate. One Redis call per
frame cost the socket path a fifth of its time, so frames that arrive while a count is in flight
wait for the next call, which counts them all at once: one Lua script, one round trip, whatever
the number of frames. The counters and answers are the same as `throttling.check` (the REST side).
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from dataclasses import dataclass
from typing import Any

import orjson
import redis.asyncio
from asgiref.sync import sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings

from tripeaks.infra import redis_client, throttling

log = logging.getLogger("tripeaks.throttle")

# The close code of a socket that kept sending over its rates.
CLOSE_FLOOD = 4429


@dataclass
class _Waiting:
    windows: list[throttling.Window]
    future: asyncio.Future[int | None]


class _Counter:
    def __init__(self) -> None:
        # The cache's connection options; its pool class is a sync one.
        options = dict(settings.CACHES["default"].get("OPTIONS", {}))
        options.pop("pool_class", None)
        client = redis.asyncio.Redis.from_url(settings.CACHES["default"]["LOCATION"], **options)
        self._script = client.register_script(throttling.COUNT_SCRIPT)
        self._waiting: list[_Waiting] = []
        self._counting: asyncio.Task[None] | None = None
        self.calls = 0

    async def check(self, windows: list[throttling.Window]) -> int | None:
        future: asyncio.Future[int | None] = asyncio.get_running_loop().create_future()
        self._waiting.append(_Waiting(windows, future))
        if self._counting is None or self._counting.done():
            self._counting = asyncio.create_task(self._count())
        return await future

    async def _count(self) -> None:
        while self._waiting:
            batch, self._waiting = self._waiting, []
            windows = [window for waiting in batch for window in waiting.windows]
            self.calls += 1
            try:
                keys, args = throttling.script_arguments(windows)
                counts = await self._script(keys=keys, args=args)
            except Exception:  # fail open: a cache outage must not stop play
                log.warning("throttle cache unreachable; letting frames through", exc_info=True)
                counts = None
            start = 0
            for waiting in batch:
                end = start + len(waiting.windows)
                if not waiting.future.done():
                    waiting.future.set_result(
                        None
                        if counts is None
                        else throttling.longest_wait(
                            waiting.windows, [int(count) for count in counts[start:end]]
                        )
                    )
                start = end


_counters: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _Counter] = (
    weakref.WeakKeyDictionary()
)


async def check_async(limits: list[throttling.Limit]) -> int | None:
    """Count a frame against every limit: the longest wait among those it is over, or None."""
    if not redis_client.uses_redis():
        return await sync_to_async(throttling.check, thread_sensitive=False)(limits)
    windows = throttling.windows_of(limits)
    if not windows:
        return None
    loop = asyncio.get_running_loop()
    counter = _counters.get(loop)
    if counter is None:
        counter = _counters[loop] = _Counter()
    return await counter.check(windows)


def throttled(what: str, wait: int) -> dict[str, Any]:
    """The frame that refuses a socket's message over a rate: `what` were too many."""
    return {
        "type": "error",
        "detail": f"Too many {what}. Try again in {wait} seconds.",
        "code": "throttled",
        "retry_after": wait,
    }


def watcher_limits(scope: dict[str, Any]) -> list[throttling.Limit]:
    """The rates of a socket that watches a board or a standings page: per player, per address."""
    limits = []
    user = scope.get("user")
    if user is not None and user.is_authenticated:
        limits.append(throttling.Limit("board", f"u{user.pk}"))
    client = scope.get("client") or [None]
    if client[0]:
        limits.append(throttling.Limit("board_address", str(client[0])))
    return limits


class FloodGuard:
    """One socket's frames against its rates: a frame over them is refused with a `throttled`
    frame, and the socket is closed (`CLOSE_FLOOD`) once more than `most_in_a_row` frames in a row
    were refused."""

    def __init__(self, most_in_a_row: int) -> None:
        self.most_in_a_row = most_in_a_row
        self.refused_in_a_row = 0

    async def admit(self, socket: AsyncWebsocketConsumer, limits: list[throttling.Limit]) -> bool:
        """Count a frame; whether the socket may handle it (if not, the socket has been told)."""
        wait = await check_async(limits)
        if wait is None:
            self.refused_in_a_row = 0
            return True
        self.refused_in_a_row += 1
        if self.refused_in_a_row > self.most_in_a_row:
            await socket.close(code=CLOSE_FLOOD)
        else:
            await socket.send(text_data=orjson.dumps(throttled("messages", wait)).decode())
        return False
