"""Every cache object of a process shares one Redis pool (Django makes one per thread and per
request, and each used to open its own connections)."""

from __future__ import annotations

import threading
from typing import Any

from django.core.cache import caches


def _pool_in_a_new_thread() -> Any:
    pools = []

    def use_the_cache() -> None:
        cache = caches["default"]
        cache.set("pool-probe", 1)
        pools.append(cache._cache._get_connection_pool(True))  # type: ignore[attr-defined]

    thread = threading.Thread(target=use_the_cache)
    thread.start()
    thread.join()
    return pools[0]


def _connections(pool: Any) -> int:
    return len(pool._available_connections) + len(pool._in_use_connections)


def test_cache_objects_of_different_threads_share_one_pool() -> None:
    first = _pool_in_a_new_thread()
    opened = _connections(first)
    second = _pool_in_a_new_thread()
    assert caches["default"].__class__.__name__ == "RedisCache"
    assert first is second
    assert _connections(second) == opened  # the second thread took a connection the first gave back
