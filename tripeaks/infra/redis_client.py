"""The application's one Redis client: the default cache's own (one connection pool, one key
prefix), for the state that lives in Redis beside the cache: rate windows, solver slots, the
quick-match queue, who is at a race, which screens show a game, the boards' cache."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.cache import cache


def uses_redis() -> bool:
    """Whether the default cache is Redis (a test may swap in another to see what happens
    without it)."""
    return bool(settings.CACHES["default"]["BACKEND"].endswith("RedisCache"))


def client() -> Any:
    # Django's RedisCache offers no public way to its client.
    return cache._cache.get_client(None, write=True)  # type: ignore[attr-defined]


def key(*parts: str) -> str:
    """A key under the cache's prefix: `key("qm", "where")` is `<prefix>:qm:where`."""
    return ":".join([settings.CACHES["default"].get("KEY_PREFIX", ""), *parts])


def text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)
