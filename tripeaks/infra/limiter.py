"""The service's one rate limiter: counts and leases in Redis, which every server process shares.

- **Rates** in fixed windows (`window`, `parse_rate`): a request adds one to each of its windows'
  counters, all in one atomic script (`count`, or `count_async` from an event loop, where the
  frames that arrive while a count is in flight are counted together in the next call). DRF's
  throttles, the play limits and the sockets' frames (tripeaks/infra/throttling.py and
  throttle_async.py) count this way; a socket's frames by `count_behind`, which waits for no
  answer: the process refuses what it knows over (Redis said so, or its own counts reached the
  limit) and sends the rest's counts behind them. `count_async(..., remember_refusals=True)`
  keeps, in the process, the windows Redis said were over their limit until they end, and
  refuses a count that falls in one of them without asking Redis: a flood's refusals cost no
  Redis call (the front gate, tripeaks/infra/front_gate.py); a window the process's own counts
  have filled is known over before Redis answers them (a burst's counts in flight). It also
  counts those refusals: past a number of them the window is a flood's (`flooding`), and the
  gate refuses the address's connections before any byte of them is read, in the next window
  too while the flood goes on knocking.
- **Reservations** (`reserve`): nothing is counted unless every window is below its limit, then
  all are (sign-in and password-reset attempts: accounts/throttling.py).
- **Slots** (`acquire_slot`, `release_slot`): leases in sorted sets, one member a call, scored by
  its expiry (solver calls: tripeaks/play/solver_guard.py).
- **Holdings** (`hold`, `let_go`, `held`): leases too, one member a socket, in several holders'
  sets at once or in none, each holder with its cap (open sockets: tripeaks/infra/socket_caps.py).

A window's key is its name and its index (`<name>:<index>`) under the cache's prefix
(`cache.make_key`), so the Django cache reads and clears the same counters.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from django.core.cache import cache

from tripeaks.infra import redis_client
from tripeaks.infra.loop_local import PerLoop

log = logging.getLogger("tripeaks.throttle")

_PERIODS = {"s": 1, "m": 60, "h": 3600, "d": 86400}


@functools.lru_cache(maxsize=256)
def parse_rate(rate: str | None) -> tuple[int, int] | None:
    """``"20/s"`` -> (20, 1), ``"30/min"`` -> (30, 60), ``"10/10s"`` -> (10, 10); ``None`` ->
    None (no limit). The period is read by its first letter (s, m, h, d), as DRF reads its rates,
    after a number of them if one is given (a burst of 10 opens, then one a second: "10/10s")."""
    if not rate:
        return None
    count, _, period = rate.partition("/")
    period = period.strip()
    unit = period.lstrip("0123456789")
    many = int(period[: len(period) - len(unit)] or 1)
    return int(count), many * _PERIODS[unit[0]]


class Window(NamedTuple):
    key: str
    allowed: int
    period: int
    left: int  # seconds until the window ends
    ends: float = 0.0  # when it ends (time.time())


def window(name: str, allowed: int, period: int, now: float | None = None) -> Window:
    """The `period`-second window `now` falls in: `allowed` counts in it, under `<name>:<index>`."""
    now = time.time() if now is None else now
    index = int(now // period)
    left = max(1, math.ceil((index + 1) * period - now))
    return Window(f"{name}:{index}", allowed, period, left, float((index + 1) * period))


def previous_key(key: str) -> str:
    """The key of the window before the one keyed `key` (`<name>:<index>`), of the same rate."""
    name, _, index = key.rpartition(":")
    return f"{name}:{int(index) - 1}"


def longest_wait(windows: list[Window], counts: list[int]) -> int | None:
    """The longest wait among the windows whose count is over their limit, or None."""
    waits = [w.left for w, n in zip(windows, counts, strict=True) if n > w.allowed]
    return max(waits) if waits else None


# SET NX makes each counter with its window's lifetime, INCRBY counts: one atomic call for every
# window given (a key given twice counts twice). ARGV: each counter's lifetime, then how many
# each one counts (one when not given).
COUNT_SCRIPT = """
local counts = {}
local n = #KEYS
for i, key in ipairs(KEYS) do
    redis.call('SET', key, 0, 'EX', ARGV[i], 'NX')
    counts[i] = redis.call('INCRBY', key, ARGV[n + i] or 1)
end
return counts
"""


def _script_arguments(
    windows: list[Window], make_key: Callable[[str], str] | None = None
) -> tuple[list[str], list[int]]:
    make_key = make_key or cache.make_key
    return [make_key(w.key) for w in windows], [w.period + 1 for w in windows]


def count(windows: list[Window], *, fail_open: bool = True) -> int | None:
    """Count one request in each window, atomically: the longest wait among those it is over,
    or None. Redis unreachable: the request goes through (`fail_open`, logged) or it raises."""
    if not windows:
        return None
    keys, args = _script_arguments(windows)
    try:
        counts = redis_client.script(COUNT_SCRIPT)(keys=keys, args=args)
    except Exception:
        if not fail_open:
            raise
        log.warning("throttle cache unreachable; letting the request through", exc_info=True)
        return None
    return longest_wait(windows, [int(n) for n in counts])


@dataclass
class _Waiting:
    windows: list[Window]
    future: asyncio.Future[list[int] | None]


# The longest a count sent behind its frame (`count_behind`) waits for its call: the counts of all
# the process's frames meanwhile go in one (at a thousand frames a second, one call for ten).
BEHIND_S = 0.01


class LoopCounts:
    """One event loop's counts: a call in flight at a time, the frames meanwhile in the next.
    Made on its loop, which it keeps: on Python 3.11 every `asyncio.get_running_loop()` is a
    `getpid` system call."""

    def __init__(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._script = redis_client.async_client().register_script(COUNT_SCRIPT)
        # The cache's, bound once: a count's task starts from a context where Django's `caches`
        # holds no backend yet, and `cache.make_key` made one for every count (10 us of CPU).
        self._make_key = cache.make_key
        self._waiting: list[_Waiting] = []
        # Counts nobody waits for (`count_behind`), by window: how many frames each counts. Their
        # answers only tell `_frames_known` what is over.
        self._behind: dict[str, tuple[Window, int]] = {}
        self._behind_due = False  # a call for them is timed (`BEHIND_S`)
        self._counting: asyncio.Task[None] | None = None
        self.calls = 0

    async def counts(self, windows: list[Window]) -> list[int] | None:
        """Each window's count with this one in it; None when Redis could not be reached."""
        future: asyncio.Future[list[int] | None] = self._loop.create_future()
        self._waiting.append(_Waiting(windows, future))
        self._start()
        return await future

    def behind(self, windows: list[Window]) -> None:
        """Count in these windows with a call at most `BEHIND_S` from now, and wait for nothing.
        A window's frames meanwhile are one count of many: a call has a key a window, however
        many frames it holds."""
        for w in windows:
            counted = self._behind.get(w.key)
            self._behind[w.key] = (w, 1 if counted is None else counted[1] + 1)
        if not self._behind_due:
            self._behind_due = True
            self._loop.call_later(BEHIND_S, self._behind_now)

    def _behind_now(self) -> None:
        self._behind_due = False
        if self._behind:
            self._start()

    def _start(self) -> None:
        if self._counting is None or self._counting.done():
            self._counting = self._loop.create_task(self._count())

    async def _count(self) -> None:
        # Counts behind their frames wait for their timed call (a slow round trip on a busy
        # machine would otherwise make one call for each), unless a call goes anyway.
        while self._waiting or (self._behind and not self._behind_due):
            batch, self._waiting = self._waiting, []
            behind, self._behind = list(self._behind.values()), {}
            windows = [window for waiting in batch for window in waiting.windows]
            waited_for = len(windows)
            windows += [w for w, _ in behind]
            counts = await self._call(windows, [1] * waited_for + [n for _, n in behind])
            start = 0
            for waiting in batch:
                end = start + len(waiting.windows)
                if not waiting.future.done():
                    waiting.future.set_result(None if counts is None else counts[start:end])
                start = end
            if counts is None:
                _frames_known.unsend([w for w, _ in behind], [n for _, n in behind])
            elif behind:
                _frames_known.note(windows[waited_for:], counts[waited_for:], time.time())

    async def _call(self, windows: list[Window], amounts: list[int]) -> list[int] | None:
        """Each window's count once it has counted its amount; None: Redis unreachable."""
        self.calls += 1
        try:
            keys, lifetimes = _script_arguments(windows, self._make_key)
            return [int(n) for n in await self._script(keys=keys, args=lifetimes + amounts)]
        except Exception:  # fail open: a cache outage must not stop play
            log.warning("throttle cache unreachable; letting frames through", exc_info=True)
            return None


_counters = PerLoop(LoopCounts)


class _Refusals:
    """The windows Redis said were over their limit, by key, with when each ends: in the process,
    so that a count in one of them is refused without a Redis call; and how many counts each has
    refused so (a flood's size: the front gate refuses a flooding address's connections before
    they are read, `flooding`). At most `most` are kept (an attacker with many addresses cannot
    grow it without end): the ended ones go first, then all."""

    def __init__(self, most: int = 10_000) -> None:
        self.most = most
        self._ends: dict[str, float] = {}
        self._refused: dict[str, int] = {}
        self._sent: dict[str, tuple[int, float]] = {}  # counts sent to Redis, when each window ends
        self._refusing_until = 0.0  # when the last window known over ends
        self._flood_until = 0.0  # when the window after the last flood's ends (it may renew it)

    def wait(self, windows: list[Window], now: float, *, tally: bool = False) -> int | None:
        """The longest wait among the windows known to be over, or None; with `tally`, the
        count is refused: it is added to each over window's refusals. A window whose limit this
        process's own counts sent to Redis have reached is over (they are a part of Redis's
        count): known so from now on, before Redis has answered them (the rest of a burst that
        arrives while its first counts are in flight). (Every socket frame asks, by `take`: a
        loop over the windows and no list, unless the count is refused.)"""
        # (`self._ends` each time: `_remember` may make it anew.)
        for w in windows:
            if w.key not in self._ends and self._sent.get(w.key, (0, 0.0))[0] >= w.allowed:
                self._remember(w, now)
        known = 0.0
        for w in windows:
            known = max(known, self._ends.get(w.key, 0.0))
        if known <= now:
            return None
        if tally:
            for w in windows:
                if self._ends.get(w.key, 0.0) > now:
                    self._refused[w.key] = self._refused.get(w.key, 0) + 1
            self._refusing_until = max(self._refusing_until, known)
        return max(1, math.ceil(known - now))

    def take(self, windows: list[Window], now: float) -> int | None:
        """`wait` (no tally), and when it finds none over, `send`: a frame's count
        (`count_behind`, every socket frame)."""
        known = self.wait(windows, now)
        if known is None:
            self.send(windows, now)
        return known

    def refusing(self, now: float) -> bool:
        """Whether a window is known over (and so may have refusals) that has not ended, or a
        flood's window has just ended (the next one may renew it: `flooding`)."""
        return self._refusing_until > now or self._flood_until > now

    def flooding(self, windows: list[Window], refusals: int, now: float) -> bool:
        """Whether these windows are a flood's, and if so refuse one more count in them: one is
        known over with `refusals` counts or more refused in it, or the window before it of the
        same rate had more than `refusals` (a flood that goes on knocking stays refused from the
        new window's first knock; its knocks there are refused and counted as well, so that
        more than `refusals` of them renew it once more, and fewer let the address in with the
        window after: a window with no knock lifts it)."""
        for w in windows:
            known = self._ends.get(w.key, 0.0) > now
            refused = self._refused.get(w.key, 0) if known else 0
            renewed = self._refused.get(previous_key(w.key), 0) > refusals
            if (known and refused >= refusals) or renewed:
                if not known:
                    self._remember(w, now)
                self._refused[w.key] = refused + 1
                if refused + 1 > refusals:  # over: the next window starts refused
                    self._flood_until = max(self._flood_until, w.ends + w.period)
                return True
        return False

    def refused(self, windows: list[Window], now: float) -> int | None:
        """The most counts refused in one of these windows that is known over, or None when none
        is."""
        over = [self._refused.get(w.key, 0) for w in windows if self._ends.get(w.key, 0.0) > now]
        return max(over) if over else None

    def send(self, windows: list[Window], now: float) -> None:
        """A count is sent to Redis in these windows: counted among this process's own (`wait`)."""
        if len(self._sent) >= self.most:
            self._sent = {key: sent for key, sent in self._sent.items() if sent[1] > now}
            if len(self._sent) >= self.most:
                self._sent = {}  # (fewer counts here only ever leave a count to Redis)
        for w in windows:
            self._sent[w.key] = (self._sent.get(w.key, (0, 0.0))[0] + 1, w.ends)

    def unsend(self, windows: list[Window], many: list[int] | None = None) -> None:
        """Counts `send` let through never reached Redis (unreachable): not counted here either,
        so that an outage lets everything through, as the limiter does. `many`: how many counts
        each window had (one each when not given)."""
        for w, n in zip(windows, many or [1] * len(windows), strict=True):
            sent, ends = self._sent.get(w.key, (0, 0.0))
            if sent > 0:
                self._sent[w.key] = (max(0, sent - n), ends)

    def note(self, windows: list[Window], counts: list[int], now: float) -> None:
        for w, n in zip(windows, counts, strict=True):
            if n > w.allowed and w.key not in self._ends:
                self._remember(w, now)
                log.info("over a rate: refused in the process until it ends", extra={"rate": w.key})

    def _remember(self, w: Window, now: float) -> None:
        """`w` is known over until it ends."""
        if len(self._ends) >= self.most:
            self._forget_ended(now)
        self._ends[w.key] = w.ends
        self._refusing_until = max(self._refusing_until, w.ends)

    def _forget_ended(self, now: float) -> None:
        # (A window that has just ended is forgotten too: under this much pressure, a flood in
        # it renews nothing, and is refused again once it is known over in the new window.)
        self._ends = {key: ends for key, ends in self._ends.items() if ends > now}
        if len(self._ends) >= self.most:
            self._ends = {}
        self._refused = {key: n for key, n in self._refused.items() if key in self._ends}

    def clear(self) -> None:
        self._ends = {}
        self._refused = {}
        self._sent = {}
        self._refusing_until = 0.0
        self._flood_until = 0.0


_refusals = _Refusals()
# The windows over their limit and this process's own counts, for `count_behind`'s frames (apart
# from the front gate's, whose refusals it tallies to find floods).
_frames_known = _Refusals()


def known_refusal(windows: list[Window], *, tally: bool = False) -> int | None:
    """The wait of a count that `count_async(..., remember_refusals=True)` would refuse without
    asking Redis (a window of it is known over), or None: a check with no Redis call at all.
    With `tally`, the caller refuses it: it counts among the window's refusals (`refused`)."""
    return _refusals.wait(windows, time.time(), tally=tally)


def refusing() -> bool:
    """Whether the process knows of a window over its limit that has not ended (else `refused`
    is None for any window): a check cheaper than computing the windows to ask about."""
    return _refusals.refusing(time.time())


def flooding(windows: list[Window], refusals: int) -> bool:
    """Whether these windows are a flood's, with no Redis call: `refusals` counts or more refused
    without asking Redis in one known over, or more than that in the window before it (the flood
    goes on). When they are, the caller refuses one more: it is counted among the refusals (more
    than `refusals` in a window renew the flood for the next)."""
    return _refusals.flooding(windows, refusals, time.time())


def forget_refusals() -> None:
    """Forget the process's known refusals (tests: the counters were cleared)."""
    _refusals.clear()
    _frames_known.clear()


async def count_async(windows: list[Window], *, remember_refusals: bool = False) -> int | None:
    """`count` from an event loop (failing open), batched with the loop's other counts. With
    `remember_refusals`, a window found over its limit refuses in the process until it ends,
    without a Redis call (such a refusal is not counted: the window is over already), and so
    does a window whose limit the process's own counts have reached, before Redis answers them."""
    if not windows:
        return None
    now = time.time()
    if remember_refusals:
        known = _refusals.wait(windows, now, tally=True)
        if known is not None:
            return known
        _refusals.send(windows, now)
    counts = await _counters.get().counts(windows)
    if counts is None:
        if remember_refusals:
            _refusals.unsend(windows)
        return None
    if remember_refusals:
        _refusals.note(windows, counts, now)
    return longest_wait(windows, counts)


def count_behind(windows: list[Window]) -> int | None:
    """Count a socket's frame in each window without waiting for Redis (from an event loop): the
    wait of a frame refused by what the process knows, else None, and the frame goes ahead while
    its count goes to Redis with a later call (`count_async`'s, shared by every frame meanwhile,
    at most `BEHIND_S` later), whose answer marks the windows it finds over. A window is known
    over once Redis has answered a count over its limit, or once this process's own counts have
    reached it (so one process alone never lets more through than the limit), until it ends;
    refused frames are not counted again (the window is over already).

    The bound this sets on a limit counted by several processes: each can let through the frames
    that arrive between Redis counting the window over and that process hearing so (`BEHIND_S`
    and a round trip, some 10 ms), and never more than the limit of its own. Redis unreachable:
    every frame goes through, as with `count_async`.

    An admitted frame makes no Redis round trip of its own and never waits: a round trip was the
    largest part of a socket move's CPU that was not the move (bench/README.md, "Stop 49")."""
    if not windows:
        return None
    known = _frames_known.take(windows, time.time())
    if known is not None:
        return known
    _counters.get().behind(windows)
    return None


# KEYS: the counters; ARGV: each counter's limit, then each one's lifetime. Nothing is counted
# unless every counter is below its limit; the answer is the 1-based index of a counter at its
# limit, or 0.
RESERVE_SCRIPT = """
local n = #KEYS
for i, key in ipairs(KEYS) do
    if tonumber(redis.call('GET', key) or '0') >= tonumber(ARGV[i]) then
        return i
    end
end
for i, key in ipairs(KEYS) do
    redis.call('SET', key, 0, 'EX', ARGV[n + i], 'NX')
    redis.call('INCR', key)
end
return 0
"""


def reserve(windows: list[Window]) -> int | None:
    """Count one attempt in every window, or in none when one is at its limit: None when it was
    counted, else that window's wait. Redis unreachable: raises (a door stays shut)."""
    keys, lifetimes = _script_arguments(windows)
    script = redis_client.script(RESERVE_SCRIPT)
    over = int(script(keys=keys, args=[w.allowed for w in windows] + lifetimes))
    return windows[over - 1].left if over else None


# ------------------------------------------------------------------------------------------ slots
# KEYS[1]: every lease of the service; KEYS[2]: the asker's, KEYS[3]: its address's; KEYS[4]: the
# asker's calls in this window, KEYS[5]: set while the asker has asked lately ('' for none).
# ARGV: now, expiry, token, limit, lease ms, the address's share, the slots kept for light askers,
# calls a window that still count as light, the window's seconds.
# 0: leased; 1: the service is full, for a light asker; 2: the asker already holds one; 3: the
# address holds its share; 4: the slots open to a heavy asker are taken.
ACQUIRE_SCRIPT = """
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
if KEYS[2] ~= '' then
    redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', ARGV[1])
    if redis.call('ZCARD', KEYS[2]) > 0 then return 2 end
end
if KEYS[3] ~= '' then
    redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', ARGV[1])
    if redis.call('ZCARD', KEYS[3]) >= tonumber(ARGV[6]) then return 3 end
end
local calls = 0
if KEYS[4] ~= '' then calls = tonumber(redis.call('GET', KEYS[4]) or '0') end
local light = KEYS[4] ~= '' and calls < tonumber(ARGV[8])
    and redis.call('EXISTS', KEYS[5]) == 0
local held = redis.call('ZCARD', KEYS[1])
if held >= tonumber(ARGV[4]) then
    if light then return 1 end
    return 4
end
if not light and held >= tonumber(ARGV[4]) - tonumber(ARGV[7]) then return 4 end
for i = 1, 3 do
    if KEYS[i] ~= '' then
        redis.call('ZADD', KEYS[i], ARGV[2], ARGV[3])
        redis.call('PEXPIRE', KEYS[i], ARGV[5])
    end
end
if KEYS[4] ~= '' then
    redis.call('INCR', KEYS[4])
    if calls == 0 then redis.call('EXPIRE', KEYS[4], ARGV[9]) end
end
return 0
"""
# KEYS: as ACQUIRE's; ARGV: the token, how long the asker counts as having asked lately.
RELEASE_SCRIPT = """
for i = 1, 3 do
    if KEYS[i] ~= '' then redis.call('ZREM', KEYS[i], ARGV[1]) end
end
if KEYS[5] ~= '' then redis.call('SET', KEYS[5], 1, 'EX', ARGV[2]) end
return 0
"""


@dataclass(frozen=True)
class SlotPolicy:
    """How many slots there are and who may take them."""

    limit: int  # slots of the whole service
    address_share: int  # slots one address may hold at once
    kept_for_light: int  # slots only a light asker may take
    light_calls: int  # an asker with fewer calls than this in a window is light...
    light_window_s: int
    light_gap_s: int  # ...unless its last call ended less than this long ago
    lease_s: int  # a lease outlives any call; it only matters when a process dies holding one


def acquire_slot(keys: list[str], token: str, policy: SlotPolicy) -> int:
    """Lease a slot as `token` (keys: ACQUIRE_SCRIPT's): 0, or why not (its outcomes)."""
    now = time.time()
    script = redis_client.script(ACQUIRE_SCRIPT)
    args: list[str | int | float] = [now, now + policy.lease_s, token, policy.limit]
    args += [policy.lease_s * 1000, policy.address_share, policy.kept_for_light]
    args += [policy.light_calls, policy.light_window_s]
    return int(script(keys=keys, args=args))


def release_slot(keys: list[str], token: str, policy: SlotPolicy) -> None:
    script = redis_client.script(RELEASE_SCRIPT)
    script(keys=keys, args=[token, policy.light_gap_s])


# --------------------------------------------------------------------------------------- holdings
# KEYS: the holders' sets, then any sets the member leaves. ARGV: now, the lease's end, the
# member, then each holder's cap (0: no cap), then the sets' lifetime. Returns 0 (held by every
# holder, and out of the sets it leaves) or the 1-based index of the holder at its cap (nothing
# changed).
HOLD_SCRIPT = """
local holders = #ARGV - 4
for i = 1, holders do
    local key = KEYS[i]
    redis.call('ZREMRANGEBYSCORE', key, '-inf', ARGV[1])
    local cap = tonumber(ARGV[3 + i])
    if cap > 0 and not redis.call('ZSCORE', key, ARGV[3])
        and redis.call('ZCARD', key) >= cap then
        return i
    end
end
for i = 1, holders do
    redis.call('ZADD', KEYS[i], ARGV[2], ARGV[3])
    redis.call('EXPIRE', KEYS[i], ARGV[#ARGV])
end
for i = holders + 1, #KEYS do
    redis.call('ZREM', KEYS[i], ARGV[3])
end
return 0
"""


def _hold_args(
    member: str, holders: Sequence[tuple[str, int]], lease_s: int
) -> list[str | int | float]:
    now = time.time()
    return [now, now + lease_s, member, *(cap for _, cap in holders), lease_s]


def hold(
    member: str, holders: Sequence[tuple[str, int]], lease_s: int, leaving: Sequence[str] = ()
) -> int:
    """Add `member` to each holder's `(key, cap)` set (cap 0: none) for `lease_s` seconds, all or
    none: 0, else the 1-based index of the first holder at its cap. A member held already is held
    again (a renewal). Once held, it leaves the sets `leaving` (`let_go`), in the same round trip.
    Redis unreachable: raises."""
    script = redis_client.script(HOLD_SCRIPT)
    keys = [*(key for key, _ in holders), *leaving]
    return int(script(keys=keys, args=_hold_args(member, holders, lease_s)))


async def hold_async(member: str, holders: Sequence[tuple[str, int]], lease_s: int) -> int:
    """`hold` from an event loop, on its own client: no worker thread."""
    script = redis_client.async_client().register_script(HOLD_SCRIPT)
    keys = [key for key, _ in holders]
    return int(await script(keys=keys, args=_hold_args(member, holders, lease_s)))


def let_go(member: str, keys: Sequence[str]) -> None:
    """`member` is no longer held by these holders (one round trip)."""
    with redis_client.client().pipeline(transaction=False) as pipe:
        for key in keys:
            pipe.zrem(key, member)
        pipe.execute()


async def let_go_async(member: str, keys: Sequence[str]) -> int:
    """`let_go` from an event loop, and how many members the first holder then holds (`held`),
    in the same round trip: a closing game socket asks its game's (is it the last screen?)."""
    async with redis_client.async_client().pipeline(transaction=False) as pipe:
        for key in keys:
            pipe.zrem(key, member)
        pipe.zcount(keys[0], time.time(), "+inf")
        *_removed, left = await pipe.execute()
    return int(left)


def held(key: str) -> int:
    """How many members the holder holds now (leases not yet lapsed)."""
    return int(redis_client.client().zcount(key, time.time(), "+inf"))


async def held_async(key: str) -> int:
    """`held` from an event loop."""
    return int(await redis_client.async_client().zcount(key, time.time(), "+inf"))
