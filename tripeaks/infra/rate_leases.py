"""The sockets' frames against their rates by token leases (`spend_async`): a process takes a
window's tokens from Redis a few at a time and spends them on its frames without a Redis call.

A window's counter in Redis (the limiter's, tripeaks/infra/limiter.py: the same key, the same
lifetime) holds the tokens granted in it, never more than its limit in all across processes. A
frame needs a token of each of its windows, all or none. When the process holds none of a
window's, one script call (batched: the frames that arrive while it is in flight share the next)
leases what its frames lack and `lease_size` - 1 more, of each of their windows; a window that
granted fewer than asked is dry until it ends, and its frames are refused with its wait without
a Redis call. A new window starts with no lease. The leases are the event loop's (a server
process has one), shared by all its sockets: once a call's frames are served, the process holds
at most `lease_size` - 1 tokens of a window, more only when some of them were refused by another
window (their tokens of this one stay in the lease, for the next frames). A REST count
(`limiter.count`) in a window a socket holds a lease of counts those unspent tokens as taken: it
may be refused up to that many early. Redis unreachable: the frames go through, as the limiter's
counts do.
"""

from __future__ import annotations

import asyncio
import logging
import time
import weakref
from collections import Counter
from dataclasses import dataclass
from typing import Final

from django.core.cache import cache

from tripeaks.infra import redis_client
from tripeaks.infra.limiter import Window

log = logging.getLogger("tripeaks.throttle")

# `_Leases.spend`'s answer when the process holds no token of a window that is not dry.
NO_TOKEN: Final = -1

# The most tokens of a window a process leases at once beyond its frames waiting for one.
MOST_A_LEASE = 8

# KEYS: the counters; ARGV: for each, how many tokens are asked, its limit, its lifetime. Each
# grants what it has under its limit, up to the ask, and counts it: the answer is each one's grant.
LEASE_SCRIPT = """
local granted = {}
for i, key in ipairs(KEYS) do
    local ask, limit = tonumber(ARGV[3 * i - 2]), tonumber(ARGV[3 * i - 1])
    redis.call('SET', key, 0, 'EX', ARGV[3 * i], 'NX')
    local n = math.min(ask, math.max(0, limit - tonumber(redis.call('GET', key))))
    if n > 0 then redis.call('INCRBY', key, n) end
    granted[i] = n
end
return granted
"""


def lease_size(allowed: int) -> int:
    """How many tokens a lease of a window of `allowed` takes for one frame: a quarter of the limit,
    at most `MOST_A_LEASE`; 1 for a limit under 8, which so counts each frame in Redis."""
    return min(MOST_A_LEASE, max(1, allowed // 4))


@dataclass
class _Held:
    tokens: int = 0
    dry: bool = False  # the window granted fewer than asked: none is left until it ends
    ends: float = 0.0


@dataclass
class _Waiting:
    windows: list[Window]
    future: asyncio.Future[int | None]


class _Leases:
    """One event loop's leases, by window key, and its frames waiting for a lease call."""

    def __init__(self) -> None:
        self._script = redis_client.async_client().register_script(LEASE_SCRIPT)
        self._held: dict[str, _Held] = {}
        self._prune_at = 0.0
        self._waiting: list[_Waiting] = []
        self._leasing: asyncio.Task[None] | None = None
        self.calls = 0

    def spend(self, windows: list[Window]) -> int | None:
        """None: a token of each window spent; the wait when a window is dry; `NO_TOKEN`: a
        window has no token here (a lease call is needed), and none was spent."""
        held = [self._held.get(w.key) for w in windows]
        dry = [w.left for w, h in zip(windows, held, strict=True) if h and h.dry and not h.tokens]
        if dry:
            return max(dry)
        spent = [h for h in held if h is not None and h.tokens]
        if len(spent) < len(windows):
            return NO_TOKEN
        for h in spent:
            h.tokens -= 1
        return None

    async def wait_for_lease(self, windows: list[Window]) -> int | None:
        future: asyncio.Future[int | None] = asyncio.get_running_loop().create_future()
        self._waiting.append(_Waiting(windows, future))
        if self._leasing is None or self._leasing.done():
            self._leasing = asyncio.create_task(self._lease())
        return await future

    async def _lease(self) -> None:
        while self._waiting:
            batch, self._waiting = self._waiting, []
            asks = self._asks(batch)
            if asks and not await self._take(asks):
                for waiting in batch:
                    _answer(waiting, None)
                continue
            for waiting in batch:
                answer = self.spend(waiting.windows)
                if answer == NO_TOKEN:  # spent meanwhile by frames that found tokens here
                    self._waiting.append(waiting)
                else:
                    _answer(waiting, answer)

    async def _take(self, asks: list[tuple[Window, int]]) -> bool:
        """Lease the tokens asked (one script call); False when Redis could not be reached."""
        self.calls += 1
        try:
            keys = [cache.make_key(w.key) for w, _ in asks]
            args = [n for w, ask in asks for n in (ask, w.allowed, w.period + 1)]
            granted = [int(n) for n in await self._script(keys=keys, args=args)]
        except Exception:  # fail open: a cache outage must not stop play
            log.warning("throttle cache unreachable; letting frames through", exc_info=True)
            return False
        self._keep(asks, granted)
        return True

    def _asks(self, batch: list[_Waiting]) -> list[tuple[Window, int]]:
        """How many tokens to ask of each of the batch's windows that is not dry: its frames'
        want beyond the tokens held, and a lease's worth more, less one (the first frame's); none
        at all when no window lacks a token (the call tops up the others' leases too: one call,
        not one a window, when they run out at different frames)."""
        wanted = Counter(w.key for waiting in batch for w in waiting.windows)
        windows = {w.key: w for waiting in batch for w in waiting.windows}
        asks, lacking = [], False
        for key, n in wanted.items():
            h = self._held.get(key) or _Held()
            w = windows[key]
            lacking = lacking or (h.tokens < n and not h.dry)
            if not h.dry and h.tokens < n + lease_size(w.allowed) - 1:
                asks.append((w, n + lease_size(w.allowed) - 1 - h.tokens))
        return asks if lacking else []

    def _keep(self, asks: list[tuple[Window, int]], granted: list[int]) -> None:
        now = time.time()
        if now >= self._prune_at:  # the ended windows' leases go, once a second
            self._held = {key: h for key, h in self._held.items() if h.ends > now}
            self._prune_at = now + 1
        for (w, ask), n in zip(asks, granted, strict=True):
            h = self._held.setdefault(w.key, _Held(ends=w.ends))
            h.tokens += n
            h.dry = n < ask


def _answer(waiting: _Waiting, answer: int | None) -> None:
    if not waiting.future.done():
        waiting.future.set_result(answer)


_leases: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _Leases] = weakref.WeakKeyDictionary()


def leases() -> _Leases:
    """The running event loop's leases."""
    loop = asyncio.get_running_loop()
    found = _leases.get(loop)
    if found is None:
        found = _leases[loop] = _Leases()
    return found


async def spend_async(windows: list[Window]) -> int | None:
    """Spend a token of each window, or none: None when the frame may go on, else the longest
    wait among the windows with none left. A Redis call only when the process holds no token of
    a window that is not dry (and that call is shared with the frames meanwhile)."""
    if not windows:
        return None
    held = leases()
    answer = held.spend(windows)
    if answer == NO_TOKEN:
        return await held.wait_for_lease(windows)
    return answer
