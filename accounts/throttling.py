"""Repeated failed sign-ins are refused for a while, per username and per client address.

Attempts are counted in the default cache (Redis when ``REDIS_URL`` is set, so every server
process shares the counts) in fixed windows of ``SIGNIN_THROTTLE["window_seconds"]``. Each
attempt *reserves* its slot before the password is hashed or the database is asked: one Lua call
checks both counters and, when neither is at its limit, counts the attempt in both, atomically.
So any number of guesses sent at once for one username get at most ``per_username`` passwords
checked. A right password gives the slots back (the username's failures are cleared, the address's
slot returned), so what stays counted are the failures. While a username or an address is at its
limit, every attempt for it is refused, right password or not, and the caller learns how long to
wait (``Retry-After``). A cache outage refuses sign-in (503) rather than letting guesses through
uncounted.
"""

from __future__ import annotations

import contextlib
import hashlib
import math
import time
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest
from django.utils.translation import gettext

from tripeaks.infra import throttling
from tripeaks.infra.addresses import client_address

# KEYS: the counters; ARGV: each counter's limit, then each one's lifetime. Nothing is counted
# unless every counter is below its limit; the answer is the 1-based index of a counter at its
# limit (and its seconds left), or 0.
RESERVE_SCRIPT = """
local n = #KEYS
for i, key in ipairs(KEYS) do
    if tonumber(redis.call('GET', key) or '0') >= tonumber(ARGV[i]) then
        return {i, redis.call('TTL', key)}
    end
end
for i, key in ipairs(KEYS) do
    redis.call('SET', key, 0, 'EX', ARGV[n + i], 'NX')
    redis.call('INCR', key)
end
return {0, 0}
"""


@dataclass(frozen=True)
class SignInGuard:
    username: str
    address: str

    @classmethod
    def for_request(cls, request: HttpRequest, username: str) -> SignInGuard:
        address = client_address(request)
        return cls(username=username.strip().lower(), address=address or "unknown")

    @staticmethod
    def _window() -> tuple[int, int]:
        size = settings.SIGNIN_THROTTLE["window_seconds"]
        now = time.time()
        index = int(now // size)
        return index, max(1, math.ceil((index + 1) * size - now))

    def _keys(self, index: int) -> list[tuple[str, int]]:
        user_digest = hashlib.sha256(self.username.encode()).hexdigest()[:32]
        limits = settings.SIGNIN_THROTTLE
        return [
            (f"signin-fail:u:{user_digest}:{index}", limits["per_username"]),
            (f"signin-fail:a:{self.address}:{index}", limits["per_address"]),
        ]

    def reserve(self) -> int | None:
        """Count this attempt before it is checked: None when it may go on, else the seconds to
        wait (it was not counted). One atomic round trip to Redis."""
        index, remaining = self._window()
        keys = self._keys(index)
        redis = throttling._redis()
        if redis is not None:
            script = redis.register_script(RESERVE_SCRIPT)
            over, _ = script(
                keys=[cache.make_key(key) for key, _ in keys],
                args=[limit for _, limit in keys] + [remaining + 1] * len(keys),
            )
            return remaining if int(over) else None
        counts = cache.get_many([key for key, _ in keys])  # (no Redis: tests and dev only)
        if any(counts.get(key, 0) >= limit for key, limit in keys):
            return remaining
        for key, _ in keys:
            cache.add(key, 0, timeout=remaining + 1)
            cache.incr(key)
        return None

    def record_success(self) -> None:
        """A right password clears the username's failures and gives the address its slot back."""
        index, _ = self._window()
        (user_key, _), (address_key, _) = self._keys(index)
        cache.delete(user_key)
        with contextlib.suppress(ValueError):  # the window ended meanwhile
            cache.decr(address_key)


def throttled_message(seconds: int) -> str:
    return gettext("Too many failed sign-in attempts. Try again in %(seconds)s seconds.") % {
        "seconds": seconds
    }
