"""Repeated failed sign-ins are refused for a while, per username and per client address.

Failures are counted in the default cache (Redis when ``REDIS_URL`` is set, so every server
process shares the counts) in fixed windows of ``SIGNIN_THROTTLE["window_seconds"]``. While a
username or an address is over its limit, every sign-in attempt for it is refused, right
password or not, and the caller learns how long to wait (``Retry-After``).
"""

from __future__ import annotations

import hashlib
import math
import time
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest
from rest_framework.throttling import BaseThrottle


@dataclass(frozen=True)
class SignInGuard:
    username: str
    address: str

    @classmethod
    def for_request(cls, request: HttpRequest, username: str) -> SignInGuard:
        # DRF's notion of the client address (REMOTE_ADDR, or X-Forwarded-For with NUM_PROXIES).
        address = BaseThrottle().get_ident(request)  # type: ignore[arg-type]
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

    def retry_after(self) -> int | None:
        """Seconds to wait when this attempt must be refused, else None."""
        index, remaining = self._window()
        keys = self._keys(index)
        counts = cache.get_many([key for key, _ in keys])
        for key, limit in keys:
            if counts.get(key, 0) >= limit:
                return remaining
        return None

    def record_failure(self) -> None:
        index, remaining = self._window()
        for key, _ in self._keys(index):
            # add() creates the counter with the window's lifetime; incr() is atomic in Redis.
            cache.add(key, 0, timeout=remaining + 1)
            try:
                cache.incr(key)
            except ValueError:  # expired between add and incr
                cache.set(key, 1, timeout=remaining + 1)

    def record_success(self) -> None:
        """A right password clears the username's failures (not the address's)."""
        index, _ = self._window()
        cache.delete(self._keys(index)[0][0])


def throttled_message(seconds: int) -> str:
    return f"Too many failed sign-in attempts. Try again in {seconds} seconds."
