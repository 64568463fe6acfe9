"""One module hands out Redis clients (tripeaks/infra/redis_client.py), on redis-py's public API:
the sync client on the cache's own pool, an async client per event loop."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from django.core.cache import cache

from tripeaks.infra import redis_client

ROOT = Path(__file__).resolve().parents[2]
APPS = ("tripeaks", "accounts", "leaderboard", "frontend")


def test_no_application_module_reaches_into_the_caches_private_client() -> None:
    found = [
        str(path.relative_to(ROOT))
        for app in APPS
        for path in (ROOT / app).rglob("*.py")
        if "_cache.get_client" in path.read_text()
    ]
    assert found == []


def test_the_client_uses_the_caches_one_pool() -> None:
    cache.set("pool-probe", 1)
    cache_pool = cache._cache._get_connection_pool(True)  # type: ignore[attr-defined]
    assert redis_client.client().connection_pool is cache_pool
    assert redis_client.client().get(cache.make_key("pool-probe")) is not None


def test_the_client_is_made_once_not_at_every_call() -> None:
    """Making a `redis.Redis` fills its reply-callback table (0.3 ms a call, three calls in a
    refused hint): it is made once for the pool."""
    assert redis_client.client() is redis_client.client()


@pytest.mark.asyncio
async def test_an_event_loop_has_one_async_client_and_one_for_subscriptions() -> None:
    client = redis_client.async_client()
    assert redis_client.async_client() is client
    assert await client.ping()
    subscriber = redis_client.async_client(subscriber=True)
    assert subscriber is not client
    # A subscription waits for news as long as it takes: a read timeout would drop it when idle.
    assert subscriber.connection_pool.connection_kwargs.get("socket_timeout") is None
    assert client.connection_pool.connection_kwargs.get("socket_timeout") == 2


def test_each_event_loop_gets_its_own_async_client() -> None:
    async def one() -> object:
        return redis_client.async_client()

    assert asyncio.run(one()) is not asyncio.run(one())
