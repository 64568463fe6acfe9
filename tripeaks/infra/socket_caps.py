"""Open sockets, counted per holder (a game, an account, an address) where every server process
sees them, and capped: one account cannot open hundreds of sockets on a game and slow everyone.

A holder's sockets are a Redis sorted set, one member a socket (its channel name), scored by when
the member lapses: `LEASE_S` after it was added or last renewed (a socket renews it, at most once
every `RENEW_S`, as frames come). A server that dies with sockets open leaves no member behind for
longer than that. `admit` adds a socket to every holder at once, or to none when one of them is
at its cap, in one script (the limiter's holdings: tripeaks/infra/limiter.py); `release` takes
it out again. A socket's own opening and closing use their `_async` twins, on the event loop's
Redis client: a worker thread's hop costs more than the call.

Before it is counted, a socket being opened is noted in its process (`opening`): a burst of opens
on one holder (a flood's, all at once) is refused beyond the holder's cap as it arrives, with no
Redis call and before any of it reads its session, where the sockets' counts in Redis, all made
after those reads, would each have found room.

Redis unreachable: every socket is admitted and counts as open (a warning is logged): the caps
protect the service, they must not take it down with Redis.
"""

from __future__ import annotations

import contextlib
import logging
from collections import Counter
from collections.abc import Iterator, Sequence

from django.core.cache import cache

from tripeaks.infra import limiter
from tripeaks.infra.loop_local import PerLoop

log = logging.getLogger("tripeaks.events")

LEASE_S = 600
RENEW_S = LEASE_S // 2


# Each event loop's sockets being opened, by holder: from `opening` to their count (`admit`).
_opening: PerLoop[Counter[str]] = PerLoop(Counter)


@contextlib.contextmanager
def opening(key: str, cap: int) -> Iterator[bool]:
    """A socket of the holder `key` being opened (until the block ends: the socket counted by
    `admit`, or refused): True, or False when `cap` of the holder's sockets (0: no cap) are being
    opened in this event loop already."""
    underway = _opening.get()
    if cap and underway[key] >= cap:
        yield False
        return
    underway[key] += 1
    try:
        yield True
    finally:
        underway[key] -= 1
        if underway[key] <= 0:
            del underway[key]


def holder(kind: str, name: object) -> str:
    """The key of one holder's sockets: `holder("game", game_id)`."""
    return str(cache.make_key(f"sockets:{kind}:{name}"))


def admit(member: str, holders: Sequence[tuple[str, int]], leaving: Sequence[str] = ()) -> int:
    """Count the socket `member` among each holder's `(key, cap)` (cap 0: none), all or none:
    0 when admitted, else the 1-based index of the first holder at its cap. A socket counted
    already is admitted again (a renewal). Once admitted, it is no longer counted by the holders
    `leaving` (`release`), by the same round trip."""
    if not holders:
        return 0
    try:
        return limiter.hold(member, holders, LEASE_S, leaving)
    except Exception:
        log.warning("could not count a socket", extra={"socket": member}, exc_info=True)
        return 0


async def admit_async(member: str, holders: Sequence[tuple[str, int]]) -> int:
    """`admit` from an event loop."""
    if not holders:
        return 0
    try:
        return await limiter.hold_async(member, holders, LEASE_S)
    except Exception:
        log.warning("could not count a socket", extra={"socket": member}, exc_info=True)
        return 0


def release(member: str, keys: Sequence[str]) -> None:
    """The socket `member` is closed (or no longer counts for these holders)."""
    if not keys:
        return
    try:
        limiter.let_go(member, keys)
    except Exception:
        log.warning("could not uncount a socket", extra={"socket": member}, exc_info=True)


async def release_async(member: str, keys: Sequence[str]) -> int | None:
    """`release` from an event loop: how many sockets the first holder has open then
    (`open_count`, in the same round trip), None when Redis cannot say (or no holder)."""
    if not keys:
        return None
    try:
        return await limiter.let_go_async(member, keys)
    except Exception:
        log.warning("could not uncount a socket", extra={"socket": member}, exc_info=True)
        return None


def open_count(key: str) -> int | None:
    """How many sockets the holder has open now, by every server process; None when Redis
    cannot say."""
    try:
        return limiter.held(key)
    except Exception:
        log.warning("could not count sockets", extra={"holder": key}, exc_info=True)
        return None


async def open_count_async(key: str) -> int | None:
    """`open_count` from an event loop."""
    try:
        return await limiter.held_async(key)
    except Exception:
        log.warning("could not count sockets", extra={"holder": key}, exc_info=True)
        return None
