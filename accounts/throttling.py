"""Repeated failed sign-ins are refused for a while, per username and per client address.

Attempts are counted in Redis by the limiter (tripeaks/infra/limiter.py: every server process
shares the counts) in fixed windows of ``SIGNIN_THROTTLE["window_seconds"]``. Each
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
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest
from django.utils.translation import gettext

from tripeaks.infra import limiter
from tripeaks.infra.addresses import client_address


@dataclass(frozen=True)
class SignInGuard:
    username: str
    address: str

    @classmethod
    def for_request(cls, request: HttpRequest, username: str) -> SignInGuard:
        address = client_address(request)
        return cls(username=username.strip().lower(), address=address or "unknown")

    def _windows(self) -> list[limiter.Window]:
        user_digest = hashlib.sha256(self.username.encode()).hexdigest()[:32]
        limits = settings.SIGNIN_THROTTLE
        size = limits["window_seconds"]
        return [
            limiter.window(f"signin-fail:u:{user_digest}", limits["per_username"], size),
            limiter.window(f"signin-fail:a:{self.address}", limits["per_address"], size),
        ]

    def reserve(self) -> int | None:
        """Count this attempt before it is checked: None when it may go on, else the seconds to
        wait (it was not counted). One atomic round trip to Redis."""
        return limiter.reserve(self._windows())

    def record_success(self) -> None:
        """A right password clears the username's failures and gives the address its slot back."""
        user_window, address_window = self._windows()
        cache.delete(user_window.key)
        with contextlib.suppress(ValueError):  # the window ended meanwhile
            cache.decr(address_window.key)


def throttled_message(seconds: int) -> str:
    return gettext("Too many failed sign-in attempts. Try again in %(seconds)s seconds.") % {
        "seconds": seconds
    }
