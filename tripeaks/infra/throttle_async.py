"""`throttling.check` for the sockets, from their event loop; and the flood guard the game and
board sockets share (`FloodGuard`).

Every socket frame is counted against the player's and the address's move rate, in the counters
`throttling.check` (the REST side) counts in. A frame's count goes to Redis behind it
(`limiter.count_behind`: one Redis call for the frames of all the process's sockets meanwhile, and
no wait): the frame is refused when the process knows a window over, from Redis's answers or its
own counts. A socket's other messages (new games) wait for their count (`check_async`).
"""

from __future__ import annotations

import logging
import time
from typing import Any

import orjson
from channels.generic.websocket import AsyncWebsocketConsumer

from tripeaks.infra import limiter, throttling
from tripeaks.infra.json_types import JSONObject

log = logging.getLogger("tripeaks.throttle")

# The close code of a socket that kept sending over its rates.
CLOSE_FLOOD = 4429


async def check_async(limits: list[throttling.Limit]) -> int | None:
    """Count a frame against every limit: the longest wait among those it is over, or None."""
    return await limiter.count_async(throttling.windows_of(limits))


def throttled(what: str, wait: int) -> JSONObject:
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
        # The windows of the last frame's limits, and until when they are the same (the window
        # ends, or a wait in whole seconds changes): made for every frame, they cost a game
        # socket's move some 10 us (the rates read from the settings, the keys formatted).
        self._limits: list[throttling.Limit] | None = None
        self._windows: list[limiter.Window] = []
        self._same_until = 0.0

    def _windows_of(self, limits: list[throttling.Limit]) -> list[limiter.Window]:
        now = time.time()
        if now < self._same_until and (limits is self._limits or limits == self._limits):
            return self._windows
        self._limits, self._windows = limits, throttling.windows_of(limits)
        # `left` is a whole number of seconds (at least 1) until the window ends.
        self._same_until = min((w.ends - w.left + 1 for w in self._windows), default=now + 1)
        return self._windows

    async def admit(self, socket: AsyncWebsocketConsumer, limits: list[throttling.Limit]) -> bool:
        """Count a frame; whether the socket may handle it (if not, the socket has been told).
        An admitted frame waits for nothing: its count goes to Redis behind it."""
        wait = self.count(limits)
        if wait is None:
            return True
        await self.refuse(socket, wait)
        return False

    def count(self, limits: list[throttling.Limit]) -> int | None:
        """`admit`'s count with no coroutine (a frame's path): None when the frame may be
        handled, else its wait, for `refuse`."""
        wait = limiter.count_behind(self._windows_of(limits))
        if wait is None:
            self.refused_in_a_row = 0
        return wait

    async def refuse(self, socket: AsyncWebsocketConsumer, wait: int) -> None:
        """Tell the socket its frame was refused (`count` gave `wait`); close it once more than
        `most_in_a_row` were, in a row."""
        self.refused_in_a_row += 1
        if self.refused_in_a_row > self.most_in_a_row:
            await socket.close(code=CLOSE_FLOOD)
        else:
            await socket.send(text_data=orjson.dumps(throttled("messages", wait)).decode())
