"""One Redis connection pool per server and options for the whole process.

Django makes a cache object for every thread and every async context, so under ASGI each request
got a new `RedisCache`, with a new pool and a new connection (a TCP connect and the client's
handshake before its first command: Django ticket #35651). Named as the cache's `pool_class`, this
hands every cache object the same pool. redis-py pools reset themselves in a forked child.
"""

from __future__ import annotations

import threading
from typing import Any, ClassVar

import redis


class SharedConnectionPool(redis.ConnectionPool):
    _shared_pools: ClassVar[
        dict[tuple[str, tuple[tuple[str, Any], ...]], redis.ConnectionPool]
    ] = {}
    _shared_lock: ClassVar[threading.Lock] = threading.Lock()

    @classmethod
    def from_url(cls, url: str, **kwargs: Any) -> redis.ConnectionPool:  # type: ignore[override]
        key = (url, tuple(sorted(kwargs.items())))
        with cls._shared_lock:
            pool = cls._shared_pools.get(key)
            if pool is None:
                pool = cls._shared_pools[key] = super().from_url(url, **kwargs)
            return pool
