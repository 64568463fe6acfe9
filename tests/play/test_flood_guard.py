"""The game socket and the live board's socket share one flood guard (tripeaks/infra/throttle_async.py):
a frame over the rates gets a `throttled` error, and a socket that keeps on is closed (4429).
The game socket's side is in tests/reliability/test_throttling.py; here, the board's."""

from __future__ import annotations

import secrets
from typing import Any

import pytest
from channels.testing import WebsocketCommunicator

from leaderboard import consumers as board_consumers
from tripeaks.config.asgi import application
from tripeaks.infra import throttle_async

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


async def test_a_board_socket_flood_gets_throttle_errors_then_is_closed(settings: Any) -> None:
    settings.PLAY_THROTTLE_RATES = {**settings.PLAY_THROTTLE_RATES, "board_address": "3/min"}
    socket = WebsocketCommunicator(
        application,
        "/ws/leaderboards/daily/wrap-closed/",
        headers=[(b"origin", b"http://localhost")],
    )
    # An address of its own: the counters outlive the test for the rest of their minute.
    socket.scope["client"] = [f"10.{secrets.randbelow(250)}.{secrets.randbelow(250)}.7", 4000]
    assert (await socket.connect())[0]  # the connect counts: one of three
    assert (await socket.receive_json_from())["type"] == "board"
    frames = 1
    while True:  # a window that turned over meanwhile lets a few more through
        await socket.send_json_to({"type": "sync"})
        frames += 1
        reply = await socket.receive_json_from()
        if reply["type"] == "error":
            break
        assert reply["type"] == "board" and frames <= 6
    assert reply["code"] == "throttled" and 1 <= reply["retry_after"] <= 60
    assert reply["detail"] == f"Too many messages. Try again in {reply['retry_after']} seconds."
    for _ in range(board_consumers.MAX_THROTTLED_IN_A_ROW - 1):
        await socket.send_json_to({"type": "sync"})
        assert (await socket.receive_json_from())["code"] == "throttled"
    await socket.send_json_to({"type": "sync"})
    closed = await socket.receive_output(timeout=3)
    assert closed == {"type": "websocket.close", "code": throttle_async.CLOSE_FLOOD}
    await socket.disconnect()
