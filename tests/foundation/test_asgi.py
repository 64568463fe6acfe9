"""The ASGI application: Django over HTTP, Channels for WebSockets."""

from __future__ import annotations

import io
import json
import logging
import re

import pytest
from asgiref.sync import async_to_sync
from channels.testing import HttpCommunicator, WebsocketCommunicator

from tripeaks.config.asgi import application
from tripeaks.config.logging_json import JsonFormatter

pytestmark = pytest.mark.django_db


def test_http_goes_through_the_asgi_app_and_is_logged_once() -> None:
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(JsonFormatter())
    logger = logging.getLogger("tripeaks.requests")
    logger.addHandler(handler)
    communicator = HttpCommunicator(
        application, "GET", "/api/health", headers=[(b"host", b"testserver")]
    )
    try:
        # Health waits up to a second for a Celery worker (there is none in the tests).
        response = async_to_sync(communicator.get_response)(timeout=10)
    finally:
        logger.removeHandler(handler)

    assert response["status"] == 200
    assert json.loads(response["body"])["database"]["ok"] is True
    (line,) = stream.getvalue().splitlines()
    assert json.loads(line)["path"] == "/api/health"


def test_websocket_from_a_foreign_origin_is_refused() -> None:
    async def connect() -> bool:
        communicator = WebsocketCommunicator(
            application, "/ws/anything/", headers=[(b"origin", b"https://evil.example")]
        )
        connected, _ = await communicator.connect()
        await communicator.disconnect()
        return bool(connected)

    assert async_to_sync(connect)() is False


def test_a_page_through_the_asgi_app_carries_the_policy_with_its_scripts_nonce() -> None:
    communicator = HttpCommunicator(application, "GET", "/", headers=[(b"host", b"testserver")])
    response = async_to_sync(communicator.get_response)(timeout=10)
    assert response["status"] == 200
    headers = {name.decode().lower(): value.decode() for name, value in response["headers"]}
    policy = headers["content-security-policy"]
    nonce = re.search(r"'nonce-([^']+)'", policy)
    assert nonce is not None and "frame-ancestors 'none'" in policy
    assert f'<script nonce="{nonce.group(1)}">' in response["body"].decode()


def test_the_server_process_collects_its_young_and_its_oldest_objects_less_often() -> None:
    # A full collection walks every open socket's objects and holds the event loop 113-131 ms in
    # a 400-player race run (bench/README.md, "Stop 47"): the third threshold is 100, not 10.
    # A move's objects live to the next move: the first is 10,000, not 700 ("Stop 50, solo").
    # The process loaded `tripeaks.config.asgi` above, as every server does.
    import gc

    assert gc.get_threshold() == (10_000, 10, 100)
    assert gc.get_freeze_count() > 10_000
