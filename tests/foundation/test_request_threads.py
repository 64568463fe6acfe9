"""HTTP requests run their sync code on reused threads, one request per thread at a time."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from channels.testing import HttpCommunicator
from django.core.handlers.asgi import ASGIHandler

from tests.foundation import thread_urls
from tripeaks.infra.request_threads import ReusedThreadsASGIHandler

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _thread_urls(settings: Any) -> None:
    settings.ROOT_URLCONF = "tests.foundation.thread_urls"


async def _thread_of(handler: Any, path: str) -> int:
    """The thread a request ran on, once the handler has finished with it (not just answered)."""
    communicator = HttpCommunicator(handler, "GET", path, headers=[(b"host", b"testserver")])
    response = await communicator.get_response()
    await communicator.wait()
    assert response["status"] == 200
    return int(json.loads(response["body"])["thread"])


def _in_a_row(handler: Any, count: int) -> list[int]:
    """The threads `count` requests in a row ran on. From a plain event loop, as in the server:
    under async_to_sync, Django would run them on the calling thread."""

    async def run() -> list[int]:
        return [await _thread_of(handler, "/thread") for _ in range(count)]

    return asyncio.run(run())


def test_requests_in_a_row_reuse_one_thread() -> None:
    assert len(set(_in_a_row(ReusedThreadsASGIHandler(), 10))) == 1


def test_djangos_own_handler_starts_a_thread_per_request() -> None:
    # What the handler above saves; if Django ever reuses threads itself, it can go.
    assert len(set(_in_a_row(ASGIHandler(), 10))) == 10


def test_requests_at_the_same_time_get_threads_of_their_own() -> None:
    handler = ReusedThreadsASGIHandler()
    thread_urls.together.reset()

    async def run() -> list[int]:
        return list(await asyncio.gather(*(_thread_of(handler, "/meet") for _ in range(2))))

    first, second = asyncio.run(run())
    assert first != second
    # Both threads are idle again and serve the next requests.
    assert set(_in_a_row(handler, 6)) <= {first, second}
