"""Socket opens over their address's rate, on a real server (tripeaks.stack.serve's Uvicorn options,
in this process, on loopback): the first one over is closed 1013 by the front gate; once the process
knows the address is over, the server answers the handshake 429 itself, without making a WebSocket
of the connection or running any of the application (issue #35).

A refused open cost the server 3.7-3.9 ms of CPU before the gate (its session and user read, a
Redis call, accept and close: bench.socket_flood), 0.6 ms with the gate's 1013, 0.2-0.4 ms once the
server refuses it at the handshake.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

from tests.foundation.test_server_limits import serving
from tripeaks.infra import limiter
from tripeaks.infra.front_gate import FrontGate

pytestmark = pytest.mark.asyncio


class Counted:
    """An ASGI application that accepts every socket and counts the calls it gets."""

    def __init__(self) -> None:
        self.calls = 0

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        self.calls += 1
        if scope["type"] == "websocket":
            await receive()
            await send({"type": "websocket.accept"})
            while (await receive())["type"] != "websocket.disconnect":
                pass


class CountedGate(FrontGate):
    calls = 0

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        CountedGate.calls += 1
        await super().__call__(scope, receive, send)


async def open_once(port: int) -> str:
    """How a socket open was answered: "open", "closed <code>" or "status <code>"."""
    try:
        async with connect(f"ws://127.0.0.1:{port}/ws/anything/", open_timeout=5) as socket:
            try:
                await asyncio.wait_for(socket.recv(), 0.3)
            except TimeoutError:
                return "open"
            return "message"
    except ConnectionClosed as closed:
        return f"closed {closed.rcvd.code if closed.rcvd else '?'}"
    except InvalidStatus as refused:
        assert refused.response.headers["retry-after"].isdigit()
        return f"status {refused.response.status_code}"


async def test_opens_over_the_rate_are_refused_by_the_gate_then_by_the_server(
    settings: Any,
) -> None:
    settings.PLAY_THROTTLE_RATES = {"socket_open_address": "5/hour"}
    limiter.forget_refusals()
    app = Counted()
    CountedGate.calls = 0
    try:
        async with serving(CountedGate(app)) as port:
            answers = [await open_once(port) for _ in range(20)]
    finally:
        limiter.forget_refusals()
    assert answers == ["open"] * 5 + ["closed 1013"] + ["status 429"] * 14
    # The application saw the 5 it served; the gate also the one it found over the rate; the 14
    # others were answered by the server at the handshake.
    assert (app.calls, CountedGate.calls) == (5, 6)
