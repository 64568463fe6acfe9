"""Request-rate limits shared by every server process (Redis), per player and per client address.

Counts live in Redis in fixed windows, counted by the one limiter (tripeaks/infra/limiter.py): one
atomic ``INCR`` per request and limit, so any number of server processes share one budget. A limit is
``"N/period"`` with the period in ``s``, ``min``, ``hour`` or ``day`` (``"20/s"``, ``"30/min"``);
``None`` switches a limit off.

``PLAY_THROTTLE_RATES`` (settings) holds the play limits:

- ``move`` / ``move_address``: moves (REST and WebSocket frames alike), per player and per
  address. A human makes a few moves a second at most; a flood makes thousands.
- ``game_start`` / ``game_start_address``: new games, per player and per address.

Throttles *fail open*: when the cache is unreachable (Redis down) a request is let through and a
warning is logged, so an outage of the cache never stops play (PostgreSQL is the truth).
``FailOpenUserRateThrottle`` / ``FailOpenAnonRateThrottle`` give DRF's default request rates the
same behaviour.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.conf import settings
from rest_framework.request import Request
from rest_framework.throttling import (
    AnonRateThrottle,
    BaseThrottle,
    ScopedRateThrottle,
    SimpleRateThrottle,
    UserRateThrottle,
)

from tripeaks.infra import limiter

if TYPE_CHECKING:  # DRF's views import the throttles named in the settings: this module
    from rest_framework.views import APIView


@dataclass(frozen=True)
class Limit:
    scope: str
    ident: str

    def window(self, now: float) -> limiter.Window | None:
        """The current window of ``PLAY_THROTTLE_RATES[scope]`` for ``ident``; None: no limit."""
        parsed = limiter.parse_rate(settings.PLAY_THROTTLE_RATES.get(self.scope))
        if parsed is None:
            return None
        return limiter.window(f"throttle:{self.scope}:{self.ident}", *parsed, now)


def windows_of(limits: list[Limit]) -> list[limiter.Window]:
    now = time.time()
    return [w for w in (limit.window(now) for limit in limits) if w is not None]


def check(limits: list[Limit]) -> int | None:
    """Count the request against every limit: the longest wait among those it is over, or None.

    Fails open (None) when the cache cannot be reached.
    """
    return limiter.count(windows_of(limits))


def play_limits(kind: str, *, user_id: int | str, address: str | None) -> list[Limit]:
    """The per-player and per-address limits of ``kind`` (``move`` or ``game_start``)."""
    limits = [Limit(kind, f"u{user_id}")]
    if address:
        limits.append(Limit(f"{kind}_address", address))
    return limits


class _PlayThrottle(BaseThrottle):
    kind = ""
    _wait: int | None = None

    def allow_request(self, request: Request, view: APIView) -> bool:
        user = request.user
        if user is None or not user.is_authenticated:
            return True  # permission checks answer 401 first
        self._wait = check(play_limits(self.kind, user_id=user.pk, address=self.get_ident(request)))
        return self._wait is None

    def wait(self) -> float | None:
        return self._wait


class MoveThrottle(_PlayThrottle):
    """Moves over REST, per player and per address (``PLAY_THROTTLE_RATES["move*"]``)."""

    kind = "move"


class GameStartThrottle(_PlayThrottle):
    """New games, per player and per address (``PLAY_THROTTLE_RATES["game_start*"]``)."""

    kind = "game_start"


class AtomicRate(SimpleRateThrottle):
    """DRF's rate throttles counted atomically: one ``INCR`` per request in a fixed window (Lua,
    one round trip), so requests arriving together cannot slip past the limit as they can with
    DRF's read-then-write history. Rates are read from the settings at each request."""

    fail_open = True
    _wait: int | None = None

    def parse_rate(self, rate: str | None) -> tuple[int | None, int | None]:
        return limiter.parse_rate(rate) or (None, None)

    def get_rate(self) -> str | None:
        rates = settings.REST_FRAMEWORK.get("DEFAULT_THROTTLE_RATES", {})
        scope = getattr(self, "scope", None)
        return rates.get(scope) if scope else None

    def allow_request(self, request: Request, view: APIView) -> bool:
        if self.rate is None:
            return True
        key = self.get_cache_key(request, view)
        if key is None:
            return True
        allowed, period = self.parse_rate(self.rate)
        if allowed is None or period is None:
            return True
        self._wait = limiter.count([limiter.window(key, allowed, period)], fail_open=self.fail_open)
        return self._wait is None

    def wait(self) -> float | None:
        return self._wait


class FailOpenUserRateThrottle(UserRateThrottle, AtomicRate):
    """DRF's per-user request rate, atomic, failing open (a cache outage lets requests through)."""


class FailOpenAnonRateThrottle(AnonRateThrottle, AtomicRate):
    """DRF's per-address anonymous request rate, atomic, failing open."""


class StrictAnonRateThrottle(AnonRateThrottle, AtomicRate):
    """The anonymous request rate for sign-up and sign-in: a cache outage refuses (503) rather
    than opening the door to unlimited attempts."""

    fail_open = False


class StrictScopedRateThrottle(ScopedRateThrottle, AtomicRate):
    """A view's ``throttle_scope`` rate (e.g. ``signup``) per client address, whoever asks:
    atomic; a cache outage refuses (503).

    DRF's scoped rate counts a signed-in request per account: signed in (a guest, or a player
    signing a second account up), the same address got the whole rate again for every account.
    """

    fail_open = False

    def get_cache_key(self, request: Request, view: APIView) -> str:
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}
