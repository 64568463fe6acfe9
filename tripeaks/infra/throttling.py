"""Request-rate limits shared by every server process (Redis), per player and per client address.

Counts live in the default cache (Redis) in fixed windows: one atomic
``INCR`` per request and limit, so any number of server processes share one budget. A limit is
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

import logging
import math
import time
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.core.cache import cache
from rest_framework.request import Request
from rest_framework.throttling import (
    AnonRateThrottle,
    BaseThrottle,
    ScopedRateThrottle,
    SimpleRateThrottle,
    UserRateThrottle,
)

from tripeaks.infra import redis_client

log = logging.getLogger("tripeaks.throttle")

_PERIODS = {"s": 1, "sec": 1, "min": 60, "m": 60, "hour": 3600, "h": 3600, "day": 86400, "d": 86400}


def parse_rate(rate: str | None) -> tuple[int, int] | None:
    """``"20/s"`` -> (20, 1); ``None`` -> None (no limit)."""
    if not rate:
        return None
    count, _, period = rate.partition("/")
    return int(count), _PERIODS[period.strip()]


@dataclass(frozen=True)
class Limit:
    scope: str
    ident: str

    def window(self, now: float) -> tuple[str, int, int, int] | None:
        """(cache key, allowed, period, seconds left) of the current window; None: no limit."""
        parsed = parse_rate(settings.PLAY_THROTTLE_RATES.get(self.scope))
        if parsed is None:
            return None
        allowed, period = parsed
        index = int(now // period)
        left = max(1, math.ceil((index + 1) * period - now))
        return f"throttle:{self.scope}:{self.ident}:{index}", allowed, period, left


Window = tuple[str, int, int, int]

# SET NX makes each counter with its window's lifetime, INCR counts: one atomic call for every
# window given (a key given twice counts twice). The REST throttles and the game socket's batches
# (tripeaks/infra/throttle_async.py) both count with it.
COUNT_SCRIPT = """
local counts = {}
for i, key in ipairs(KEYS) do
    redis.call('SET', key, 0, 'EX', ARGV[i], 'NX')
    counts[i] = redis.call('INCR', key)
end
return counts
"""


def script_arguments(windows: list[Window]) -> tuple[list[str], list[int]]:
    """COUNT_SCRIPT's keys and arguments for `windows`."""
    keys = [cache.make_key(key) for key, _, _, _ in windows]
    return keys, [period + 1 for _, _, period, _ in windows]


def _count(windows: list[Window]) -> list[int]:
    """Add one to each window's counter (created with the window's lifetime); the new counts."""
    redis = _redis()
    if redis is not None:
        keys, args = script_arguments(windows)
        counts = redis.register_script(COUNT_SCRIPT)(keys=keys, args=args)
        return [int(count) for count in counts]
    counts = []
    for key, _, period, _ in windows:
        cache.add(key, 0, timeout=period + 1)
        try:
            counts.append(cache.incr(key))
        except ValueError:  # expired between add and incr
            cache.set(key, 1, timeout=period + 1)
            counts.append(1)
    return counts


def _redis() -> Any | None:
    return redis_client.client() if redis_client.uses_redis() else None


def windows_of(limits: list[Limit]) -> list[Window]:
    now = time.time()
    return [w for w in (limit.window(now) for limit in limits) if w is not None]


def longest_wait(windows: list[Window], counts: list[int]) -> int | None:
    waits = [left for (_, allowed, _, left), n in zip(windows, counts, strict=True) if n > allowed]
    return max(waits) if waits else None


def check(limits: list[Limit]) -> int | None:
    """Count the request against every limit: the longest wait among those it is over, or None.

    Fails open (None) when the cache cannot be reached.
    """
    return check_windows(windows_of(limits))


def check_windows(windows: list[Window], *, fail_open: bool = True) -> int | None:
    """Count one request in each window, atomically: the longest wait among those it is over,
    or None. A cache outage lets the request through (``fail_open``) or raises."""
    if not windows:
        return None
    if not fail_open:
        return longest_wait(windows, _count(windows))
    try:
        counts = _count(windows)
    except Exception:  # fail open: a cache outage must not stop play
        log.warning("throttle cache unreachable; letting the request through", exc_info=True)
        return None
    return longest_wait(windows, counts)


def play_limits(kind: str, *, user_id: Any, address: str | None) -> list[Limit]:
    """The per-player and per-address limits of ``kind`` (``move`` or ``game_start``)."""
    limits = [Limit(kind, f"u{user_id}")]
    if address:
        limits.append(Limit(f"{kind}_address", address))
    return limits


class _PlayThrottle(BaseThrottle):
    kind = ""
    _wait: int | None = None

    def allow_request(self, request: Request, view: Any) -> bool:
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

    def get_rate(self) -> str | None:
        rates = settings.REST_FRAMEWORK.get("DEFAULT_THROTTLE_RATES", {})
        scope = getattr(self, "scope", None)
        return rates.get(scope) if scope else None

    def allow_request(self, request: Request, view: Any) -> bool:
        if self.rate is None:
            return True
        key = self.get_cache_key(request, view)
        if key is None:
            return True
        allowed, period = self.parse_rate(self.rate)
        if allowed is None or period is None:
            return True
        now = time.time()
        index = int(now // period)
        left = max(1, math.ceil((index + 1) * period - now))
        self._wait = check_windows(
            [(f"{key}:{index}", allowed, period, left)], fail_open=self.fail_open
        )
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

    def get_cache_key(self, request: Request, view: Any) -> str:
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}
