"""Opening a socket does not wait for the process's one thread for thread-sensitive calls
(tripeaks/infra/socket_threads.py): every socket of a server shares that thread, and at a race's
start a burst of game sockets queued there, one open behind another, for seconds."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.db import database_sync_to_async

from tests.play.helpers import client_for, connect, start_custom, winnable_code

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


async def test_a_game_socket_opens_while_the_one_sync_thread_is_busy(make_player: Any) -> None:
    user = await database_sync_to_async(make_player)("busy")
    game = await database_sync_to_async(start_custom)(client_for(user), winnable_code()[0])
    release = threading.Event()
    # Holds the thread every thread-sensitive call of this process goes to.
    blocker = asyncio.ensure_future(sync_to_async(release.wait, thread_sensitive=True)(30))
    try:
        socket = await connect(user, game["id"])
        connected, _ = await socket.connect(timeout=10)
        assert connected
        view = await socket.receive_json_from(timeout=10)
        assert view["type"] == "view" and view["game"]["id"] == game["id"]
        assert not blocker.done()  # answered while the thread was still held
        await socket.disconnect()
    finally:
        release.set()
        await blocker
