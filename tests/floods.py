"""Flooding a socket that has the shared flood guard (tripeaks/infra/throttle_async.py): frames
until the rates refuse one, then on until the socket is closed as a flood."""

from __future__ import annotations

import secrets
from typing import Any

from channels.testing import WebsocketCommunicator

from tripeaks.infra.throttle_async import CLOSE_FLOOD


def address_of_its_own(socket: WebsocketCommunicator) -> None:
    """The rate counters of an address outlive a test for the rest of their minute."""
    socket.scope["client"] = [f"10.{secrets.randbelow(250)}.{secrets.randbelow(250)}.7", 4000]


async def until_throttled(
    socket: WebsocketCommunicator, frame: dict[str, Any], answer: str, *, most: int = 5
) -> dict[str, Any]:
    """Send `frame` until one is refused, each answered by an `answer` before that (at most
    `most`: a rate window that turned over meanwhile lets a few more through); the refusal."""
    for _ in range(most + 1):
        await socket.send_json_to(frame)
        reply: dict[str, Any] = await socket.receive_json_from()
        if reply["type"] == "error":
            assert reply["code"] == "throttled", reply
            return reply
        assert reply["type"] == answer, reply
    raise AssertionError(f"{most + 1} frames and none was throttled")


async def until_closed(socket: WebsocketCommunicator, frame: dict[str, Any], in_a_row: int) -> None:
    """Go on sending `frame` after a first refusal: `in_a_row` refused in all, then the next
    closes the socket as a flood."""
    for _ in range(in_a_row - 1):
        await socket.send_json_to(frame)
        assert (await socket.receive_json_from())["code"] == "throttled"
    await socket.send_json_to(frame)
    closed = await socket.receive_output(timeout=3)
    assert closed == {"type": "websocket.close", "code": CLOSE_FLOOD}
