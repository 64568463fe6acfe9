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
import time
from typing import Any

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidMessage, InvalidStatus

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


async def open_once(
    port: int, headers: dict[str, str] | None = None, local: str = "127.0.0.1"
) -> str:
    """How a socket open from the loopback address `local` was answered: "open", "closed
    <code>", "status <code>" or "no answer" (the connection closed before any)."""
    try:
        async with connect(
            f"ws://127.0.0.1:{port}/ws/anything/",
            additional_headers=headers,
            open_timeout=5,
            local_addr=(local, 0),
        ) as socket:
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
    except InvalidMessage:
        return "no answer"


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


async def http_get(port: int, local: str = "127.0.0.1") -> bytes | None:
    """A plain request from the loopback address `local`: the first bytes of the answer, or None
    when the server closed the connection with no answer."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(local, 0))
    try:
        writer.write(b"GET /anything HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        await writer.drain()
        return await asyncio.wait_for(reader.read(12), 5) or None
    except ConnectionError:  # reset: the request arrived after the close
        return None
    finally:
        writer.close()


async def flood(
    port: int, opens: int, headers: dict[str, str] | None = None, local: str = "127.0.0.1"
) -> list[str]:
    """`opens` socket opens one after the other from the loopback address `local`: how each was
    answered (`open_once`)."""
    return [await open_once(port, headers, local) for _ in range(opens)]


async def test_a_flooding_address_is_closed_as_it_connects_and_its_neighbour_is_served(
    settings: Any,
) -> None:
    """Refused at the handshake FRONT_GATE_FLOOD_REFUSALS times, an address's next connections
    are closed before any of them is read, a plain request too: no HTTP answer, no application
    call. Another address, meanwhile, is served as before (its sockets and its requests)."""
    settings.PLAY_THROTTLE_RATES = {"socket_open_address": "2/hour"}
    settings.FRONT_GATE_FLOOD_REFUSALS = 3
    limiter.forget_refusals()
    app = Counted()
    try:
        async with serving(CountedGate(app)) as port:
            answers = await flood(port, 7)
            calls = app.calls
            closed = [await http_get(port) for _ in range(3)]
            unseen = app.calls == calls  # the application saw none of the three
            served = await http_get(port, "127.0.0.2")
            neighbour = await flood(port, 1, local="127.0.0.2")
    finally:
        limiter.forget_refusals()
    assert answers == ["open"] * 2 + ["closed 1013"] + ["status 429"] * 3 + ["no answer"]
    assert closed == [None] * 3
    assert unseen
    assert served is not None and served.startswith(b"HTTP/1.1 ")
    assert neighbour == ["open"]


async def test_a_forwarded_addresss_flood_never_closes_its_proxys_connections(
    settings: Any,
) -> None:
    """Behind a proxy (NUM_PROXIES), a flood is counted and refused by its forwarded address; the
    proxy's own connections, its other clients', are never closed for it."""
    settings.PLAY_THROTTLE_RATES = {"socket_open_address": "2/hour"}
    settings.FRONT_GATE_FLOOD_REFUSALS = 3
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "NUM_PROXIES": 1}
    limiter.forget_refusals()
    try:
        async with serving(FrontGate(Counted())) as port:
            forwarded = {"X-Forwarded-For": "203.0.113.9"}
            answers = await flood(port, 8, forwarded)
            served = await http_get(port)
    finally:
        limiter.forget_refusals()
    assert answers == ["open"] * 2 + ["closed 1013"] + ["status 429"] * 5
    assert served is not None and served.startswith(b"HTTP/1.1 ")


async def next_window(period: float) -> None:
    """Sleep until the next `period`-second window of a rate has just started."""
    await asyncio.sleep(period - time.time() % period + 0.02)


async def test_a_flooding_address_connects_again_after_a_window_with_no_knock(
    settings: Any,
) -> None:
    settings.PLAY_THROTTLE_RATES = {"socket_open_address": "1/4s"}
    settings.FRONT_GATE_FLOOD_REFUSALS = 0  # closed from the first refusal on
    limiter.forget_refusals()
    try:
        async with serving(CountedGate(Counted())) as port:
            await next_window(4)  # a window's start: 4 s for the opens
            answers = await flood(port, 3)
            closed = await http_get(port)
            await next_window(4)  # the window's end; the next passes with no knock
            await next_window(4)
            served = await http_get(port)
    finally:
        limiter.forget_refusals()
    assert answers == ["open", "closed 1013", "no answer"]
    assert closed is None
    assert served is not None and served.startswith(b"HTTP/1.1 ")


async def test_a_flood_that_goes_on_knocking_gets_no_burst_through_when_a_window_starts(
    settings: Any,
) -> None:
    """Closed at connect for flooding, an address that knocks more than FRONT_GATE_FLOOD_REFUSALS
    times in the next window is closed from that window's first connection: none of it reaches
    the gate or the application (before: each window's first opens were served, the next closed
    1013, the next answered 429). A window with fewer knocks (the flood has stopped; an honest
    page behind the address tries again) lets the address in with the next."""
    settings.PLAY_THROTTLE_RATES = {"socket_open_address": "1/4s"}
    settings.FRONT_GATE_FLOOD_REFUSALS = 2
    limiter.forget_refusals()
    app = Counted()
    CountedGate.calls = 0
    try:
        async with serving(CountedGate(app)) as port:
            await next_window(4)
            first = await flood(port, 6)
            calls = (app.calls, CountedGate.calls)
            await next_window(4)
            second = await flood(port, 3)  # more than 2 knocks: the next window is closed too
            await next_window(4)
            third = await flood(port, 1)  # one knock: the flood has stopped
            unseen = (app.calls, CountedGate.calls) == calls
            await next_window(4)
            fourth = await flood(port, 1)
    finally:
        limiter.forget_refusals()
    assert first == ["open", "closed 1013"] + ["status 429"] * 2 + ["no answer"] * 2
    assert second == ["no answer"] * 3
    assert third == ["no answer"]
    assert unseen
    assert fourth == ["open"]
