"""The game socket and the live board's socket share one flood guard (tripeaks/infra/throttle_async.py):
a frame over the rates gets a `throttled` error, and a socket that keeps on is closed (4429).
The game socket's side is in tests/reliability/test_throttling.py; here, the board's."""

from __future__ import annotations

from typing import Any

import pytest
from channels.testing import WebsocketCommunicator

from leaderboard import consumers as board_consumers
from tests.floods import address_of_its_own, until_closed, until_throttled
from tripeaks.config.asgi import application

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


async def test_a_board_socket_flood_gets_throttle_errors_then_is_closed(settings: Any) -> None:
    settings.PLAY_THROTTLE_RATES = {**settings.PLAY_THROTTLE_RATES, "board_address": "3/min"}
    socket = WebsocketCommunicator(
        application,
        "/ws/leaderboards/daily/wrap-closed/",
        headers=[(b"origin", b"http://localhost")],
    )
    address_of_its_own(socket)
    assert (await socket.connect())[0]  # the connect counts: one of three
    assert (await socket.receive_json_from())["type"] == "board"
    reply = await until_throttled(socket, {"type": "sync"}, "board")
    assert 1 <= reply["retry_after"] <= 60
    assert reply["detail"] == f"Too many messages. Try again in {reply['retry_after']} seconds."
    await until_closed(socket, {"type": "sync"}, board_consumers.MAX_THROTTLED_IN_A_ROW)
    await socket.disconnect()
