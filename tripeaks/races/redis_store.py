"""The Redis that races keep their short-lived state in (the quick-match queue, who is here):
the cache's own client and key prefix, so one pool and one namespace serve both."""

from __future__ import annotations

from typing import Any

from django.conf import settings


def client() -> Any:
    from django.core.cache import cache

    return cache._cache.get_client(None, write=True)  # type: ignore[attr-defined]


def key(*parts: str) -> str:
    """A key under the cache's prefix: `key("qm", "where")` is `<prefix>:qm:where`."""
    return ":".join([settings.CACHES["default"].get("KEY_PREFIX", ""), *parts])


def text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)
