"""Open sockets, counted per holder (a game, an account, an address) where every server process
sees them, and capped: one account cannot open hundreds of sockets on a game and slow everyone.

A holder's sockets are a Redis sorted set, one member a socket (its channel name), scored by when
the member lapses: `LEASE_S` after it was added or last renewed (a socket renews it, at most once
every `RENEW_S`, as frames come). A server that dies with sockets open leaves no member behind for
longer than that. `admit` adds a socket to every holder at once, or to none when one of them is
at its cap, in one script; `release` takes it out again.

Redis unreachable: every socket is admitted and counts as open (a warning is logged): the caps
protect the service, they must not take it down with Redis.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence

from django.core.cache import cache

from tripeaks.infra import redis_client

log = logging.getLogger("tripeaks.events")

LEASE_S = 600
RENEW_S = LEASE_S // 2

# KEYS: the holders' sets. ARGV: now, the lease's end, the member, then each holder's cap (0: no
# cap). Returns 0 (admitted to every holder) or the 1-based index of the holder at its cap.
ADMIT_SCRIPT = """
for i, key in ipairs(KEYS) do
    redis.call('ZREMRANGEBYSCORE', key, '-inf', ARGV[1])
    local cap = tonumber(ARGV[3 + i])
    if cap > 0 and not redis.call('ZSCORE', key, ARGV[3])
        and redis.call('ZCARD', key) >= cap then
        return i
    end
end
for _, key in ipairs(KEYS) do
    redis.call('ZADD', key, ARGV[2], ARGV[3])
    redis.call('EXPIRE', key, ARGV[4 + #KEYS])
end
return 0
"""


def holder(kind: str, name: object) -> str:
    """The key of one holder's sockets: `holder("game", game_id)`."""
    return str(cache.make_key(f"sockets:{kind}:{name}"))


def admit(member: str, holders: Sequence[tuple[str, int]]) -> int:
    """Count the socket `member` among each holder's `(key, cap)` (cap 0: none), all or none:
    0 when admitted, else the 1-based index of the first holder at its cap. A socket counted
    already is admitted again (a renewal)."""
    if not holders:
        return 0
    now = time.time()
    try:
        outcome = redis_client.client().eval(
            ADMIT_SCRIPT,
            len(holders),
            *[key for key, _ in holders],
            now,
            now + LEASE_S,
            member,
            *[cap for _, cap in holders],
            LEASE_S,
        )
    except Exception:
        log.warning("could not count a socket", extra={"socket": member}, exc_info=True)
        return 0
    return int(outcome)


def release(member: str, keys: Sequence[str]) -> None:
    """The socket `member` is closed (or no longer counts for these holders)."""
    if not keys:
        return
    try:
        with redis_client.client().pipeline(transaction=False) as pipe:
            for key in keys:
                pipe.zrem(key, member)
            pipe.execute()
    except Exception:
        log.warning("could not uncount a socket", extra={"socket": member}, exc_info=True)


def open_count(key: str) -> int | None:
    """How many sockets the holder has open now, by every server process; None when Redis
    cannot say."""
    try:
        return int(redis_client.client().zcount(key, time.time(), "+inf"))
    except Exception:
        log.warning("could not count sockets", extra={"holder": key}, exc_info=True)
        return None
