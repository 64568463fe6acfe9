"""The application's one way to Redis: typed clients built from `settings.REDIS_URL` with the
cache's connection options, for the state that lives in Redis beside the cache (rate windows,
solver slots, socket counts, the quick-match queue, who is at a race, the boards' cache, the
contests' news).

- `client()`: a `redis.Redis` on the process's one connection pool, the very pool the Django
  cache uses (`SharedConnectionPool` hands both the same one), so threads share connections.
- `async_client()`: a `redis.asyncio.Redis` for the running event loop (asyncio connections
  belong to the loop that opened them), one pool a loop.
- `async_client(subscriber=True)`: the same for a pub/sub subscription, whose reads wait for news
  as long as it takes (no read timeout).
- Each takes `url=`: another Redis server than `settings.REDIS_URL` (one of the channel layer's,
  `settings.CHANNEL_REDIS_URLS`), with the same options; `client` takes `timeout=`, another read
  timeout than the cache's.
- `broker_client()`: the Celery broker's Redis (`settings.CELERY_BROKER_URL`) with the broker's
  read timeout, for reading its queues (`play/solver_queue.backlog`).

Every client, the cache's and the channel layer's included, reads Redis's replies with hiredis's
C parser (a dependency; redis-py picks it up when it is installed, `DefaultParser`): its own
parser reads a reply in Python, element by element.
"""

from __future__ import annotations

import asyncio
import functools
import weakref
from typing import Any

import redis
import redis.asyncio
from django.conf import settings
from redis.commands.core import Script

from tripeaks.infra.redis_pool import SharedConnectionPool


def _options() -> dict[str, Any]:
    """The cache's connection options, as Django passes them to its pool (same pool key)."""
    options = dict(settings.CACHES["default"].get("OPTIONS", {}))
    options.pop("pool_class", None)
    options.setdefault("parser_class", redis.connection.DefaultParser)
    return options


# One client a pool: making a `redis.Redis` fills its table of reply callbacks (0.3 ms, a tenth
# of a refused request), and one is safe to share between threads (each command borrows a
# connection from the pool; the pool starts afresh in a forked child).
_clients: dict[int, tuple[redis.ConnectionPool, redis.Redis]] = {}


def client(url: str | None = None, *, timeout: float | None = None) -> redis.Redis:
    """The process's client of `url` (the cache's Redis), reading with the cache's timeout or
    `timeout` (seconds)."""
    options = _options()
    if timeout is not None:
        options["socket_timeout"] = timeout
    pool = SharedConnectionPool.from_url(url or settings.REDIS_URL, **options)
    found = _clients.get(id(pool))
    if found is None or found[0] is not pool:
        found = _clients[id(pool)] = (pool, redis.Redis(connection_pool=pool))
    return found[1]


def script(source: str, on: redis.Redis | None = None) -> Script:
    """The Lua `source` on `on` (else the process's `client()`), registered once a client and
    script: `register_script` works its SHA-1 out again at every call (a game's finish made ~50
    Python calls of it)."""
    return _registered(on or client(), source)


@functools.cache  # the clients live as long as the process, one a pool (`client`)
def _registered(on: redis.Redis, source: str) -> Script:
    return on.register_script(source)


def broker_client() -> redis.Redis:
    """The Celery broker's Redis (kombu's `redis+socket://` is redis-py's `unix://`), with the
    broker's own read timeout (`CELERY_BROKER_TRANSPORT_OPTIONS`)."""
    url = settings.CELERY_BROKER_URL
    if url.startswith("redis+socket://"):
        url = "unix://" + url.removeprefix("redis+socket://")
    return client(url, timeout=settings.CELERY_BROKER_TRANSPORT_OPTIONS["socket_timeout"])


_async_clients: weakref.WeakKeyDictionary[
    asyncio.AbstractEventLoop, dict[tuple[bool, str], redis.asyncio.Redis]
] = weakref.WeakKeyDictionary()


def async_client(*, subscriber: bool = False, url: str | None = None) -> redis.asyncio.Redis:
    """The running event loop's client (`subscriber`: reads without a timeout)."""
    loop = asyncio.get_running_loop()
    clients = _async_clients.setdefault(loop, {})
    url = url or settings.REDIS_URL
    found = clients.get((subscriber, url))
    if found is None:
        options = _options()
        del options["parser_class"]  # the sync parser; asyncio picks its own
        if subscriber:
            options.pop("socket_timeout", None)
        found = clients[subscriber, url] = redis.asyncio.Redis.from_url(url, **options)
    return found


def key(*parts: str) -> str:
    """A key under the cache's prefix: `key("qm", "where")` is `<prefix>:qm:where`."""
    return ":".join([settings.CACHES["default"].get("KEY_PREFIX", ""), *parts])


def text(value: bytes | str | int | float) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)
